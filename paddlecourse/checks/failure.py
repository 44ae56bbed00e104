"""What a failed check raises (CheckFailed), how a check turns its own errors into one plain sentence, and
the sentence for an answer not written yet."""
import functools

from ..language import _, translate, translate_label


class CheckFailed(AssertionError):
    """A learner's answer is not right yet; the message says why and what to try."""

    def __init__(self, message, hint=None, no_answer=False):
        message, hint = translate(message), translate(hint)  # a lesson's own text, in the learner's language
        self.message = message  # without the hint: check_parts lists both on one line
        self.hint = hint
        self.no_answer = no_answer  # the answer is still missing: progress() says "no answer yet", not "failed"
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
        from ..errors import first_sentence

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
        failed = CheckFailed(
            # Translators: {call} is the learner's call as typed, e.g. double(3); {found} is None or Ellipsis
            _("`{call}` returned {found}: finish the function in the answer cell above so that it returns "
              "its result, run that cell, then this one.").format(call=name, found=repr(found))
        )
        failed.no_answer = True
        return failed
    failed = CheckFailed(
        # Translators: {name} is the learner's variable; keep "# YOUR CODE HERE" as it is (the cell says it)
        _("`{name}` has no answer yet: write it in the answer cell above (where it says # YOUR CODE HERE, in "
          "place of `raise NotImplementedError()`), run that cell, then this one (if you wrote it already, "
          "that cell stopped with an error before reaching it: the error's last line says why).").format(name=name)
    )
    failed.unanswered = name  # check_parts(..., fold=True) names all such variables in one sentence
    failed.no_answer = True   # progress() says "no answer yet" rather than "failed"
    return failed


def _require_answer(name, found):
    if _is_placeholder(found):
        raise no_answer_yet(name, found)
