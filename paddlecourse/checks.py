"""Checks: the one path that tells a learner (and nbgrader) whether an answer is right.

Every check prints one ✓ line when the answer is right. When it is not, it
raises ``CheckFailed`` (an ``AssertionError``, so nbgrader scores the cell 0)
whose message says what was expected, what was found, and a hint. A check never
lets an exception from its own internals reach the learner: whatever it is
given - None, a string, a ragged list, NaN, a symbolic static value, an object
that raises - it answers with a plain sentence.

Answers are compared by value, not by type: 42, 42.0, np.float32(42),
np.array([42.]) and paddle.to_tensor([42.]) are all the same answer.
"""
import functools

import numpy as np


class CheckFailed(AssertionError):
    """A learner's answer is not right yet; the message says why and what to try."""

    def __init__(self, message, hint=None):
        self.hint = hint
        text = message if not hint else f"{message}\nHint: {hint}"
        super().__init__(text)


def _learner_facing(check):
    """Turn any internal error of ``check`` into a CheckFailed with a plain message."""

    @functools.wraps(check)
    def wrapper(*args, **kwargs):
        __tracebackhide__ = True  # IPython and pytest hide this frame
        try:
            return check(*args, **kwargs)
        except CheckFailed as failed:
            raise failed.with_traceback(None) from None
        except Exception as error:  # a learner's odd object must not crash the check
            name = args[0] if args and isinstance(args[0], str) else "your answer"
            raise CheckFailed(
                f"{name}: could not be checked ({type(error).__name__}: {_short(error)}).",
                hint="Make sure the cell above ran without errors and that the answer is a "
                "number, an array or a Paddle tensor.",
            ) from None

    return wrapper


def _short(obj, limit=80):
    """repr() that never raises and never floods the screen."""
    try:
        text = str(obj) if isinstance(obj, BaseException) else repr(obj)
    except Exception:
        text = f"<{type(obj).__name__} that cannot be printed>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _passed(name, detail=""):
    print(f"✓ {name}{': ' + detail if detail else ''}")


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
            f"{name} is None: the cell has not given it a value yet.",
            hint="Assign the answer to the variable (and `return` it, if it is computed in a function).",
        )
    if found is Ellipsis or found is NotImplemented:
        raise CheckFailed(f"{name} is still the placeholder `{found!r}`.", hint="Replace it with your answer.")
    if _is_symbolic(found):
        raise CheckFailed(
            f"{name} is a symbolic value from a static program: it has a shape but no numbers yet.",
            hint="Run the program with an Executor and check the fetched numpy array instead: "
            "`result, = exe.run(main, feed=..., fetch_list=[value])`.",
        )
    if isinstance(found, (str, bytes)):
        raise CheckFailed(f"{name} is the text {_short(found)}, not a number.", hint="Write the number without quotes.")
    if isinstance(found, (bool, np.bool_)):
        raise CheckFailed(f"{name} is {found} (True/False), not a number.", hint="Give the numeric value.")
    if isinstance(found, (dict, set, frozenset)) or callable(found) and not _is_paddle_tensor(found):
        raise CheckFailed(
            f"{name} is a {type(found).__name__}, not a number, array or tensor.",
            hint="If it is a function, call it and check what it returns.",
        )
    if _is_paddle_tensor(found):
        array = found.numpy()
    else:
        try:
            array = np.asarray(found)
        except ValueError:
            raise CheckFailed(
                f"{name} could not be read as an array: its rows have different lengths.",
                hint="Every row of a nested list must have the same number of entries.",
            ) from None
    if array.dtype == object and array.ndim == 0:
        raise CheckFailed(
            f"{name} is a {type(found).__name__}, not a number, array or tensor.",
            hint="Give a number, a list of numbers, a numpy array or a Paddle tensor.",
        )
    if array.dtype == object:
        raise CheckFailed(
            f"{name} mixes things that are not numbers ({_short(found)}).",
            hint="Give a number, a list of numbers, a numpy array or a Paddle tensor.",
        )
    if array.dtype.kind == "b":
        raise CheckFailed(f"{name} holds True/False values, not numbers.", hint="Give the numeric values.")
    if array.dtype.kind not in "iuf":
        raise CheckFailed(f"{name} holds {array.dtype} values, not real numbers.")
    return array.astype(np.float64)


def _fmt(array):
    if array.size == 1:
        return f"{array.reshape(-1)[0]:.6g}"
    return np.array2string(array, precision=4, threshold=12, separator=", ")


def _shape_text(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


# ---------------------------------------------------------------- the checks

@_learner_facing
def check_value(name, found, expected, *, rtol=1e-5, atol=1e-6, hint=None, reveal=True):
    """Pass when ``found`` equals ``expected`` (numbers, arrays or tensors) within tolerance.

    A single number may be given in any single-element form: 42, [42.], a [1]-shaped
    tensor. ``reveal=False`` keeps the expected value out of the failure message,
    for exercises whose answer is the point.
    """
    want = _as_numbers("expected", expected)
    got = _as_numbers(name, found)
    if want.size == 1 and got.size == 1:
        want, got = want.reshape(()), got.reshape(())
    elif want.size == 1:
        raise CheckFailed(
            f"{name} holds {got.size} values (shape {_shape_text(got.shape)}), but the answer is a single number.",
            hint=hint or "Reduce it to one number (e.g. `.sum()`, `.mean()`, or pick an element).",
        )
    elif want.shape != got.shape:
        raise CheckFailed(
            f"{name} has shape {_shape_text(got.shape)}, but the answer has shape {_shape_text(want.shape)}.",
            hint=hint or "Check which axis you reduced or reshaped.",
        )
    if np.isnan(got).any() and not np.isnan(want).any():
        raise CheckFailed(
            f"{name} contains NaN (not a number).",
            hint=hint or "A NaN usually comes from 0/0, log of a negative number, or a value that overflowed.",
        )
    if np.isinf(got).any() and not np.isinf(want).any():
        raise CheckFailed(f"{name} contains inf.", hint=hint or "A value overflowed or was divided by zero.")
    if not np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True):
        expected_part = f"expected {_fmt(want)}, " if reveal else ""
        raise CheckFailed(f"{name}: {expected_part}found {_fmt(got)}.", hint=hint)
    _passed(name, _fmt(got) if got.size <= 4 else f"all {got.size} values match")


def _shape_of(name, found):
    if found is None:
        raise CheckFailed(f"{name} is None: the cell has not given it a value yet.")
    if isinstance(found, (list, tuple)) and all(isinstance(d, (int, np.integer)) for d in found):
        raise CheckFailed(
            f"{name} looks like a shape itself ({_short(found)}), not a tensor.",
            hint="Pass the tensor or array whose shape should be checked.",
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
            f"{name} has shape {_shape_text(shape)}; expected {_shape_text(wanted)}.",
            hint=hint or "Print `.shape` after each step to see where it changes.",
        )
    _passed(name, f"shape {_shape_text(shape)}")


def _dtype_name(dtype):
    text = str(dtype).lower()
    for prefix in ("paddle.", "<class 'numpy.", "dtype('", "vartype."):
        text = text.replace(prefix, "")
    return text.strip("'>)")


@_learner_facing
def check_dtype(name, found, expected, *, hint=None):
    """Pass when ``found`` has dtype ``expected`` (a string, numpy or Paddle dtype)."""
    if found is None:
        raise CheckFailed(f"{name} is None: the cell has not given it a value yet.")
    dtype = getattr(found, "dtype", None)
    if dtype is None:
        raise CheckFailed(
            f"{name} is a {type(found).__name__}, which has no dtype.",
            hint="Convert it first, e.g. `paddle.to_tensor(...)` or `np.asarray(...)`.",
        )
    got, want = _dtype_name(dtype), _dtype_name(expected)
    if got != want:
        raise CheckFailed(
            f"{name} has dtype {got}; expected {want}.",
            hint=hint or f"Convert with `.astype('{want}')`.",
        )
    _passed(name, f"dtype {got}")


@_learner_facing
def check_grad(name, tensor, expected, *, rtol=1e-5, atol=1e-6, hint=None, reveal=True):
    """Pass when the Paddle tensor ``tensor`` has a gradient equal to ``expected``."""
    if not _is_paddle_tensor(tensor):
        raise CheckFailed(
            f"{name} should be a Paddle tensor, but it is a {type(tensor).__name__}.",
            hint="Gradients live on tensors: create it with `paddle.to_tensor(..., stop_gradient=False)`.",
        )
    if tensor.grad is None:
        why = (
            "its stop_gradient is True, so Paddle does not track it"
            if tensor.stop_gradient
            else "backward() has not reached it yet"
        )
        raise CheckFailed(
            f"{name}.grad is None: {why}.",
            hint="Set `stop_gradient=False` before the forward pass, then call `backward()` on the result.",
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
    if found is None or found is Ellipsis:
        raise CheckFailed(f"{name} has no answer yet.", hint="Replace the placeholder with your answer.")
    got, want = _normalise(found), _normalise(expected)
    if options is not None:
        allowed = {_normalise(o) for o in options}
        picked = got if isinstance(got, frozenset) else {got}
        outside = [p for p in picked if p not in allowed]
        if outside:
            listed = ", ".join(repr(o) for o in options)
            raise CheckFailed(f"{name}: {_short(found)} is not one of the options ({listed}).", hint=hint)
    if isinstance(want, bool) and not isinstance(got, bool):
        raise CheckFailed(f"{name} should be True or False, not {_short(found)}.", hint=hint)
    if got != want:
        expected_part = f" The answer is {_short(expected)}." if reveal else ""
        raise CheckFailed(f"{name}: {_short(found)} is not right.{expected_part}", hint=hint)
    _passed(name)


@_learner_facing
def check_true(name, condition, *, hint=None, because=None):
    """Pass when ``condition`` holds (a bool, or a one-element bool array or tensor).

    ``because`` finishes the failure sentence: "<name> does not hold: <because>".
    """
    if _is_paddle_tensor(condition):
        condition = condition.numpy()
    value = np.asarray(condition)
    if value.size != 1:
        raise CheckFailed(f"{name}: expected one True/False, found {value.size} values.", hint=hint)
    if value.dtype.kind != "b":
        raise CheckFailed(
            f"{name}: expected True/False, found {'the number ' + _fmt(value) if value.dtype.kind in 'iuf' else _short(condition)}.",
            hint=hint or "Write a comparison, e.g. `loss < 0.1`.",
        )
    if not bool(value.reshape(-1)[0]):
        raise CheckFailed(f"{name} does not hold{': ' + because if because else ''}.", hint=hint)
    _passed(name)
