"""The index, the prepared notebooks and the Sphinx build of both languages."""
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from ...settings import setting
from ..deploy_links import NO_ADDRESS, REPO_ROOT, lesson_link
from .links import default_branch, page_bar, repository
from .pages import lesson_summary, page_notebook
from .settings import DEFAULT_OUT, HUB_URL_ENV, LANGUAGES, MARKER, SITE_CONFIG, SiteError


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
        time_ = words["minutes"].format(*minutes) if minutes else "—"
        lines.append(f"| {number} | [{cell(title)}]({page}.ipynb) | {cell(what)} | {time_} |")
    lines += ["```", "", "```{toctree}", ":hidden:", ""] + [page for page, _ in rows] + ["```", ""]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Build


def prepare(source_dir, repo, branch, hub_url=None, root=REPO_ROOT, notes=None):
    """Write each language's page notebooks and index into source_dir/<lang>/; returns {lang: [page names]}."""
    from ..sources import solution_paths

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
    hub_url = hub_url if hub_url is not None else setting(HUB_URL_ENV) or None
    repo = repository(repo, notes)
    if hub_url and not repo:
        raise SiteError(f"a hub's buttons need the repository learners pull: {NO_ADDRESS}.")
    if hub_url:
        lesson_link(hub_url, repo, "main", "x.ipynb")  # a bad address fails here, in one sentence
    else:
        offered = "Binder (and Colab and Kaggle for a GitHub repository) and the download" if repo else "the download"
        notes.append(f"no hub address (--hub-url or ${HUB_URL_ENV}): the pages offer {offered} only")
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
                 f"open {self.out / 'index.html'}; "
                 + (f"launch links: {self.repo} @ {self.branch}" if self.repo else "no launch links")
                 + (f", hub {self.hub_url}" if self.hub_url else "")]
        return "\n".join(lines + [f"note: {note}" for note in self.notes])
