"""A lesson's page: the student copy with the executed solution's outputs in every cell that is not an
exercise, widgets in their static form, pictures with their descriptions; and what a lesson says about itself."""
import base64
import html
import re

import nbformat

from .settings import LANGUAGES, SECRET_MARKERS, STATIC_FORMS, WIDGET_MIME, SiteError


# ---------------------------------------------------------------------------------------------
# Page notebooks


def is_exercise(cell):
    """nbgrader's answer cells (solution) and check cells (grade) are the exercises."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("solution") or meta.get("grade"))


def page_notebook(student, solution, bar_html, lang, where="the notebook", name="page", files=None):
    """The page for one lesson: the student copy, the solution's outputs outside exercises, the bar on top.

    A markdown cell's attachments (the glossary's picture) become files, put in `files` ({path: bytes}),
    which MyST-NB reads as plain images."""
    files = {} if files is None else files
    page = nbformat.from_dict(_plain(student))
    page.metadata.pop("widgets", None)
    solved = {cell.get("id"): cell for cell in solution.cells}
    words = LANGUAGES[lang]
    for cell in page.cells:
        _check_markdown_images(cell, where)
        if cell.cell_type == "markdown":
            cell.source = _ANCHOR.sub(r"(\1)=", cell.source)
            for attachment, bundle in (cell.pop("attachments", None) or {}).items():
                mime, data = next(iter(bundle.items()))
                path = f"_attachments/{name}-{cell.get('id')}-{attachment}"
                files[path] = base64.b64decode(_text(data)) if mime.startswith("image/") and "svg" not in mime \
                    else _text(data).encode()
                cell.source = cell.source.replace(f"attachment:{attachment}", path)
        if cell.cell_type != "code":
            continue
        cell.execution_count = None
        mine = solved.get(cell.get("id"))
        if is_exercise(cell) or (mine is not None and is_exercise(mine)):
            cell.outputs = []
            grading = cell.metadata.get("nbgrader", {})
            cell.metadata.setdefault("tags", []).append("pc-check" if grading.get("grade") else "pc-answer")
            continue
        if mine is None:
            raise SiteError(f"{where}: code cell {cell.get('id')} is not in the solution; "
                            "run `paddlecourse build` so lessons/ matches solutions/.")
        cell.outputs = [_static_output(output, words, where) for output in mine.get("outputs", [])]
        if any(WIDGET_MIME in output.get("data", {}) for output in mine.get("outputs", [])):
            cell.outputs.append(nbformat.v4.new_output(
                "display_data", data={"text/html": f'<p class="pc-widget-note">{html.escape(words["widget_note"])}</p>'}))
    for cell in page.cells:
        text = cell.source if isinstance(cell.source, str) else "".join(cell.source)
        for marker in SECRET_MARKERS:
            if marker in text:
                raise SiteError(f"{where}: cell {cell.get('id')} still holds {marker!r}; lessons/ must be the "
                                "student copies (`paddlecourse build`)")
    cells = [nbformat.v4.new_markdown_cell(bar_html, id="pc-site-bar")]
    for cell in page.cells:  # each exercise cell says what it is: the page shows the task, not its answer
        tags = cell.metadata.get("tags", [])
        for tag, note in (("pc-answer", words["answer_note"]), ("pc-check", words["check_note"])):
            if tag in tags:
                cells.append(nbformat.v4.new_markdown_cell(f'<p class="{tag}-note">{html.escape(note)}</p>',
                                                           id=f"{tag}-{cell.get('id')}"[:64]))
        cells.append(cell)
    page.cells = cells
    return page


def _plain(node):
    """A deep copy as plain dicts and lists (nbformat.from_dict turns it back into nodes)."""
    if isinstance(node, dict):
        return {key: _plain(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_plain(value) for value in node]
    return node


def _static_output(output, words, where):
    """One stored output as the page shows it: a widget as its static form, every picture with alt text."""
    output = nbformat.from_dict(_plain(output))
    data = output.get("data")
    if not data:
        return output
    description = _one_line(data.get("text/plain", ""))  # before a widget drops its other forms
    if WIDGET_MIME in data:
        form = next((mime for mime in STATIC_FORMS if mime in data), None)
        if form is None:
            raise SiteError(f"{where}: a widget output has no static form ({', '.join(STATIC_FORMS)})")
        output.data = {form: data[form]}
        output.metadata = {}
        data = output.data
    if "text/html" in data:
        data["text/html"] = _with_alt_text(_text(data["text/html"]), description, where)
    elif any(mime in data for mime in ("image/png", "image/jpeg", "image/svg+xml")):
        if not description or description.startswith("<Figure size"):
            raise SiteError(f"{where}: a picture output has no text to use as its alt text (give it a text/html "
                            "form with alt, as paddlecourse.widgets.figures does)")
        data["text/html"] = _picture_html(data, description)
        for mime in ("image/png", "image/jpeg", "image/svg+xml"):
            data.pop(mime, None)
    return output


def _text(value):
    return value if isinstance(value, str) else "".join(value)


def _one_line(text):
    return " ".join(_text(text).split())[:300]


_IMG = re.compile(r"<img\b[^>]*>", re.I)
_SVG = re.compile(r"<svg\b[^>]*>", re.I)
_ALT = re.compile(r"""(?<![\w-])alt\s*=\s*(["'])(.*?)\1""", re.I | re.S)


def _with_alt_text(markup, description, where):
    """Every <img> with a non-empty alt and every <svg> with a <title> or aria-label, supplied from text/plain."""
    def img(match):
        tag = match.group(0)
        alt = _ALT.search(tag)
        if alt and alt.group(2).strip():
            return tag
        if not description:
            raise SiteError(f"{where}: an <img> in an output has no alt text and the output no text/plain to supply it")
        tag = _ALT.sub("", tag) if alt else tag
        return tag[:4] + f' alt="{html.escape(description)}"' + tag[4:]

    def svg(match):
        tag = match.group(0)
        rest = markup[match.end():match.end() + 400]
        if re.search(r"\baria-(label|labelledby|hidden)\s*=", tag, re.I) or re.match(r"\s*(<[^>]+>\s*)*<title\b", rest):
            return tag
        if not description:
            raise SiteError(f"{where}: an <svg> in an output has no <title> and the output no text/plain to supply it")
        return tag[:4] + f' role="img" aria-label="{html.escape(description)}"' + tag[4:]

    return _SVG.sub(svg, _IMG.sub(img, markup))


def _picture_html(data, description):
    alt = html.escape(description)
    if "image/svg+xml" in data:
        source = base64.b64encode(_text(data["image/svg+xml"]).encode()).decode()
        return f'<img src="data:image/svg+xml;base64,{source}" alt="{alt}" style="max-width:100%;height:auto">'
    mime = "image/png" if "image/png" in data else "image/jpeg"
    source = _text(data[mime]).replace("\n", "")
    return f'<img src="data:{mime};base64,{source}" alt="{alt}" style="max-width:100%;height:auto">'


# An HTML anchor on a line of its own (the glossary's entries) becomes a MyST target, so Sphinx knows
# the id and checks every link to it: lessons link to glossary.ipynb#autograd.
_ANCHOR = re.compile(r"""^<a\s+id="([\w-]+)"(?:\s+name="[\w-]+")?\s*>\s*</a>\s*$""", re.M)
_MD_IMAGE = re.compile(r"!\[([^\]]*)\]\(")


def _check_markdown_images(cell, where):
    if cell.cell_type != "markdown":
        return
    for match in _MD_IMAGE.finditer(cell.source):
        if not match.group(1).strip():
            raise SiteError(f"{where}: a markdown image in cell {cell.get('id')} has no alt text: "
                            "write what it shows between the brackets, ![...](...)")
    for tag in _IMG.findall(cell.source):
        alt = _ALT.search(tag)
        if not (alt and alt.group(2).strip()):
            raise SiteError(f"{where}: an <img> in markdown cell {cell.get('id')} has no alt text")


# ---------------------------------------------------------------------------------------------
# What a lesson says about itself (its first markdown cell), for the index


def lesson_summary(notebook):
    """(title, what you will do, minutes or None) from a lesson's first markdown cell."""
    first = next(cell for cell in notebook.cells if cell.cell_type == "markdown").source
    lines = first.splitlines()
    title = next(line for line in lines if line.startswith("# "))[2:].strip()
    title = re.sub(r"^(Lesson \d+\s*[—:-]\s*|第 \d+ 课\s*[：:—-]*\s*)", "", title).strip()
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", first) if p.strip() and not p.startswith("#")]
    promise = paragraphs[0] if paragraphs else ""
    promise = re.sub(r"^\*\*[^*]+\*\*\s*[：:。.]?\s*", "", promise)
    promise = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", " ".join(promise.split()))
    # its first sentences, enough to say what the lesson does ("In lesson 01 you ..." alone does not)
    sentences = [part.strip() for part in re.split(r"(?<=[.!?])\s+(?=[A-Z\"“])|(?<=。)", promise) if part.strip()]
    enough = 50 if re.search(r"[\u4e00-\u9fff]", promise) else 120
    sentence = ""
    for part in sentences:
        sentence = f"{sentence}{' ' if sentence and not sentence.endswith('。') else ''}{part}"
        if len(sentence) >= enough:
            break
    minutes = None   # (all of it, its core path): the header's first two numbers
    for line in lines:
        if re.match(r"\*\*(Time|用时)", line):
            found = [int(n) for n in re.findall(r"\d+", line)[:2]]
            minutes = tuple(found) if len(found) == 2 else None
            break
    return title, sentence, minutes
