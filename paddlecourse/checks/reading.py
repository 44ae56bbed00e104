"""An answer read as numbers: tensors, arrays, lists and scalars alike, with a sentence for what cannot be."""

import numpy as np

from ..language import _
from .failure import _short, CheckFailed


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
