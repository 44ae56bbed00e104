"""check_input_spec: a learner's InputSpec list, checked with one sentence that says what to change."""
from ..language import _
from .report import _dims_text, _dtype_text, _is_dynamic, _short


def check_input_spec(name, found, features, dtype="float32", *, list_required=True):
    """Pass when ``found`` is ``[InputSpec([None, *features], dtype, ...)]``; otherwise one sentence that says what to change.

    ``features``: the dimensions after the batch, e.g. ``[784]``. With ``list_required=False`` one
    InputSpec without a list passes too. The mistakes named: no answer yet, the class ``InputSpec``
    itself, a shape instead of an InputSpec, a spec not in a list, a fixed batch size (the mistake
    lesson 06 warns about), other dimensions, a dtype that is not the weights'.
    """
    from ..checks.failure import CheckFailed, _learner_facing, _passed, _require_answer

    @_learner_facing
    def check(name, found):
        from paddle.static import InputSpec

        _require_answer(name, found)
        wanted = f"InputSpec({_dims_text([None] + list(features))}, '{dtype}', 'x')"
        in_list = f"[{wanted}]" if list_required else wanted
        items = list(found) if isinstance(found, (list, tuple)) else [found]
        if any(item is InputSpec for item in items):
            raise CheckFailed(_("`{name}` holds the class InputSpec itself, not an InputSpec made from it: call it "
                                "with a shape and a dtype, {answer}.").format(name=name, answer=in_list))
        if isinstance(found, (list, tuple)) and found and all(isinstance(d, (int, type(None))) for d in found):
            raise CheckFailed(_("`{name}` is a shape ({shape}), not an InputSpec: wrap the shape in an "
                                "InputSpec, {answer}.").format(name=name, shape=_short(list(found)), answer=in_list))
        if isinstance(found, InputSpec) and list_required:
            raise CheckFailed(_("`{name}` is one InputSpec; input_spec takes a list of them: put it in square "
                                "brackets, {answer}.").format(name=name, answer=in_list))
        if not isinstance(found, (list, tuple, InputSpec)):
            raise CheckFailed(_("`{name}` is a {type}, not a list with one InputSpec: write {answer}.").format(
                name=name, type=type(found).__name__, answer=in_list))
        if len(items) != 1 or not isinstance(items[0], InputSpec):
            if len(items) != 1:
                message = _("`{name}` holds {count} items; the model has one input, so it needs exactly one "
                            "InputSpec: {answer}.")
            else:
                message = _("`{name}` holds a {type}; the model has one input, so it needs exactly one "
                            "InputSpec: {answer}.")
            raise CheckFailed(message.format(name=name, count=len(items), type=type(items[0]).__name__ if items else "",
                                             answer=in_list))
        spec = items[0]
        shape = list(spec.shape)
        problems = []
        # Translators: the three parts of "`{name}`: {problems}. Write {answer}.", joined by "; "
        if len(shape) == len(features):
            problems.append(_("it has no batch dimension ({shape}): put None in front of the {count} feature "
                              "dimension(s)").format(shape=_dims_text(shape), count=len(features)))
        elif shape and not _is_dynamic(shape[0]):
            problems.append(_("it fixes the batch size at {batch} ({shape}), which the export "
                              "bakes in: write None for the batch dimension").format(batch=int(shape[0]),
                                                                                     shape=_dims_text(shape)))
        if len(shape) != len(features) and [int(d) if not _is_dynamic(d) else None for d in shape[1:]] != list(features):
            # Translators: {wanted} is a shape whose first dimension is the word "batch", e.g. [batch, 784]
            problems.append(_("it describes {shape} but the model takes {wanted}").format(
                shape=_dims_text(shape),
                wanted=_dims_text([None] + list(features)).replace("None", _("batch"), 1)))
        if _dtype_text(spec.dtype) != dtype:
            problems.append(_("its dtype is {dtype} but the model's weights are {weights}").format(
                dtype=_dtype_text(spec.dtype), weights=dtype))
        if problems:
            raise CheckFailed(_("`{name}`: {problems}. Write {answer}.").format(
                name=name, problems=_("; ").join(problems), answer=in_list))
        _passed(name, f"{_dims_text(shape)} {_dtype_text(spec.dtype)}")

    return check(name, found)
