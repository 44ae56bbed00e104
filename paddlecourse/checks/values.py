"""The checks of one value: check_value, check_shape, check_dtype, check_grad, check_answer, check_true."""

import numpy as np

from ..language import _, ngettext
from .failure import _learner_facing, _passed, _require_answer, _short, CheckFailed
from .reading import _as_numbers, _fmt, _is_paddle_tensor, _shape_text
from ..sealed import Sealed


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
    if isinstance(expected, Sealed):
        return _check_sealed_number(name, found, expected, hint)
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
            message = _("{name}: found {found}, which is not what a correct answer gives (this check keeps the "
                        "right value to itself).").format(name=name, found=_own_form(found, got))
        raise CheckFailed(message, hint=hint)
    _passed(name, _own_form(found, got) if got.size <= 4 else _("all {count} values match").format(count=got.size))


def _check_sealed_number(name, found, expected, hint):
    """One whole number known to the check only by its digest (sealed.py): compared exactly, never shown."""
    got = _as_numbers(name, found)
    if got.size != 1:
        raise CheckFailed(_("{name} is {kind}, but the answer is {expected}.").format(
            name=name, kind=_kind(found, got), expected=_kind(0, np.asarray(0.0))), hint=hint)
    if not expected == float(got.reshape(-1)[0]):
        _LAST_FAILURE.clear()
        _LAST_FAILURE.update(name=name, found=got, expected=None)
        raise CheckFailed(_("{name}: found {found}.").format(name=name, found=_own_form(found, got)), hint=hint)
    _passed(name, _own_form(found, got))


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
