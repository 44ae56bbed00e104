"""The language the course speaks to a learner: English (the source) or Chinese (``zh``).

English is what the code says. Chinese comes from gettext catalogues inside this package,
``locale/zh/LC_MESSAGES/*.po``, read with polib: ``paddlecourse.po`` holds the library's own
messages (checks, widgets, ``verify``, catch-up), and one catalogue per lesson holds its text,
including the strings the lesson's code hands to the checks and plots (hints, labels, titles).

- ``_("... {name} ...")`` marks a library message; it is translated *before* ``.format``, so its
  placeholders stay named.
- ``ngettext(singular, plural, n)`` picks the English form for ``n`` and translates it; each form is
  an entry of its own in the catalogue (Chinese has one form: both get the same translation).
- ``N_("...")`` only marks a text for the catalogue (a table of labels defined at import time);
  the code translates it with ``_()`` where it shows it.
- ``translate(text)`` is for text a lesson's code built: found as it is, or matched against the
  catalogue's f-string entries (``"it returned {n} items"`` matches ``"it returned 5 items"``).
  It reads the lessons' catalogues only, and ``_()`` reads ``paddlecourse.po`` only, so a
  learner's variable called ``mode`` never becomes the library's word 模式.
- ``translate_label(label)`` is ``translate`` for a check's name: a name that is code (``w_grad``,
  ``model(x)``, ``w.grad``) is the learner's own and stays as typed; a phrase is translated.

The language is chosen once: ``paddlecourse.setup(lang="zh")`` (the Chinese lessons say so in
their first cell), ``set_language("zh")``, or ``PADDLECOURSE_LANG=zh`` for the command line. The
default is English. An entry that is missing, fuzzy or empty falls back to English, so a catalogue
that lags behind never breaks a lesson; tests/test_translations.py keeps them complete.
"""
import re
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

from .settings import setting

LANGUAGES = {"en": "English", "zh": "中文"}
DEFAULT = "en"
ENVIRONMENT = "PADDLECOURSE_LANG"
LOCALE = Path(__file__).resolve().parent / "locale"
LIBRARY_DOMAIN = "paddlecourse"  # the library's own messages; every other catalogue is a lesson's
PLACEHOLDER = re.compile(r"\{[^{}]+\}")

_chosen = None


def language():
    """The language in force: the one set in this process, else $PADDLECOURSE_LANG, else English."""
    if _chosen:
        return _chosen
    wanted = setting(ENVIRONMENT).strip().lower().replace("_", "-")
    return _known(wanted.split("-")[0]) or DEFAULT


def set_language(lang):
    """Speak ``lang`` ("en" or "zh") from now on, in this process."""
    global _chosen
    code = _known(str(lang).strip().lower().replace("_", "-").split("-")[0])
    if code is None:
        raise ValueError(gettext("The course speaks {languages}; {lang} is not one of them.").format(
            languages=" and ".join(repr(k) for k in LANGUAGES), lang=repr(lang)))
    _chosen = code
    return code


@contextmanager
def speaking(lang):
    """Speak ``lang`` inside the ``with`` block only (an author's tool drawing a picture in Chinese)."""
    global _chosen
    before = _chosen
    set_language(lang)
    try:
        yield
    finally:
        _chosen = before


def _known(code):
    return code if code in LANGUAGES else None


def gettext(message):
    """A library message in the current language (before it is formatted)."""
    if language() == DEFAULT:
        return message
    return _library(language()).get(message, message)


_ = gettext


def ngettext(singular, plural, n):
    """The form of a library message for the count ``n`` (English's rule), in the current language."""
    return gettext(singular if n == 1 else plural)


def N_(message):  # noqa: N802 - gettext's usual name
    """Mark ``message`` for the catalogue without translating it now (it is translated where shown)."""
    return message


def translate(text):
    """Text a lesson's code made (a hint, a label, a plot title), in the current language."""
    if language() == DEFAULT or not isinstance(text, str) or not text.strip():
        return text
    exact, templates = _messages(language())
    if text in exact:
        return exact[text]
    for pattern, names, translated in templates:
        found = pattern.fullmatch(text)
        if found:
            values = dict(zip(names, found.groups()))
            return PLACEHOLDER.sub(lambda m: values.get(m.group(0), m.group(0)), translated)
    return text


def translate_label(label):
    """A check's name or a call's label in the current language; code (a name as the learner typed it,
    ``w.grad``, ``train(60)``) is never translated, whatever a catalogue holds."""
    if language() == DEFAULT or not isinstance(label, str) or _is_code(label):
        return label
    return translate(label)


def _is_code(text):
    import ast

    try:
        ast.parse(text.strip(), mode="eval")
    except (SyntaxError, ValueError):
        return False
    return True


def template_pattern(msgid):
    """(regex, placeholders) for a catalogue entry written from an f-string: each {…} matches any text."""
    names = PLACEHOLDER.findall(msgid)
    pieces = PLACEHOLDER.split(msgid)
    regex = "(.+?)".join(re.escape(piece.replace("{{", "{").replace("}}", "}")) for piece in pieces)
    return re.compile(regex, re.S), names


def _usable(path):
    """The entries of one catalogue that may be shown: translated, not fuzzy, not obsolete."""
    import polib

    return [entry for entry in polib.pofile(str(path))
            if not entry.obsolete and "fuzzy" not in entry.flags and entry.msgstr.strip()]


@lru_cache(maxsize=None)
def _library(lang):
    """{msgid: msgstr} of the library's own catalogue of ``lang``."""
    path = LOCALE / lang / "LC_MESSAGES" / f"{LIBRARY_DOMAIN}.po"
    return {entry.msgid: entry.msgstr for entry in _usable(path)} if path.exists() else {}


@lru_cache(maxsize=None)
def _messages(lang):
    """({msgid: msgstr}, [(pattern, placeholders, msgstr)]) from every lesson catalogue of ``lang``."""
    import polib

    exact, templates = {}, []
    for path in sorted((LOCALE / lang / "LC_MESSAGES").glob("*.po")):
        if path.stem == LIBRARY_DOMAIN:
            continue
        for entry in polib.pofile(str(path)):
            if entry.obsolete or "fuzzy" in entry.flags or not entry.msgstr.strip():
                continue
            exact.setdefault(entry.msgid, entry.msgstr)
            is_prose = (entry.msgctxt or "").startswith("markdown")  # a whole cell: its {…} may be LaTeX
            if PLACEHOLDER.search(entry.msgid) and not is_prose and "python-brace-format" not in entry.flags:
                if not any(ch.isalpha() for ch in PLACEHOLDER.sub("", entry.msgid)):
                    continue  # "{n}" or "{a} / {b}": nothing to translate, and it would match any text
                pattern, names = template_pattern(entry.msgid)
                templates.append((pattern, names, entry.msgstr))
    # the longest literal text first: "a list of {n} values" before "{name}"
    templates.sort(key=lambda t: -len(PLACEHOLDER.sub("", t[0].pattern)))
    return exact, templates


def reload():
    """Forget the catalogues read so far (after editing a .po file in a running kernel)."""
    _messages.cache_clear()
    _library.cache_clear()
