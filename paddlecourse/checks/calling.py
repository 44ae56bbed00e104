"""Calling a learner's function for a check: its own error, or a stub not filled in, as one sentence."""
from ..language import _, translate, translate_label
from .failure import _is_placeholder, CheckFailed, no_answer_yet


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
        from ..errors import first_sentence

        if _is_untouched_stub(error):
            stub = CheckFailed(
                _("`{name}` still has its placeholder: replace `raise NotImplementedError()` in the answer cell "
                  "with your code, run it, then run this cell again.").format(name=name)
            )
            stub.placeholder = True  # check_parts(..., fold=True) names no other part after it
            stub.no_answer = True    # progress() says "no answer yet" rather than "failed"
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
