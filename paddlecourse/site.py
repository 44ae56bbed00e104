"""The course as a website (authors' tool, issue 16): `paddlecourse site`, or `make site`.

One page per lesson and for the glossary, and an index, in English and in Chinese. A page is the
learner's student copy (lessons/, lessons/zh/) with the stored outputs of the executed solution
(solutions/, solutions/zh/) put back into every cell that is not an exercise. An exercise shows the
student copy's answer stub and check cell, without outputs (the check's verdict on the solution
is no part of the task), so no solution code or hidden test reaches the site; a student copy that
still holds a solution marker stops the build. Cells are matched by cell id; nbgrader's metadata
says which cells are exercises. A widget's output is shown in its static form from the same bundle, with a note that
it is live once the lesson is launched. Each page opens with a bar: the same page in the other
language, Binder, the class hub (nbgitpuller, when a hub address is given) and the student copy to
download.

Sphinx + MyST-NB + sphinx-book-theme render the prepared notebooks (the config is site/conf.py),
without a kernel and without the network. No lesson imports this module.
"""
import base64
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import nbformat

from .deploy_links import REPO_ROOT, LinkError, binder_url, lesson_link, lessons_folder, origin_remote

SITE_CONFIG = REPO_ROOT / "site"
DEFAULT_OUT = REPO_ROOT / "build" / "site"
PLACEHOLDER_REPO = "https://github.com/OWNER/paddlecourse"  # as the README's badge, until there is an origin
HUB_URL_ENV = "PADDLECOURSE_HUB_URL"
MARKER = ".paddlecourse-site"  # in an output folder this module wrote, so a rebuild may empty it
WIDGET_MIME = "application/vnd.jupyter.widget-view+json"
STATIC_FORMS = ("text/html", "image/svg+xml", "image/png", "text/plain")  # a widget's static form, in this order
SECRET_MARKERS = ("### BEGIN SOLUTION", "### END SOLUTION", "### BEGIN HIDDEN TESTS", "### END HIDDEN TESTS")

# Each language: where its student copies and solutions are, its folder in the site, and its words.
LANGUAGES = {
    "en": {
        "lessons": "lessons", "solutions": "solutions", "folder": "", "sphinx": "en", "other": "zh",
        "name": "English",
        "title": "paddlecourse: dynamic graph vs static graph in PaddlePaddle",
        "intro": "An interactive Jupyter course on PaddlePaddle 3.3.1's two programming modes: **dynamic graph "
                 "(动态图)**, where every line runs as Python reaches it, and **static graph (静态图)**, where you "
                 "describe the whole computation first and run it later, and on when to use which. These pages "
                 "show each lesson as it is, with the outputs of a real run; to run it yourself, use a lesson's "
                 "**Binder** button (nothing to install), your class hub's button, or download the notebook.",
        "table": ("#", "Lesson", "What you will do", "Time"),
        "minutes": "{} min",
        "bar": "Run this page",
        "binder": "Launch on Binder",
        "hub": "Open on the class JupyterHub",
        "download": "Download the notebook",
        "switch": "中文",
        "switch_label": "这一页的中文版",
        "widget_note": "A still picture of an interactive widget: launch the lesson (Binder or JupyterHub) to use it.",
        "answer_note": "Your answer goes in the cell below, once you run the lesson.",
        "check_note": "The check: run it after your answer to see whether it is right, with a hint if not.",
    },
    "zh": {
        "lessons": "lessons/zh", "solutions": "solutions/zh", "folder": "zh", "sphinx": "zh_CN", "other": "en",
        "name": "中文",
        "title": "paddlecourse：动手学飞桨的动态图与静态图",
        "intro": "这是一门交互式 Jupyter 课程，讲解飞桨（PaddlePaddle 3.3.1）的两种编程模式，以及何时该用哪一种："
                 "**动态图**，Python 执行到哪一行就运行哪一行；**静态图**，先描述完整个计算，再统一运行。"
                 "这些网页按原样展示每一课，并附上一次真实运行的输出；想自己动手运行，请点击课程页上的 "
                 "**Binder** 按钮（无需安装），或你所在班级 JupyterHub 的按钮，或下载 notebook。",
        "table": ("#", "课程", "你将做什么", "用时"),
        "minutes": "{} 分钟",
        "bar": "运行这一页",
        "binder": "在 Binder 上启动",
        "hub": "在班级 JupyterHub 上打开",
        "download": "下载 notebook",
        "switch": "English",
        "switch_label": "This page in English",
        "widget_note": "这是交互式组件的静态画面：启动本课（Binder 或 JupyterHub）后即可操作。",
        "answer_note": "运行本课时，把你的答案写在下面这个单元格里。",
        "check_note": "检查：写好答案后运行它，看答案是否正确；不正确时会给出提示。",
    },
}


class SiteError(RuntimeError):
    """The site cannot be built as asked; the message says why and what to do."""


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
    minutes = None
    for line in lines:
        if re.match(r"\*\*(Time|用时)", line):
            found = re.search(r"(\d+)", line)
            minutes = int(found.group(1)) if found else None
            break
    return title, sentence, minutes


# ---------------------------------------------------------------------------------------------
# Links


def _web_address(remote):
    """A git remote as the https address Binder and nbgitpuller clone (git@github.com:o/r.git -> https://github.com/o/r)."""
    remote = remote.strip()
    found = re.fullmatch(r"(?:git@|ssh://git@)([^/:]+)[/:](.+?)(?:\.git)?/?", remote)
    if found:
        return f"https://{found.group(1)}/{found.group(2)}"
    parts = urlsplit(remote)
    if parts.username or parts.password:  # a token in the remote (some CI put one there) is never published
        remote = urlunsplit(parts._replace(netloc=parts.hostname + (f":{parts.port}" if parts.port else "")))
    return remote[:-4] if remote.endswith(".git") else remote


def repository(repo=None, notes=None):
    """The repository the launch links open: --repo, else this checkout's origin, else the README's placeholder."""
    if repo:
        return _web_address(repo)
    try:
        remote = _web_address(origin_remote())
        binder_url(remote)  # a public web address Binder can clone?
        return remote
    except LinkError as error:
        if notes is not None:
            notes.append(f"the launch links open the placeholder {PLACEHOLDER_REPO}, as the README's badge does, "
                         f"because {str(error)[0].lower()}{str(error)[1:]}")
        return PLACEHOLDER_REPO


def default_branch(repo_dir=REPO_ROOT):
    """The origin's default branch (refs/remotes/origin/HEAD), else main."""
    try:
        result = subprocess.run(["git", "-C", str(repo_dir), "symbolic-ref", "--short", "refs/remotes/origin/HEAD"],
                                capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "main"
    name = result.stdout.strip()
    return name.split("/", 1)[1] if result.returncode == 0 and "/" in name else "main"


def page_bar(lang, page, repo, branch, hub_url):
    """The bar on top of a page: the other language's page, and for a notebook page the launch links."""
    words, other = LANGUAGES[lang], LANGUAGES[LANGUAGES[lang]["other"]]
    up = "../" if words["folder"] else ""
    switch_href = up + (other["folder"] + "/" if other["folder"] else "") + f"{page}.html"
    parts = [f'<a class="pc-lang" href="{switch_href}" hreflang="{other["sphinx"][:2]}" lang="{other["sphinx"][:2]}" '
             f'title="{html.escape(words["switch_label"])}">{html.escape(words["switch"])}</a>']
    if page != "index":
        path = f"{lessons_folder(lang)}/{page}.ipynb"
        parts.append(f'<a class="pc-launch" href="{html.escape(binder_url(repo, branch, path))}">'
                     f'{html.escape(words["binder"])}</a>')
        if hub_url:
            link = lesson_link(hub_url, repo, branch, f"{page}.ipynb", lang=lang)
            parts.append(f'<a class="pc-launch" href="{html.escape(link)}">{html.escape(words["hub"])}</a>')
        parts.append(f'<a class="pc-launch" href="notebooks/{page}.ipynb" download="{page}.ipynb" type="application/x-ipynb+json">'
                     f'{html.escape(words["download"])}</a>')
    return f'<nav class="pc-bar" aria-label="{html.escape(words["bar"])}">' + " ".join(parts) + "</nav>"


# ---------------------------------------------------------------------------------------------
# The index


def index_markdown(lang, rows, bar_html):
    """The language's index page: the course table (lesson, what you will do, time) and the toctree."""
    words = LANGUAGES[lang]
    cell = lambda text: text.replace("|", "\\|")  # noqa: E731
    head = words["table"]
    lines = [bar_html, "", f"# {words['title']}", "", words["intro"], "",
             "```{table}", ":class: pc-course", "", f"| {' | '.join(head)} |", "|---|---|---|---|"]
    for page, (title, what, minutes) in rows:
        number = page[:2] if page[:2].isdigit() else "—"
        time_ = words["minutes"].format(minutes) if minutes else "—"
        lines.append(f"| {number} | [{cell(title)}]({page}.ipynb) | {cell(what)} | {time_} |")
    lines += ["```", "", "```{toctree}", ":hidden:", ""] + [page for page, _ in rows] + ["```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Build


def prepare(source_dir, repo, branch, hub_url=None, root=REPO_ROOT, notes=None):
    """Write each language's page notebooks and index into source_dir/<lang>/; returns {lang: [page names]}."""
    from .sources import solution_paths

    notes = notes if notes is not None else []
    pages = {}
    for lang, words in LANGUAGES.items():
        lessons_dir, solutions_dir = Path(root) / words["lessons"], Path(root) / words["solutions"]
        target = Path(source_dir) / lang
        target.mkdir(parents=True, exist_ok=True)
        rows, missing_outputs = [], []
        for solution_path in solution_paths(solutions_dir, include_extras=True):
            student_path = lessons_dir / solution_path.name
            if not student_path.exists():
                raise SiteError(f"{student_path} is missing: run `paddlecourse build`")
            student = nbformat.read(student_path, as_version=4)
            solution = nbformat.read(solution_path, as_version=4)
            name = solution_path.stem
            if not any(cell.get("outputs") for cell in solution.cells if cell.cell_type == "code"):
                missing_outputs.append(name)
            bar = page_bar(lang, name, repo, branch, hub_url)
            files = {}
            page = page_notebook(student, solution, bar, lang, where=str(student_path.relative_to(root)),
                                 name=name, files=files)
            nbformat.write(page, target / f"{name}.ipynb")
            for path, content in files.items():
                (target / path).parent.mkdir(parents=True, exist_ok=True)
                (target / path).write_bytes(content)
            rows.append((name, lesson_summary(student)))
        (target / "index.md").write_text(index_markdown(lang, rows, page_bar(lang, "index", repo, branch, hub_url)),
                                         encoding="utf-8")
        if missing_outputs:
            notes.append(f"{words['solutions']}/ has no stored outputs yet in {len(missing_outputs)} notebooks "
                         f"({', '.join(missing_outputs)}): their {words['name']} pages show code without outputs "
                         "until `paddlecourse build --execute` fills them")
        pages[lang] = [name for name, _ in rows]
    return pages


def _sphinx_command(source, out, doctrees, lang):
    words = LANGUAGES[lang]
    return [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W", "--keep-going", "-c", str(SITE_CONFIG),
            "-d", str(doctrees), "-D", f"language={words['sphinx']}",
            str(source), str(out)]


def _empty_out(out):
    out = Path(out)
    if out.exists() and any(out.iterdir()):
        if not (out / MARKER).exists():
            raise SiteError(f"{out} is not empty and was not written by `paddlecourse site`: choose another --out")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER).write_text("written by `paddlecourse site`; a rebuild empties this folder\n")


def build_site(out=DEFAULT_OUT, hub_url=None, repo=None, branch=None, root=REPO_ROOT):
    """Build the whole site into `out`; returns a report (pages, seconds, notes)."""
    start = time.monotonic()
    notes = []
    hub_url = hub_url if hub_url is not None else os.environ.get(HUB_URL_ENV) or None
    if hub_url:
        lesson_link(hub_url, PLACEHOLDER_REPO, "main", "x.ipynb")  # a bad address fails here, in one sentence
    else:
        notes.append(f"no hub address (--hub-url or ${HUB_URL_ENV}): the pages offer Binder and the download only")
    repo = repository(repo, notes)
    branch = branch or default_branch(root)
    out = Path(out).resolve()
    _empty_out(out)
    with tempfile.TemporaryDirectory(prefix="paddlecourse-site-") as work:
        work = Path(work)
        pages = prepare(work / "src", repo, branch, hub_url, root=root, notes=notes)
        prepared = time.monotonic()
        builds = {}
        for lang in LANGUAGES:  # the two languages at once, one core each; each into a folder of its own,
            # since MyST-NB writes its notebook copies beside the output folder (../jupyter_execute)
            builds[lang] = subprocess.Popen(
                _sphinx_command(work / "src" / lang, work / lang / "html", work / lang / "doctrees", lang),
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        failures = []
        for lang, process in builds.items():
            output, _ = process.communicate()
            if process.returncode != 0:
                failures.append(f"{lang}: sphinx exited with {process.returncode}:\n{output}")
        if failures:
            raise SiteError("the site did not build:\n" + "\n".join(failures))
        for lang, words in LANGUAGES.items():
            html_dir = work / lang / "html"
            if (html_dir / "_sources").is_dir() and not any((html_dir / "_sources").iterdir()):
                (html_dir / "_sources").rmdir()
            for template in (html_dir / "_static").glob("*webpack-macros.html"):
                template.unlink()  # the themes' Jinja macros, copied with their static files: not a page
            shutil.copytree(html_dir, out / words["folder"] if words["folder"] else out, dirs_exist_ok=True)
    for lang, words in LANGUAGES.items():
        folder = out / words["folder"] / "notebooks" if words["folder"] else out / "notebooks"
        folder.mkdir(parents=True, exist_ok=True)
        for name in pages[lang]:
            shutil.copy2(Path(root) / words["lessons"] / f"{name}.ipynb", folder / f"{name}.ipynb")
    return SiteReport(out, pages, repo, branch, hub_url, prepared - start, time.monotonic() - start, notes)


class SiteReport:
    def __init__(self, out, pages, repo, branch, hub_url, prepare_seconds, seconds, notes):
        self.out, self.pages, self.repo, self.branch, self.hub_url = out, pages, repo, branch, hub_url
        self.prepare_seconds, self.seconds, self.notes = prepare_seconds, seconds, notes

    def __str__(self):
        count = sum(len(names) + 1 for names in self.pages.values())
        lines = [f"site written to {self.out} ({count} pages in {', '.join(self.pages)}) in {self.seconds:.1f} s",
                 f"open {self.out / 'index.html'}; launch links: {self.repo} @ {self.branch}"
                 + (f", hub {self.hub_url}" if self.hub_url else "")]
        return "\n".join(lines + [f"note: {note}" for note in self.notes])
