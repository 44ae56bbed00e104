"""Paddle's errors as a learner should read them.

Paddle's messages carry a category tag ("(InvalidArgument)"), an internal
"[Hint: Expected K_lhs == K_rhs ...]" line, the C++ source location
"(at /paddle/paddle/phi/...cc:3087)" and, with some flags, a whole C++ stack.
A learner needs none of it, and a lesson that cuts the text at a fixed number
of characters ends up mid-word. ``error_message`` keeps the error type and
whole sentences only.

    try:
        paddle.matmul(a, b)
    except ValueError as error:
        show_error(error)   # ValueError: In operator matmul, the [1] dimension of Input(X) ...
"""
import re

from .language import _, ngettext

# Keep adding whole sentences while the text is shorter than this; a longer
# first sentence is kept whole anyway (a cut sentence misleads more than a long one).
ENOUGH = 220
LIMIT = 900  # a numbered list of suggestions is kept whole up to about this length

_SUMMARY = re.compile(r"Error Message Summary:\s*-+\s*", re.S)
# A static program's run error first lists where the failing op was built ("In user code:" and a Python
# stack), then, after a blank line, the error itself ("InvalidArgumentError: ..."): keep the error.
_USER_CODE = re.compile(r"^\s*In user code:\s*\n.*?\n\s*\n(?=\s*[A-Z][A-Za-z]*Error:)", re.S)
_CPP_STACK = re.compile(r"(?:C\+\+|Python) Traceback \(most recent call last\):.*?(?=\n-{5,}\n|\Z)", re.S)
_HINT = re.compile(r"\[Hint:.*?\](?=\s*(?:\(at |\n|$))", re.S)
_AT = re.compile(r"\s*\(at [^()\s]+\.(?:cc|h|hpp|cpp|cu|py):\d+\)")  # a source location, not "(at least 2)"
_OPERATOR = re.compile(r"\[operator\s*<[^>]*>\s*error\]")
_CATEGORY = re.compile(r"^\s*\((?:[A-Z][A-Za-z]*)\)\s*")
_ERROR_PREFIX = re.compile(r"^[A-Z][A-Za-z]*Error:\s*")
_PATH = re.compile(r"(?:/[\w.+-]+){2,}\.(?:py|cc|h|cpp|cu)(?::\d+)?")
# A sentence ends at . ! ? or : followed by a space and a capital/bracket/quote, or at a blank line;
# not after a list number ("Suggestions: 1. If you ... 2. If you ..."), which starts a sentence.
_SENTENCE_END = re.compile(r"(?<=[.!?:])(?<!\s\d\.)\s+(?=[A-Z(\[`'\"])|\n\s*\n")


def _clean(text):
    text = str(text)
    if _SUMMARY.search(text):  # FLAGS_call_stack_level=2: the readable part comes after the summary banner
        text = _SUMMARY.split(text)[-1]
    text = _USER_CODE.sub("", text)
    text = _CPP_STACK.sub("", text)
    text = _HINT.sub("", text)
    text = _AT.sub("", text)
    text = _OPERATOR.sub("", text)
    text = _PATH.sub("<paddle source>", text)
    text = _ERROR_PREFIX.sub("", _CATEGORY.sub("", text.strip()))
    lines = [line.strip() for line in text.splitlines()]
    # keep paragraph breaks as sentence breaks, join wrapped lines
    paragraphs = "\n".join(lines).split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


_LIST_ITEM = re.compile(r"^(?:\d{1,2}|[a-z])[.)]\s")
_LIST_MARKER = re.compile(r"^(?:\d{1,2}|[a-z])[.)]$")
_ENDS_IN_MARKER = re.compile(r"\s\d{1,2}\.$")  # "... disable_static()`. 2." - the next item's number
_CODE_EXAMPLE = re.compile(r"\n\s*>>>")  # a ">>> code" example: the prose before it is the message


def _sentences(text):
    pieces = [s.strip() for s in _SENTENCE_END.split(text) if s and s.strip()]
    merged = []
    for piece in pieces:
        # "2." on its own, or ending the item before it, belongs to the sentence after it
        if merged and (_LIST_MARKER.match(merged[-1]) or _ENDS_IN_MARKER.search(merged[-1])):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    return merged


def error_message(error):
    """``"TypeName: "`` + the error's message in whole sentences, without Paddle's internals.

    Sentences are added until the text says enough (about two lines); a sentence
    that ends with ":" ("This may be because:") always brings the next one along.
    Never cut mid-word or mid-sentence. Accepts an exception, or any object.
    """
    if not isinstance(error, BaseException):
        return f"{type(error).__name__}: {error}"
    name = type(error).__name__
    try:
        raw = str(error)
    except Exception:
        raw = ""
    if isinstance(error, KeyError) and error.args:
        # Translators: {key} is the key that was missing, as Python writes it ('w', 3 ...)
        raw = _("{key} was looked up and not found.").format(key=repr(error.args[0]))
    text = _clean(_CODE_EXAMPLE.split(raw, maxsplit=1)[0])
    if not text:
        return name
    kept = []
    for sentence in _sentences(text):
        if kept:
            length = len(" ".join(kept))
            announces = kept[-1].endswith(":")
            # the items of a list announced by "...:" are the advice: keep them whole, up to a sane length
            list_goes_on = bool(_LIST_ITEM.match(sentence)) and any(k.endswith(":") for k in kept) and length < LIMIT
            if length >= ENOUGH and not announces and not list_goes_on:
                break
        kept.append(sentence)
    while len(kept) > 1 and kept[-1].endswith(":"):  # "for example:" with its example cut off
        kept.pop()
    message = " ".join(kept)
    return f"{name}: {message}"


def first_sentence(error):
    """Only the first whole sentence of ``error_message`` (for one-line check messages)."""
    text = error_message(error)
    name, _, body = text.partition(": ")
    if body.startswith("In transformed code:"):
        # to_static re-raises the op's error after the converted code's frames: that error is the news
        inner = list(re.finditer(r"\b([A-Z]\w*(?:Error|Exception)): ", body))
        if inner:
            name, body = inner[-1].group(1), body[inner[-1].end():]
    sentences = _sentences(body)
    if not sentences:
        return name
    kept = sentences[0]
    if kept.endswith(":") and len(sentences) > 1:
        kept += " " + sentences[1]
    return f"{name}: {kept}"


def show_error(error):
    """Print ``error_message(error)``: use it where a lesson shows a Paddle error on purpose. A KeyError is shown
    as Paddle raises it, bare (``KeyError: 'features'``): a lesson teaches the learner to read that."""
    if isinstance(error, KeyError):
        print(f"KeyError: {error}")
        return
    print(error_message(error))


# ---------------------------------------------------------------- a name not defined yet

_UNDEFINED = re.compile(r"^name '(?P<name>[^']+)' is not defined")


def _is_cell_code(code):
    """Code typed in a notebook cell (ipykernel's cell files, IPython's <ipython-input-...>), not a library."""
    filename = code.co_filename
    return "ipykernel_" in filename or filename.startswith("<ipython-input")


def undefined_name_sentence(error, tb=None):
    """The one sentence for `NameError: name 'x' is not defined` raised by cell code; otherwise None."""
    if type(error) is not NameError:  # UnboundLocalError is a bug inside a function: keep its traceback
        return None
    match = _UNDEFINED.match(str(error))
    if not match:
        return None
    innermost = None
    while tb is not None:
        innermost, tb = tb.tb_frame.f_code, tb.tb_next
    if innermost is not None and not _is_cell_code(innermost):
        return None  # raised inside a library: its traceback is the useful part
    where = ""
    if innermost is not None and not innermost.co_name.startswith("<"):
        # Translators: put in after "`x` is not defined yet", with its leading space; {function} is code
        where = _(" (your function `{function}` uses it)").format(function=innermost.co_name)
    name = match.group("name")
    if len(name) == 1 and name.isalpha():  # `answer = B`, `why_interleave = b`: a quiz letter without quotes
        return _("`{name}` is not defined yet{where}: if you meant the letter as an answer, write it in quotes, "
                 "\"{name}\"; otherwise run the cell that defines it — usually the answer cell above, or the "
                 "lesson's earlier cells after a kernel restart.").format(name=name, where=where)
    if name in ("pd_op", "builtin"):  # `answer = pd_op.tanh`
        return _("`{name}` is not defined yet{where}: if you meant an op name as an answer, write it in quotes, "
                 "\"{name}...\"; otherwise run the cell that defines it — usually the answer cell above, or the "
                 "lesson's earlier cells after a kernel restart.").format(name=name, where=where)
    return _("`{name}` is not defined yet{where}: run the cell that defines it — usually the "
             "answer cell above (if you ran it, it stopped with an error before defining it: its last line says "
             "why), or the lesson's earlier cells after a kernel restart.").format(name=name, where=where)


# ---------------------------------------------------------------- an error raised deep inside Paddle

_PADDLE_DIR = None


def _in_paddle_file(filename):
    global _PADDLE_DIR
    if _PADDLE_DIR is None:
        import os

        import paddle

        _PADDLE_DIR = os.path.dirname(paddle.__file__) + os.sep
    return str(filename).startswith(_PADDLE_DIR)


def _in_paddle(code):
    return _in_paddle_file(code.co_filename)


def learners_frames(tb):
    """The traceback from the first notebook-cell frame down to the call into Paddle, or None when the error
    was not raised inside Paddle (then its whole traceback is the useful part); with how many frames it leaves
    out. Built anew (types.TracebackType), so the error keeps its own traceback for %tb."""
    import types

    frames, started = [], False
    while tb is not None:
        code = tb.tb_frame.f_code
        started = started or _is_cell_code(code)
        if started:
            frames.append(tb)
        tb = tb.tb_next
    kept = next((k for k, frame in enumerate(frames) if _in_paddle(frame.tb_frame.f_code)), None)
    if not frames or kept in (None, 0) or not _in_paddle(frames[-1].tb_frame.f_code):
        return None, 0
    short = None
    for frame in reversed(frames[:kept]):
        short = types.TracebackType(short, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return short, len(frames) - kept


def paddle_error_lines(shell, etype, value, tb):
    """What IPython shows for an error raised inside Paddle: the learner's own frames, one line for the frames
    inside Paddle, and the error in whole sentences (error_message); None when it was not raised inside Paddle."""
    short, hidden = learners_frames(tb)
    if short is None:
        return None
    lines = shell.InteractiveTB.structured_traceback(etype, value, short, tb_offset=0)
    # Translators: under a shortened traceback; keep %tb as it is (the IPython command that shows all).
    # (the form for other counts; Chinese: the same sentence for both)
    note = ngettext("(and {count} call inside Paddle, left out: %tb shows the whole traceback)",
                    "(and {count} calls inside Paddle, left out: %tb shows the whole traceback)",
                    hidden).format(count=hidden)
    message = f"KeyError: {value}" if isinstance(value, KeyError) else error_message(value)  # as show_error
    return lines[:-1] + [note, message]


def short_paddle_warnings(formatwarning):
    """``warnings.formatwarning`` for a notebook: a warning Paddle raises from its own code is one line,
    ``UserWarning (from Paddle): ...``, without the file path and the ``warnings.warn(`` source line under it
    (all a learner gets from those is noise); any other warning is formatted by ``formatwarning``, as before."""
    if getattr(formatwarning, "short_paddle_warnings", False):
        return formatwarning

    def format_warning(message, category, filename, lineno, line=None):
        try:
            inside = _in_paddle_file(filename)
        except Exception:
            inside = False
        if not inside:
            return formatwarning(message, category, filename, lineno, line)
        # Translators: {category} is the warning's class, e.g. UserWarning; {message} is Paddle's own text
        return _("{category} (from Paddle): {message}").format(category=category.__name__, message=message) + "\n"

    format_warning.short_paddle_warnings = True
    return format_warning
