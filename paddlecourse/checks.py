"""Checks: the one path that tells a learner (and nbgrader) whether an answer is right.

Every check prints one ✓ line when the answer is right. When it is not, it
raises ``CheckFailed`` (an ``AssertionError``, so nbgrader scores the cell 0)
whose message says what was expected, what was found, and a hint. A check never
lets an exception from its own internals reach the learner: whatever it is
given - None, a string, a ragged list, NaN, a symbolic static value, an object
that raises - it answers with a plain sentence.

Answers are compared by value, not by type: 42, 42.0, np.float32(42),
np.array([42.]) and paddle.to_tensor([42.]) are all the same answer.

Every message is in the language in force (``paddlecourse.language``): the checks' own sentences
through ``_()``, and what a lesson's code hands in - a check's name or label, ``hint=``,
``because=``, a ``check_parts`` title, a ``CheckFailed`` it raises - through ``translate()``
before it is composed, so a Chinese lesson reads Chinese where its catalogue has the entry. A
learner's variable name is never in a catalogue, so it stays as typed.
"""
import functools

import numpy as np

from .language import _, ngettext, translate, translate_label


class CheckFailed(AssertionError):
    """A learner's answer is not right yet; the message says why and what to try."""

    def __init__(self, message, hint=None):
        message, hint = translate(message), translate(hint)  # a lesson's own text, in the learner's language
        self.message = message  # without the hint: check_parts lists both on one line
        self.hint = hint
        # Translators: the line under a failed check's message; keep "{message}" and the line break
        text = message if not hint else _("{message}\nHint: {hint}").format(message=message, hint=hint)
        super().__init__(text)


def _lesson_text(args, kwargs):
    """A check's name (its first argument) and ``hint``/``because`` as the lesson wrote them, translated
    (a name that is code - the learner's variable - stays as it is)."""
    if args and isinstance(args[0], str):
        args = (translate_label(args[0]),) + tuple(args[1:])
    for key in ("hint", "because"):
        if isinstance(kwargs.get(key), str):
            kwargs[key] = translate(kwargs[key])
    return args, kwargs


def _learner_facing(check):
    """Turn any internal error of ``check`` into a CheckFailed with a plain message."""

    @functools.wraps(check)
    def wrapper(*args, **kwargs):
        __tracebackhide__ = True  # IPython and pytest hide this frame
        args, kwargs = _lesson_text(args, dict(kwargs))
        try:
            return check(*args, **kwargs)
        except CheckFailed as failed:
            raise failed.with_traceback(None) from None
        except Exception as error:  # a learner's odd object must not crash the check
            name = args[0] if args and isinstance(args[0], str) else _("your answer")
            raise CheckFailed(
                # Translators: {error} is Python's or Paddle's own error, in English
                _("{name}: could not be checked ({error}).").format(name=name, error=_one_clause(error)),
                hint=_("Make sure the cell above ran without errors and that the answer is a "
                       "number, an array or a Paddle tensor."),
            ) from None

    return wrapper


def _one_clause(error, limit=80):
    """'TypeName: the first sentence' of an error, without its full stop, cut only between words."""
    try:
        from .errors import first_sentence

        text = first_sentence(error).rstrip(".")
    except Exception:
        text = type(error).__name__
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0] + " …"
    return text


def _short(obj, limit=80):
    """repr() that never raises and never floods the screen."""
    try:
        text = str(obj) if isinstance(obj, BaseException) else repr(obj)
    except Exception:
        text = _("<{type} that cannot be printed>").format(type=type(obj).__name__)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _passed(name, detail=""):
    print(f"✓ {name}: {detail}" if detail else f"✓ {name}")


PLACEHOLDERS = (None, Ellipsis, NotImplemented)


def _is_placeholder(found):
    return any(found is p for p in PLACEHOLDERS)


def no_answer_yet(name, found=None):
    """The one sentence for an answer that is still the stub's None (or `...`)."""
    name = str(name)
    if name.endswith(")") and "(" in name:  # a call: the learner's function returned nothing yet
        return CheckFailed(
            # Translators: {call} is the learner's call as typed, e.g. double(3); {found} is None or Ellipsis
            _("`{call}` returned {found}: finish the function in the answer cell above so that it returns "
              "its result, run that cell, then this one.").format(call=name, found=repr(found))
        )
    failed = CheckFailed(
        # Translators: {name} is the learner's variable; keep "# YOUR CODE HERE" as it is (the cell says it)
        _("`{name}` has no answer yet: write it in the answer cell above (where it says # YOUR CODE HERE, in "
          "place of `raise NotImplementedError()`), run that cell, then this one (if you wrote it already, "
          "that cell stopped with an error before reaching it: the error's last line says why).").format(name=name)
    )
    failed.unanswered = name  # check_parts(..., fold=True) names all such variables in one sentence
    return failed


def _require_answer(name, found):
    if _is_placeholder(found):
        raise no_answer_yet(name, found)


# ---------------------------------------------------------------- reading answers

def _is_paddle_tensor(obj):
    try:
        import paddle
    except ImportError:
        return False
    return isinstance(obj, paddle.Tensor)


def _is_symbolic(obj):
    """A static-graph value (PIR Value, or the legacy Variable): a shape, no numbers."""
    kind = type(obj)
    return kind.__name__ in {"Value", "Variable", "OpResult"} and "paddle" in (kind.__module__ or "")


def _as_numbers(name, found):
    """Read ``found`` as a float64 numpy array, or fail with a sentence that says why."""
    if found is None:
        raise CheckFailed(
            _("{name} is None: the cell has not given it a value yet.").format(name=name),
            hint=_("Assign the answer to the variable (and `return` it, if it is computed in a function)."),
        )
    if found is Ellipsis or found is NotImplemented:
        raise CheckFailed(_("{name} is still the placeholder `{placeholder}`.").format(name=name, placeholder=repr(found)),
                          hint=_("Replace it with your answer."))
    if _is_symbolic(found):
        raise CheckFailed(
            _("{name} is a symbolic value from a static program: it has a shape but no numbers yet.").format(name=name),
            hint=_("Run the program with an Executor and check the fetched numpy array instead: "
                   "`result, = exe.run(main, feed=..., fetch_list=[value])`."),
        )
    if isinstance(found, (str, bytes)):
        raise CheckFailed(_("{name} is the text {text}, not a number.").format(name=name, text=_short(found)),
                          hint=_("Write the number without quotes."))
    if isinstance(found, (bool, np.bool_)):
        raise CheckFailed(_("{name} is {value} (True/False), not a number.").format(name=name, value=found),
                          hint=_("Give the numeric value."))
    if isinstance(found, (dict, set, frozenset)) or callable(found) and not _is_paddle_tensor(found):
        raise CheckFailed(
            # Translators: {type} is a Python type name: dict, function, set ...
            _("{name} is a {type}, not a number, array or tensor.").format(name=name, type=type(found).__name__),
            hint=_("If it is a function, call it and check what it returns."),
        )
    if _is_paddle_tensor(found):
        array = found.numpy()
    else:
        try:
            array = np.asarray(found)
        except ValueError:
            raise CheckFailed(
                _("{name} could not be read as an array: its rows have different lengths.").format(name=name),
                hint=_("Every row of a nested list must have the same number of entries."),
            ) from None
    if array.dtype == object and array.ndim == 0:
        raise CheckFailed(
            _("{name} is a {type}, not a number, array or tensor.").format(name=name, type=type(found).__name__),
            hint=_("Give a number, a list of numbers, a numpy array or a Paddle tensor."),
        )
    if array.dtype == object:
        raise CheckFailed(
            _("{name} mixes things that are not numbers ({value}).").format(name=name, value=_short(found)),
            hint=_("Give a number, a list of numbers, a numpy array or a Paddle tensor."),
        )
    if array.dtype.kind == "b":
        raise CheckFailed(_("{name} holds True/False values, not numbers.").format(name=name),
                          hint=_("Give the numeric values."))
    if array.dtype.kind not in "iuf":
        raise CheckFailed(_("{name} holds {dtype} values, not real numbers.").format(name=name, dtype=array.dtype))
    return array.astype(np.float64)


def _fmt(array):
    if array.size == 1:
        return f"{array.reshape(-1)[0]:.6g}"
    return np.array2string(array, precision=4, threshold=12, separator=", ")


def _shape_text(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


# ---------------------------------------------------------------- the checks

# What the last failed check_value compared, for last_failure(): full arrays only on request.
_LAST_FAILURE = {}
SUMMARY_ABOVE = 6  # arrays with more values than this are summarised in a failure message


def _is_listlike(obj):
    return isinstance(obj, (list, tuple))


def _is_single_number(obj):
    return isinstance(obj, (int, float, np.integer, np.floating)) and not isinstance(obj, (bool, np.bool_))


def _kind(obj, array):
    """How the prompt would describe ``obj``: a single number, a list of 3 values, a tensor of shape [2, 3]."""
    # Translators: these describe an answer inside "{name} is {kind}, but the answer is {kind}."
    if _is_listlike(obj):
        if array.ndim <= 1:
            return ngettext("a list of {count} value", "a list of {count} values", array.size).format(count=array.size)
        return _("a nested list of shape {shape}").format(shape=_shape_text(array.shape))
    if array.ndim == 0:
        return _("a single number")
    if _is_paddle_tensor(obj):
        return _("a tensor of shape {shape}").format(shape=_shape_text(array.shape))
    return _("an array of shape {shape}").format(shape=_shape_text(array.shape))


def _own_form(obj, array):
    """``array`` (float64) written the way the learner gave it: [-1, 16] stays a list of ints."""
    if _is_listlike(obj) and array.size <= 8:
        try:
            if all(_is_single_number(v) for v in np.asarray(obj, dtype=object).reshape(-1)):
                return _short(_plain(obj))
        except Exception:
            pass
    if _is_single_number(obj) and isinstance(obj, (int, np.integer)):
        return str(int(obj))
    if _holds_integers(obj) and np.all(array == np.round(array)):
        return _fmt(array.astype(np.int64))
    return _fmt(array)


def _holds_integers(obj):
    """True for an int tensor or array, or a (long) list of Python ints: echo them without decimals."""
    original = getattr(obj, "dtype", None)
    if original is not None:
        return _dtype_name(original).startswith(("int", "uint"))
    try:
        return np.asarray(obj).dtype.kind in "iu"
    except Exception:
        return False


def _plain(obj):
    """numpy scalars inside a list -> Python numbers, so repr() reads like what was typed."""
    if _is_listlike(obj):
        return type(obj)(_plain(v) for v in obj)
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def _index_text(index):
    return "[" + ", ".join(str(int(i)) for i in index) + "]"


def _summary(name, got, want, found, rtol, atol, reveal):
    """A mismatch between two big arrays, in a few lines instead of two full printouts."""
    close = np.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
    wrong = np.argwhere(~close)
    difference = np.where(close, 0.0, np.abs(got - want))
    worst = np.unravel_index(int(np.nanargmax(difference)), got.shape)
    head = dict(name=name, wrong=len(wrong), total=got.size, kind=_kind(found, got))
    if reveal:
        lines = [_("{name}: {wrong} of {total} values differ ({kind}); the largest difference is {difference} at "
                   "{index} (expected {expected}, found {found}).").format(
            difference=f"{difference[worst]:.4g}", index=_index_text(worst), expected=f"{want[worst]:.6g}",
            found=f"{got[worst]:.6g}", **head)]
        shown = [_("  at {index}: expected {expected}, found {found}").format(
            index=_index_text(i), expected=f"{want[tuple(i)]:.6g}", found=f"{got[tuple(i)]:.6g}") for i in wrong[:3]]
    else:
        lines = [_("{name}: {wrong} of {total} values differ ({kind}); the first is at {index} (found {found}).").format(
            index=_index_text(wrong[0]), found=f"{got[tuple(wrong[0])]:.6g}", **head)]
        shown = [_("  at {index}: found {found}").format(index=_index_text(i), found=f"{got[tuple(i)]:.6g}")
                 for i in wrong[:3]]
    lines.append(_("First differing entries:"))
    lines += shown
    lines.append(_("The full arrays: run `paddlecourse.last_failure()`."))
    return "\n".join(lines)


def last_failure():
    """Print the full arrays of the last failed check_value (the failure message only summarises them)."""
    if not _LAST_FAILURE:
        print(_("No check has failed in this kernel yet."))
        return None
    with np.printoptions(threshold=np.inf, linewidth=120, precision=6, suppress=True):
        print(_("{name}, found (shape {shape}):").format(name=_LAST_FAILURE["name"],
                                                         shape=_shape_text(_LAST_FAILURE["found"].shape)))
        print(_LAST_FAILURE["found"])
        if _LAST_FAILURE.get("expected") is not None:
            print(_("expected (shape {shape}):").format(shape=_shape_text(_LAST_FAILURE["expected"].shape)))
            print(_LAST_FAILURE["expected"])
        else:
            print(_("(this exercise keeps the expected values to itself)"))
    return None


@_learner_facing
def check_value(name, found, expected, *, rtol=1e-5, atol=1e-6, hint=None, reveal=True):
    """Pass when ``found`` equals ``expected`` (numbers, arrays or tensors) within tolerance.

    A single number may be given in any single-element form: 42, [42.], a [1]-shaped
    tensor. When ``expected`` is a list or tuple, the answer is a list: a bare number
    is told to be one. ``reveal=False`` keeps the expected value out of the failure
    message, for exercises whose answer is the point. Big arrays that differ are
    summarised; ``paddlecourse.last_failure()`` prints them in full.
    """
    _require_answer(name, found)
    want = _as_numbers("expected", expected)
    if isinstance(found, (dict, set, frozenset)):  # the answer wrapped in a container: say what form is wanted
        kind = type(found).__name__
        raise CheckFailed(
            _("{name} is a {type}, but the answer is {kind}.").format(name=name, type=kind, kind=_kind(expected, want)),
            hint=(_("Return the value itself, not a {type} that holds it.") if str(name).endswith(")")
                  else _("Give the value itself, not a {type} that holds it.")).format(type=kind),
        )
    got = _as_numbers(name, found)
    if _is_listlike(expected) and _is_single_number(found):
        raise CheckFailed(
            _("{name} is a single number ({value}), but the answer is {kind}.").format(
                name=name, value=_own_form(found, got), kind=_kind(expected, want)),
            hint=hint or _("Write it as a list, in square brackets."),
        )
    if want.size == 1 and got.size == 1:
        want, got = want.reshape(()), got.reshape(())
    elif want.shape != got.shape:
        both_arrays = not _is_listlike(expected) and not _is_listlike(found) and want.ndim and got.ndim
        if both_arrays:
            sentence = _("{name} has shape {shape}, but the answer has shape {expected}.").format(
                name=name, shape=_shape_text(got.shape), expected=_shape_text(want.shape))
        else:
            sentence = _("{name} is {kind}, but the answer is {expected}.").format(
                name=name, kind=_kind(found, got), expected=_kind(expected, want))
        if want.size == 1 and not _is_listlike(expected):
            default = _("Reduce it to one number (e.g. `.sum()`, `.mean()`, or pick an element).")
        else:
            default = _("Check which axis you reduced or reshaped.") if both_arrays else None
        raise CheckFailed(sentence, hint=hint or default)
    if np.isnan(got).any() and not np.isnan(want).any():
        raise CheckFailed(
            _("{name} contains NaN (not a number).").format(name=name),
            hint=hint or _("A NaN usually comes from 0/0, log of a negative number, or a value that overflowed."),
        )
    if np.isinf(got).any() and not np.isinf(want).any():
        raise CheckFailed(_("{name} contains inf.").format(name=name),
                          hint=hint or _("A value overflowed or was divided by zero."))
    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        _LAST_FAILURE.clear()
        _LAST_FAILURE.update(name=name, found=got, expected=want if reveal else None)
        if got.size > SUMMARY_ABOVE:
            raise CheckFailed(_summary(name, got, want, found, rtol, atol, reveal), hint=hint)
        if reveal:
            message = _("{name}: expected {expected}, found {found}.").format(
                name=name, expected=_own_form(expected, want), found=_own_form(found, got))
        else:
            message = _("{name}: found {found}.").format(name=name, found=_own_form(found, got))
        raise CheckFailed(message, hint=hint)
    _passed(name, _own_form(found, got) if got.size <= 4 else _("all {count} values match").format(count=got.size))


def _shape_of(name, found):
    _require_answer(name, found)
    if isinstance(found, (list, tuple)) and all(isinstance(d, (int, np.integer)) for d in found):
        raise CheckFailed(
            _("{name} looks like a shape itself ({shape}), not a tensor.").format(name=name, shape=_short(found)),
            hint=_("Pass the tensor or array whose shape should be checked."),
        )
    shape = getattr(found, "shape", None)
    if shape is None:
        shape = _as_numbers(name, found).shape
    return tuple(-1 if d is None else int(d) for d in shape)


@_learner_facing
def check_shape(name, found, expected, *, hint=None):
    """Pass when ``found`` (tensor, array, static value) has shape ``expected``.

    In ``expected``, -1 or None stands for a dimension fixed only at run time
    (the batch size of a static program): it matches -1, None or any size.
    """
    shape = _shape_of(name, found)
    wanted = tuple(-1 if d is None else int(d) for d in expected)
    fits = len(shape) == len(wanted) and all(w == -1 or s == w for s, w in zip(shape, wanted))
    if not fits:
        raise CheckFailed(
            _("{name} has shape {shape}; expected {expected}.").format(
                name=name, shape=_shape_text(shape), expected=_shape_text(wanted)),
            hint=hint or _("Print `.shape` after each step to see where it changes."),
        )
    _passed(name, _("shape {shape}").format(shape=_shape_text(shape)))


def _dtype_name(dtype):
    text = str(dtype).lower()
    for prefix in ("paddle.", "<class 'numpy.", "dtype('", "vartype."):
        text = text.replace(prefix, "")
    return text.strip("'>)")


@_learner_facing
def check_dtype(name, found, expected, *, hint=None):
    """Pass when ``found`` has dtype ``expected`` (a string, numpy or Paddle dtype)."""
    _require_answer(name, found)
    dtype = getattr(found, "dtype", None)
    if dtype is None:
        raise CheckFailed(
            _("{name} is a {type}, which has no dtype.").format(name=name, type=type(found).__name__),
            hint=_("Convert it first, e.g. `paddle.to_tensor(...)` or `np.asarray(...)`."),
        )
    got, want = _dtype_name(dtype), _dtype_name(expected)
    if got != want:
        raise CheckFailed(
            _("{name} has dtype {dtype}; expected {expected}.").format(name=name, dtype=got, expected=want),
            hint=hint or _("Convert with `.astype('{dtype}')`.").format(dtype=want),
        )
    _passed(name, _("dtype {dtype}").format(dtype=got))


@_learner_facing
def check_grad(name, tensor, expected, *, rtol=1e-5, atol=1e-6, hint=None, reveal=True):
    """Pass when the Paddle tensor ``tensor`` has a gradient equal to ``expected``."""
    _require_answer(name, tensor)
    if not _is_paddle_tensor(tensor):
        raise CheckFailed(
            _("{name} should be a Paddle tensor, but it is a {type}.").format(name=name, type=type(tensor).__name__),
            hint=_("Gradients live on tensors: create it with `paddle.to_tensor(..., stop_gradient=False)`."),
        )
    if tensor.grad is None:
        if tensor.stop_gradient:
            message = _("{name}.grad is None: its stop_gradient is True, so Paddle does not track it.")
        else:
            message = _("{name}.grad is None: backward() has not reached it yet.")
        raise CheckFailed(
            message.format(name=name),
            hint=_("Set `stop_gradient=False` before the forward pass, then call `backward()` on the result."),
        )
    check_value(f"{name}.grad", tensor.grad, expected, rtol=rtol, atol=atol, hint=hint, reveal=reveal)


def _normalise(answer):
    if isinstance(answer, str):
        return " ".join(answer.strip().lower().split())
    if isinstance(answer, (list, tuple, set, frozenset)):
        return frozenset(_normalise(a) for a in answer)
    if isinstance(answer, (bool, np.bool_)):
        return bool(answer)
    return answer


@_learner_facing
def check_answer(name, found, expected, *, options=None, hint=None, reveal=False):
    """Pass when a choice, a word, a yes/no or a set of choices matches ``expected``.

    Text is compared without case or extra spaces; a list of choices is compared
    as a set (order does not matter). With ``options``, an answer outside them is
    told so.
    """
    _require_answer(name, found)
    got, want = _normalise(found), _normalise(expected)
    if options is not None:
        allowed = {_normalise(o) for o in options}
        picked = got if isinstance(got, frozenset) else {got}
        outside = [p for p in picked if p not in allowed]
        if outside:
            listed = ", ".join(repr(o) for o in options)
            raise CheckFailed(_("{name}: {answer} is not one of the options ({options}).").format(
                name=name, answer=_short(found), options=listed), hint=hint)
    if isinstance(want, bool) and not isinstance(got, bool):
        raise CheckFailed(_("{name} should be True or False, not {answer}.").format(name=name, answer=_short(found)),
                          hint=hint)
    if got != want:
        if reveal:
            message = _("{name}: {answer} is not right. The answer is {expected}.").format(
                name=name, answer=_short(found), expected=_short(expected))
        else:
            message = _("{name}: {answer} is not right.").format(name=name, answer=_short(found))
        raise CheckFailed(message, hint=hint)
    _passed(name)


@_learner_facing
def check_true(name, condition, *, hint=None, because=None):
    """Pass when ``condition`` holds (a bool, or a one-element bool array or tensor).

    ``because`` finishes the failure sentence: "<name> does not hold: <because>".
    """
    _require_answer(name, condition)
    if _is_paddle_tensor(condition):
        condition = condition.numpy()
    value = np.asarray(condition)
    if value.size != 1:
        raise CheckFailed(_("{name}: expected one True/False, found {count} values.").format(name=name, count=value.size),
                          hint=hint)
    if value.dtype.kind != "b":
        if value.dtype.kind in "iuf":
            message = _("{name}: expected True/False, found the number {value}.").format(name=name, value=_fmt(value))
        else:
            message = _("{name}: expected True/False, found {value}.").format(name=name, value=_short(condition))
        raise CheckFailed(message, hint=hint or _("Write a comparison, e.g. `loss < 0.1`."))
    if not bool(value.reshape(-1)[0]):
        if because:
            # Translators: {because} is the lesson's reason, e.g. "the loss did not fall"
            message = _("{name} does not hold: {because}.").format(name=name, because=because)
        else:
            message = _("{name} does not hold.").format(name=name)
        raise CheckFailed(message, hint=hint)
    _passed(name)


# ---------------------------------------------------------------- calling a learner's function

def _function_name(label, function):
    label = str(label)
    if "(" in label:
        return label.split("(", 1)[0].strip() or label
    return getattr(function, "__name__", None) or label


def _is_untouched_stub(error):
    """`raise NotImplementedError()` as nbgrader leaves it: no message. Paddle's own carry one."""
    return isinstance(error, NotImplementedError) and not any(str(a).strip() for a in error.args)


def run_answer(label, function, *args, hint=None, **kwargs):
    """Call the learner's ``function(*args, **kwargs)`` and return its result.

    Whatever the call raises becomes one CheckFailed sentence (the untouched
    stub's NotImplementedError, a Paddle error, a TypeError ...), so a check cell
    never shows a traceback from the learner's code. ``label`` is how the call
    reads in the check cell, e.g. ``"static_double_mlp(batch)"``.
    A kernel the call left in static mode is put back in dynamic mode.
    ``hint`` replaces the default advice when the call is not the learner's own code
    (Paddle's jit.save, a lesson's helper fed the learner's answer): name the learner's line to fix.
    """
    __tracebackhide__ = True
    label = translate_label(label)  # a call as typed stays as typed; a lesson's label ("the export") is translated
    hint = translate(hint)
    name = _function_name(label, function)
    if _is_placeholder(function):
        raise no_answer_yet(name).with_traceback(None) from None
    if not callable(function):
        raise CheckFailed(
            _("`{name}` is a {type}, not a function: define it with `def {name}(...):` "
              "in the answer cell above, run that cell, then this one.").format(name=name, type=type(function).__name__)
        ) from None
    was_dynamic = _in_dynamic_mode()
    try:
        return function(*args, **kwargs)
    except CheckFailed as failed:
        raise failed.with_traceback(None) from None
    except Exception as error:
        from .errors import first_sentence

        if _is_untouched_stub(error):
            stub = CheckFailed(
                _("`{name}` still has its placeholder: replace `raise NotImplementedError()` in the answer cell "
                  "with your code, run it, then run this cell again.").format(name=name)
            )
            stub.placeholder = True  # check_parts(..., fold=True) names no other part after it
            raise stub from None
        if hint is None and _is_paddles_own(function):  # not the learner's code: no use calling it alone
            hint = _("The fix goes in your answer in the answer cell above.")
        failed = CheckFailed(
            # Translators: {error} is "TypeName: the first sentence of Python's or Paddle's error" (English)
            _("`{call}` raised {error}").format(call=label, error=first_sentence(error)),
            hint=hint or _("Call `{call}` in a cell of its own to see the whole error; the fix goes in the answer "
                           "cell above.").format(call=label),
        )
        # the error as Python gave it, untranslated: a lesson's check can match it in any language
        failed.cause = f"{type(error).__name__}: {error}"
        raise failed from None
    finally:
        if was_dynamic and not _in_dynamic_mode():  # the call died between enable_static() and disable_static()
            import paddle

            paddle.disable_static()


def _is_paddles_own(function):
    """A Paddle function or object (paddle.jit.save, a loaded model), not code the learner wrote."""
    module = getattr(function, "__module__", None) or getattr(type(function), "__module__", "") or ""
    if not isinstance(function, type) and not hasattr(function, "__code__"):
        module = getattr(type(function), "__module__", "") or module
    return module == "paddle" or module.startswith("paddle.")


def _in_dynamic_mode():
    import sys

    paddle = sys.modules.get("paddle")
    return paddle is None or paddle.in_dynamic_mode()


# ---------------------------------------------------------------- multi-part exercises

class _Part:
    def __init__(self, name, passed, text, hint=None):
        self.name, self.passed, self.text, self.hint = translate_label(name), passed, text, hint
        self.placeholder = False  # the learner's function is still the untouched stub

    def line(self):
        if self.passed:
            return self.text or f"✓ {self.name}"
        text = self.text
        if text.startswith(f"{self.name}: "):
            text = text[len(self.name) + 2:]
        elif text.startswith((f"{self.name} ", f"{self.name}.", "`")):  # the message names it already
            return f"✗ {text}" + self._hint_text()
        return f"✗ {self.name}: {text}" + self._hint_text()

    def _hint_text(self):
        # Translators: a part's hint after its ✗ line, with its leading space (English: " (the hint)")
        return _(" ({hint})").format(hint=self.hint) if self.hint else ""


class Parts:
    """The checks of one multi-part exercise; each failure is recorded, not raised (see check_parts)."""

    def __init__(self, title, fold=False):
        self.title = title  # translated when the report is made
        self.fold = fold  # see _folded_report
        self.parts = []
        self._failed_calls = []  # (label, function name) of run_answer calls that failed

    def _record(self, check, name, found, *args, **kwargs):
        import contextlib
        import io

        if _is_placeholder(found):
            for label, function_name in self._failed_calls:
                if str(name) in (label, function_name) or str(name).startswith(f"{function_name}("):
                    shown = translate_label(label)
                    self.parts.append(_Part(name, False, _("not checked: `{call}` failed above.").format(call=shown)))
                    self.parts[-1].stopped_by = shown
                    return None
            last = self.parts[-1] if self.parts else None
            if self.fold and last is not None and getattr(last, "call_failed", False):
                # the value came from the call that just failed: that failure is the message
                self.parts.append(_Part(name, False, _("not checked: `{call}` failed above.").format(call=last.name)))
                self.parts[-1].stopped_by = last.name
                return None
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                check(name, found, *args, **kwargs)
        except CheckFailed as failed:
            self.parts.append(_Part(name, False, failed.message, failed.hint))
            self.parts[-1].unanswered = getattr(failed, "unanswered", None)
            return None
        self.parts.append(_Part(name, True, printed.getvalue().strip()))
        return None

    def check_value(self, name, found, expected, **kwargs):
        return self._record(check_value, name, found, expected, **kwargs)

    def check_shape(self, name, found, expected, **kwargs):
        return self._record(check_shape, name, found, expected, **kwargs)

    def check_dtype(self, name, found, expected, **kwargs):
        return self._record(check_dtype, name, found, expected, **kwargs)

    def check_grad(self, name, tensor, expected, **kwargs):
        return self._record(check_grad, name, tensor, expected, **kwargs)

    def check_answer(self, name, found, expected, **kwargs):
        return self._record(check_answer, name, found, expected, **kwargs)

    def check_true(self, name, condition, **kwargs):
        return self._record(check_true, name, condition, **kwargs)

    def check(self, check_function, name, found, *args, **kwargs):
        """Any check function with the signature ``check_function(name, found, ...)``, recorded as a part.

        Returns True when the part passed, so later parts can depend on it.
        """
        self._record(check_function, name, found, *args, **kwargs)
        return bool(self.parts) and self.parts[-1].passed

    def run_answer(self, label, function, *args, **kwargs):
        """Like run_answer(), but a failure is recorded as a part and None is returned."""
        try:
            return run_answer(label, function, *args, **kwargs)
        except CheckFailed as failed:
            self.parts.append(_Part(str(label), False, failed.message, failed.hint))
            self.parts[-1].call_failed = True
            self.parts[-1].placeholder = getattr(failed, "placeholder", False)
            self.parts[-1].unanswered = getattr(failed, "unanswered", None)  # run_answer(label, None)
            self._failed_calls.append((str(label), _function_name(label, function)))
            return None

    def report(self):
        """The one message: a headline, then ✓/✗ per part."""
        if self.fold:
            return self._folded_report()
        wrong = [p for p in self.parts if not p.passed]
        lines = [p.line() for p in self.parts]
        if not wrong:
            return "\n".join(lines)
        head = self._headline(wrong)
        return "\n".join([head, *lines])

    def _headline(self, wrong):
        # Translators: {title} is the exercise's title, e.g. "the four projects"
        return _("{title}: {wrong} of {total} parts are not right yet.").format(
            title=translate(self.title), wrong=len(wrong), total=len(self.parts))

    def _folded_report(self):
        """Like report(), with each cause said once.

        Variables with no answer yet are named in one sentence; parts that failed the same way (the same
        error from the learner's function, the same message) are one line ending "This also stops: ...";
        a part that could not be checked because a call failed is named on that call's line. When one
        line is left and nothing passed, the message is that one sentence.
        """
        lines, wrong, groups = [], [p for p in self.parts if not p.passed], {}
        unanswered = [p for p in wrong if getattr(p, "unanswered", None)]
        for part in self.parts:
            if part.passed:
                lines.append(part.line())
                continue
            if getattr(part, "unanswered", None):
                if part is unanswered[0]:
                    lines.append(None)  # filled in below, where the first unanswered part was
                continue
            stopped_by = getattr(part, "stopped_by", None)
            if stopped_by is not None and stopped_by in groups:
                continue  # its call's line says why
            key = (part.text.replace(str(part.name), "\0"), (part.hint or "").replace(str(part.name), "\0"))
            if key in groups:
                groups[key][1].append(part.name)
                groups[str(part.name)] = groups[key]
                continue
            groups[key] = groups[str(part.name)] = (len(lines), [])
            lines.append(part)
        if unanswered:
            names = [f"`{p.unanswered}`" for p in unanswered]
            if len(names) == 1:
                text = unanswered[0].text
            else:
                # Translators: {names} is a list of variables, e.g. `a`, `b`; {last} the last one, e.g. `c`
                text = _("{names} and {last} have no answer yet: write them in the answer cell above (where it "
                         "says # YOUR CODE HERE, in place of `raise NotImplementedError()`), run that cell, then "
                         "this one (if you wrote them already, that cell stopped with an error before reaching "
                         "them: the error's last line says why).").format(
                    names=_(", ").join(names[:-1]), last=names[-1])
            lines[lines.index(None)] = "✗ " + text
        seen = set()
        for position, also in groups.values():
            if position in seen:
                continue
            seen.add(position)
            part = lines[position]
            line = part.line()
            also = [n for n in also if n != part.name and not part.placeholder]
            if also:
                more = _(", ").join(n if str(n).startswith("`") else f"`{n}`" for n in dict.fromkeys(also))
                if getattr(part, "call_failed", False):
                    # Translators: after a failed call's line; {names} are the parts it kept from being checked
                    line += " " + _("This also stops: {names}.").format(names=more)
                else:
                    # Translators: after a part's line; {names} are parts that failed the same way
                    line += " " + _("The same for: {names}.").format(names=more)
            lines[position] = line
        failing_lines = [x for x in lines if x.startswith("✗")]
        if not wrong:
            return "\n".join(lines)
        if len(failing_lines) == 1 and len(lines) == 1:
            return failing_lines[0][2:]
        head = self._headline(wrong)
        return "\n".join([head, *lines])


class check_parts:  # noqa: N801 - used like a function: `with check_parts("...") as parts:`
    """Check every part of a multi-part exercise and report them all in one message.

        with check_parts("the four projects") as parts:
            parts.check_answer("project_a", project_a, "dynamic", options=[...])
            parts.check_value("loss_after", loss_after, 0.5, rtol=1e-3)

    If any part failed, one CheckFailed lists every part as "✓ name" or
    "✗ name: message (hint)"; if all passed, the ✓ lines are printed. An error
    in the block itself (a module-level check, a learner's object that breaks
    the cell) is reported as a last ✗ line, not as a traceback.
    """

    def __init__(self, title, fold=False):
        self.parts = Parts(title, fold=fold)  # fold=True: each cause said once (Parts._folded_report)

    def __enter__(self):
        return self.parts

    def __exit__(self, etype, error, tb):
        __tracebackhide__ = True
        if etype is not None and not issubclass(etype, Exception):
            return False  # KeyboardInterrupt and friends go through
        if isinstance(error, CheckFailed):
            name = error.message.split(":", 1)[0].strip("` ") if ":" in error.message else "check"
            self.parts.parts.append(_Part(name, False, error.message, error.hint))
            self.parts.parts[-1].placeholder = getattr(error, "placeholder", False)
        elif error is not None:
            from .errors import first_sentence, undefined_name_sentence

            sentence = undefined_name_sentence(error, tb)
            if sentence is not None:  # a name the exercise asks for is not defined: the one friendly sentence
                raise CheckFailed(sentence).with_traceback(None) from None
            self.parts.parts.append(
                _Part(_("the rest of this check"), False,
                      # Translators: {error} is "TypeName: the first sentence of the error" (English)
                      _("it stopped at {error}").format(error=first_sentence(error)),
                      _("Run the answer cells above again, then this one.")))
        if any(not p.passed for p in self.parts.parts):
            raise CheckFailed(self.parts.report()).with_traceback(None) from None
        if self.parts.parts:
            print(self.parts.report())
        return False
