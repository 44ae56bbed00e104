"""Translation catalogues for the lessons: what a translator translates, kept in step with the English.

Authors' tool (``paddlecourse translations update``). Each lesson has one gettext catalogue per
language, ``paddlecourse/locale/<lang>/LC_MESSAGES/<lesson>.po``, read and written with polib:

- one entry per markdown cell, keyed by the cell's id (``msgctxt "markdown <id>"``), its English
  text as the msgid;
- one entry per piece of text the lesson's code hands to a learner through the library - a check's
  hint or label, a plot's title - keyed ``msgctxt "code <cell id>"``; an f-string becomes a template
  whose ``{…}`` parts the translation keeps (``paddlecourse.language.translate`` fills them in).

Updating keeps every translation whose English is unchanged. When the English of an entry changed,
its old translation is kept but marked *fuzzy*, with the old English beside it (``#| msgid``), so a
translator sees what moved and the build never passes an outdated sentence off as current; an entry
whose text is gone becomes obsolete (``#~``). The library's own messages (``paddlecourse.po``) are
extracted from ``_()`` calls by Babel, and merged the same way.
"""
import ast
import difflib
from pathlib import Path

import polib

from ..language import LOCALE

HIDDEN_TESTS = "### BEGIN HIDDEN TESTS"
LIBRARY_DOMAIN = "paddlecourse"
# calls whose text a learner sees drawn or printed by the library (beyond checks' hint/label arguments)
DRAWN = {"set_title", "set_xlabel", "set_ylabel", "suptitle", "title", "xlabel", "ylabel", "legend", "text",
         "annotate", "CheckFailed", "check_value", "check_answer", "check_true", "check_shape", "check_dtype",
         "check_grad", "check_parts", "run_answer", "add_node", "add_edge", "GraphPicture"}
SHOWN_KEYWORDS = {"hint", "because", "label", "title", "xlabel", "ylabel", "caption", "alt", "description"}
NOT_SHOWN = {"print", "options", "startswith", "endswith", "split", "replace", "join", "format", "get", "pop",
             "setdefault", "index", "count", "find", "astype", "open", "environ", "getenv", "filterwarnings",
             "select", "median", "run_code", "catch_warnings", "warn", "simplefilter",
             "sealed", "seal"}  # a sealed answer's digest is a value, not prose


def catalogue_path(lang, domain):
    return LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


class Message:
    """One thing to translate: its key (msgctxt), its English (msgid), where it is."""

    def __init__(self, context, text, where, note="", flags=()):
        self.context, self.text, self.where, self.note = context, text, where, note
        self.flags = tuple(flags)


def _grader(cell):
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def notebook_messages(notebook, name):
    """Every Message of one English notebook (markdown cells, then the text its code shows)."""
    messages = []
    for index, cell in enumerate(notebook.cells):
        where = f"{name} cell {index}"
        if cell.cell_type == "markdown" and cell.source.strip():
            messages.append(Message(f"markdown {cell.id}", cell.source, where))
        elif cell.cell_type == "code" and not _grader(cell).get("solution"):
            source = cell.source.split(HIDDEN_TESTS, 1)[0]
            seen = set()
            for text in shown_strings(source):
                if text not in seen:
                    seen.add(text)
                    messages.append(Message(f"code {cell.id}", text, where,
                                            "shown by the code of this cell; keep every {…} exactly as it is"))
    return messages


def shown_strings(source):
    """The texts in ``source`` a learner reads through the library: hints, labels, because=, titles.

    A text joined from pieces (``first_step + "; times x."``, with ``first_step`` a string set in the
    same cell) is taken whole, as the library will see it."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    known = {}  # names bound once, in this cell, to a text
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            text = _literal_text(node.value, {})
            known[name] = None if name in known else text
    known = {name: text for name, text in known.items() if text is not None}
    found = []
    for node in ast.walk(tree):
        if _inside(node, parents, (ast.JoinedStr,)) or _part_of_a_sum(node, parents, known):
            continue
        text = _literal_text(node, known)
        if text is not None and _is_shown(node, parents, text):
            found.append(text)
    return found


def _inside(node, parents, kinds):
    parent = parents.get(node)
    while parent is not None:
        if isinstance(parent, kinds):
            return True
        parent = parents.get(parent)
    return False


def _part_of_a_sum(node, parents, known):
    """A piece of ``"a" + b`` whose whole is a text: the whole is taken instead."""
    parent = parents.get(node)
    return isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add) and _literal_text(parent, known) is not None


def _literal_text(node, known=None):
    """The text of a string literal, an f-string (as a template) or a sum of them; else None."""
    known = known or {}
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name) and node.id in known and not isinstance(node.ctx, ast.Store):
        return None  # a name alone is not a new text; only inside a sum
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = known.get(node.left.id) if isinstance(node.left, ast.Name) else _literal_text(node.left, known)
        right = known.get(node.right.id) if isinstance(node.right, ast.Name) else _literal_text(node.right, known)
        return left + right if left is not None and right is not None else None
    if isinstance(node, ast.JoinedStr):
        parts = []
        for value in node.values:
            if isinstance(value, ast.Constant):
                parts.append(value.value.replace("{", "{{").replace("}", "}}"))
            elif isinstance(value, ast.FormattedValue):
                inner = ast.unparse(value.value)
                spec = ""
                if value.format_spec is not None:
                    spec = ":" + "".join(v.value if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
                                         for v in value.format_spec.values)
                conversion = "" if value.conversion == -1 else "!" + chr(value.conversion)
                parts.append("{" + inner + conversion + spec + "}")
        return "".join(parts)
    return None


def _is_code(text):
    """A name or an expression (``dz_dw``, ``train_fixed(60)``): the learner's own words, not prose."""
    try:
        ast.parse(text.strip(), mode="eval" if "\n" not in text.strip() else "exec")
    except SyntaxError:
        return False
    return True


def _words(text):
    plain = text.replace("{{", "").replace("}}", "")
    return sum(1 for piece in plain.split() if any(ch.isalpha() for ch in piece))


def _call_name(call):
    function = call.func
    if isinstance(function, ast.Attribute):
        return function.attr
    if isinstance(function, ast.Name):
        return function.id
    return ""


def _is_shown(node, parents, text):
    """A string a learner may read: passed (directly, or through a dict, list, conditional or `return`)
    to a check, a hint/label keyword or a plot text; never a dict key, a comparison, a print or code."""
    if not any(ch.isalpha() for ch in text):
        return False
    if _is_code(text) and not _drawn_on_a_plot(node, parents):
        return False
    child, parent = node, parents.get(node)
    keyword_seen = None
    while parent is not None:
        if isinstance(parent, ast.Dict) and child in parent.keys:
            return False
        if isinstance(parent, (ast.Compare, ast.Subscript)) and child is not getattr(parent, "value", None):
            return False
        if isinstance(parent, ast.Expr) and isinstance(parents.get(parent), (ast.Module, ast.FunctionDef, ast.ClassDef)):
            return False  # a docstring, or a bare string
        if isinstance(parent, ast.keyword):
            keyword_seen = parent.arg
            if parent.arg in SHOWN_KEYWORDS:
                return _words(text) >= 1
            if parent.arg in NOT_SHOWN:
                return False
        if isinstance(parent, ast.Call):
            name = _call_name(parent)
            if name in NOT_SHOWN and keyword_seen is None:
                return False
            if name in DRAWN:
                return _words(text) >= 1 if name not in {"legend", "text"} else True
            if child is parent.func:
                return False
        if isinstance(parent, ast.Return) or isinstance(parent, ast.Raise):
            return _words(text) >= 2
        if isinstance(parent, (ast.Assign, ast.AnnAssign)) and isinstance(child, (ast.Dict, ast.List, ast.Tuple,
                                                                                   ast.Constant, ast.JoinedStr)):
            # a hint kept in a variable or table (hint = "...", SLIPS = {...: "..."}): a sentence, not a value
            return _words(text) >= 3
        child, parent = parent, parents.get(parent)
    return False


PLOT_TEXT = {"set_title", "set_xlabel", "set_ylabel", "suptitle", "title", "xlabel", "ylabel", "legend", "text",
             "annotate"}


def _drawn_on_a_plot(node, parents):
    """A single word drawn in a picture: an axis label ("step"), a legend entry (label="w")."""
    child, parent = node, parents.get(node)
    while parent is not None and not isinstance(parent, ast.stmt):
        if isinstance(parent, ast.keyword) and parent.arg == "label":
            return True
        if isinstance(parent, ast.Call):
            return _call_name(parent) in PLOT_TEXT
        child, parent = parent, parents.get(parent)
    return False


# ---------------------------------------------------------------- merging

def _occurrences(where):
    """'solutions/x.ipynb cell 3' or 'paddlecourse/checks.py:120' as a .po file's "#:" reference."""
    if " cell " in where:
        return [tuple(where.rsplit(" cell ", 1))]
    if where.endswith(".py") or ".py:" in where:
        return [tuple(where.rsplit(":", 1))] if ".py:" in where else [(where, "")]
    return []


def _entry(message):
    return polib.POEntry(msgctxt=message.context, msgid=message.text, msgstr="",
                         occurrences=_occurrences(message.where),
                         comment=message.note, flags=list(message.flags))


def merge(catalogue, messages):
    """Bring ``catalogue`` (a polib.POFile) in line with ``messages``; returns (added, fuzzy, obsolete)."""
    old = {(e.msgctxt, e.msgid): e for e in catalogue if not e.obsolete}
    by_context = {}
    for entry in old.values():
        by_context.setdefault(entry.msgctxt, []).append(entry)
    kept, added, fuzzy = [], 0, 0
    used = set()
    for message in messages:
        key = (message.context, message.text)
        fresh = _entry(message)
        if key in old:
            previous = old[key]
            fresh.msgstr, fresh.flags = previous.msgstr, sorted(set(previous.flags) | set(message.flags))
            fresh.previous_msgid = previous.previous_msgid
            fresh.tcomment = previous.tcomment
            used.add(key)
        else:
            candidates = [e for e in by_context.get(message.context, []) if (e.msgctxt, e.msgid) not in used]
            context = message.context or ""  # the library's messages have none: matched like a code cell's
            if (message.context is None or context.startswith("code")) and candidates:
                close = difflib.get_close_matches(message.text, [e.msgid for e in candidates], n=1, cutoff=0.6)
                candidates = [e for e in candidates if close and e.msgid == close[0]]
            elif not context.startswith("markdown"):
                candidates = []
            if candidates and candidates[0].msgstr:
                previous = candidates[0]
                used.add((previous.msgctxt, previous.msgid))
                fresh.msgstr = previous.msgstr
                fresh.flags = sorted(set(previous.flags) | {"fuzzy"})
                fresh.previous_msgid = previous.previous_msgid or previous.msgid
                fresh.tcomment = previous.tcomment
                fuzzy += 1
            else:
                added += 1
        kept.append(fresh)
    gone = [e for key, e in old.items() if key not in used and e.msgstr]
    for entry in gone:
        entry.obsolete = True
    catalogue[:] = kept + gone + [e for e in catalogue if e.obsolete and e not in gone]
    return added, fuzzy, len(gone)


def new_catalogue(lang, domain):
    catalogue = polib.POFile(wrapwidth=0)
    catalogue.metadata = {
        "Project-Id-Version": f"paddlecourse {domain}",
        "Language": lang,
        "MIME-Version": "1.0",
        "Content-Type": "text/plain; charset=UTF-8",
        "Content-Transfer-Encoding": "8bit",
        "Plural-Forms": "nplurals=1; plural=0;" if lang == "zh" else "nplurals=2; plural=(n != 1);",
    }
    return catalogue


def open_catalogue(lang, domain):
    path = catalogue_path(lang, domain)
    if path.exists():
        catalogue = polib.pofile(str(path), wrapwidth=0)
        catalogue.wrapwidth = 0
        return catalogue
    return new_catalogue(lang, domain)


def save(catalogue, lang, domain):
    path = catalogue_path(lang, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    catalogue.save(str(path))
    return path


LIBRARY_KEYWORDS = {"_": None, "gettext": None, "N_": None, "ngettext": (1, 2)}


def library_messages(package=Path(__file__).resolve().parents[1]):
    """The library's ``_()``, ``N_()`` and ``ngettext()`` messages, found by Babel's Python extractor
    (the learner's room only: the author's and the instructor's rooms and the command line are left out).
    Each form of an ``ngettext`` is an entry of its own; a message with ``{…}`` is flagged
    python-brace-format, so ``translate()`` never takes it for a lesson's template."""
    from babel.messages.extract import extract_from_dir

    skip_rooms, skip = {"author", "teach"}, {"cli.py", "__main__.py"}
    messages, seen = [], set()
    for filename, lineno, found, comments, _context in extract_from_dir(
            str(package), method_map=[("**.py", "python")], keywords=LIBRARY_KEYWORDS,
            comment_tags=("Translators:",), strip_comment_tags=True):
        if Path(filename).name in skip or Path(filename).parts[0] in skip_rooms:
            continue
        forms = found if isinstance(found, tuple) else (found,)
        for number, text in enumerate(forms):
            if not isinstance(text, str) or text in seen:
                continue
            seen.add(text)
            note = " ".join(comments)
            if len(forms) > 1:
                form = "the form for one" if number == 0 else "the form for other counts"
                note = (note + " " if note else "") + f"({form}; Chinese: the same sentence for both)"
            flags = ("python-brace-format",) if language_placeholders(text) else ()
            messages.append(Message(None, text, f"paddlecourse/{filename}:{lineno}", note, flags))
    return messages


def language_placeholders(text):
    from ..language import PLACEHOLDER

    return PLACEHOLDER.findall(text.replace("{{", "").replace("}}", ""))


def update(lang="zh", solutions_dir="solutions"):
    """Refresh every catalogue of ``lang`` from the English solutions and the library; returns a report."""
    import nbformat

    from .sources import solution_paths

    lines = []
    for path in solution_paths(solutions_dir, include_extras=True):
        notebook = nbformat.read(path, as_version=4)
        catalogue = open_catalogue(lang, path.stem)
        counts = merge(catalogue, notebook_messages(notebook, f"solutions/{path.name}"))
        save(catalogue, lang, path.stem)
        lines.append(_status_line(path.stem, catalogue, counts))
    catalogue = open_catalogue(lang, LIBRARY_DOMAIN)
    counts = merge(catalogue, library_messages())
    save(catalogue, lang, LIBRARY_DOMAIN)
    lines.append(_status_line(LIBRARY_DOMAIN, catalogue, counts))
    return "\n".join(lines)


def status(catalogue):
    """(translated, fuzzy, untranslated) entries of a catalogue, obsolete ones left out."""
    live = [e for e in catalogue if not e.obsolete]
    fuzzy = sum(1 for e in live if "fuzzy" in e.flags)
    untranslated = sum(1 for e in live if not e.msgstr.strip())
    return len(live) - fuzzy - untranslated, fuzzy, untranslated


def _status_line(domain, catalogue, counts):
    translated, fuzzy, untranslated = status(catalogue)
    added, changed, gone = counts
    return (f"{domain:<34} {translated:4d} translated, {fuzzy:3d} fuzzy, {untranslated:4d} to do"
            f"   (this update: {added} new, {changed} changed -> fuzzy, {gone} obsolete)")


def translation_of(catalogue):
    """{(msgctxt, msgid): msgstr} of the usable entries (translated, not fuzzy)."""
    return {(e.msgctxt, e.msgid): e.msgstr for e in catalogue
            if not e.obsolete and e.msgstr.strip() and "fuzzy" not in e.flags}
