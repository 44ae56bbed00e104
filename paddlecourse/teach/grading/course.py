"""The course directory: lessons as nbgrader assignments, its configuration, and nbgrader's own commands.

Everything here composes nbgrader's command line (``python -m nbgrader ...``); what it adds is
the wiring to this repository's lessons and the course's settings.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ...lesson_index import lesson_paths
from .integrity import record

REPO_ROOT = Path(__file__).resolve().parents[3]  # paddlecourse/teach/grading/ -> the repository
COURSE_ID = "paddlecourse"

# Per-cell timeout in seconds for autograding (c.Execute.timeout). Measured with
# `paddlecourse course timing` (see instructors/schedule.md): the slowest cell of
# any lesson is the first one (`import paddle` inside setup()), 3.3 s on a shared
# 2-core machine; the slowest graded cell takes well under a second. 15 s leaves
# room for a machine three or four times busier and no more: an infinite loop
# costs a submission 15 s, not nbgrader's default 30 s.
CELL_TIMEOUT = 15


def assignment_id(notebook):
    """The nbgrader assignment id of a lesson: ``l00`` for ``00_setup_and_first_run.ipynb``."""
    number = Path(notebook).stem.split("_", 1)[0]
    return f"l{number}"


LANGUAGES = ("en", "zh")  # the editions a course can be made from: solutions/ and solutions/zh/
COURSE_SETTINGS = "paddlecourse-course.json"  # in the course directory: the edition it was made from


def lesson_notebooks(repo=REPO_ROOT, lang="en"):
    """Every solution notebook of the course in ``lang``, in order (new lessons are picked up automatically).

    Grade ids are the same in both editions, so a class may hand in either; the course's own copy
    decides the language of the feedback."""
    if lang not in LANGUAGES:
        raise ValueError(f"the course exists in {', '.join(LANGUAGES)}, not {lang!r}")
    folder = Path(repo) / "solutions" / ("" if lang == "en" else lang)
    return lesson_paths(folder)


def lessons_by_assignment(repo=REPO_ROOT, lang="en"):
    return {assignment_id(p): p for p in lesson_notebooks(repo, lang)}


def course_language(course_dir):
    """The edition a course directory was created from ("en" when it does not say)."""
    settings = Path(course_dir) / COURSE_SETTINGS
    if settings.exists():
        return json.loads(settings.read_text(encoding="utf-8")).get("lang", "en")
    return "en"


# ---------------------------------------------------------------- configuration

CONFIG_TEMPLATE = '''\
# nbgrader configuration for the paddlecourse course directory.
# Written by `paddlecourse course create`; safe to edit (re-running create keeps your edits
# unless you pass --overwrite-config). nbgrader reads this file from the directory you run
# `nbgrader ...` in, so run every nbgrader command from this folder.
c = get_config()  # noqa: F821

c.CourseDirectory.course_id = {course_id!r}
c.CourseDirectory.root = {root!r}
# The exchange is where released assignments wait and where submissions arrive. Set
# explicitly: nbgrader's default (/usr/local/share/nbgrader/exchange) must exist and be
# world-writable, which it rarely is.
c.Exchange.root = {exchange!r}
c.CourseDirectory.db_url = "sqlite:///" + {db!r}

# Per-cell timeout (seconds). The slowest cell of any lesson is `import paddle` in setup()
# (3.3 s on a shared 2-core machine); the slowest graded cell takes under a second. This
# leaves room for a 3-4x busier machine and no more, so an infinite loop costs one submission
# {timeout} s. Measure again on your grading machine with `paddlecourse course timing`.
c.Execute.timeout = {timeout}
c.Execute.interrupt_on_timeout = True
# One kernel per submission; the course kernel starts Paddle quiet (GLOG_minloglevel=2).
c.Execute.extra_arguments = ["--HistoryManager.hist_file=:memory:"]
# Keep a runaway print loop or a giant traceback from bloating the gradebook and feedback.
c.LimitOutput.max_lines = 200
c.LimitOutput.max_traceback = 40

# The grade is decided outside the student's kernel (paddlecourse/teach/grading/judge.py): each
# submission runs sandboxed and only reports its answers as data; a judge run of the
# instructor's notebook on those answers decides every test cell, and nbgrader records it.
# nbgrader's own Execute is replaced by ApplyJudgement; its checks that would fail a whole
# notebook over a copy-pasted cell are left to the judge, which grades the last copy.
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "nbgrader.preprocessors.OverwriteKernelspec",
]
c.Autograde.autograde_preprocessors = [
    "paddlecourse.teach.grading.judge.ApplyJudgement",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# A deleted test cell is put back from the source and graded, instead of silently
# costing (or hiding) its points. Locked cells a student edited are always restored.
c.OverwriteCells.add_missing_cells = True

# Feedback shows visible checks and their messages, never hidden tests: hidden-test code
# is removed and tracebacks are cut to one line (their context lines would show it).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "paddlecourse.teach.grading.feedback.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
'''


def config_text(root, exchange, course_id=COURSE_ID, timeout=CELL_TIMEOUT):
    root = Path(root).resolve()
    return CONFIG_TEMPLATE.format(
        course_id=course_id,
        root=str(root),
        exchange=str(Path(exchange).resolve()),
        db=str(root / "gradebook.db"),
        timeout=int(timeout),
    )


# ---------------------------------------------------------------- running nbgrader

@dataclass
class Run:
    """One nbgrader command: what ran, its exit code, its log, how long it took."""

    args: list
    returncode: int
    log: str
    seconds: float
    line_times: list = field(default_factory=list)  # (seconds since start, log line)

    @property
    def ok(self):
        return self.returncode == 0


def nbgrader(course_dir, *args, check=True, echo=False, timeout=None, env=None):
    """Run ``nbgrader <args>`` in the course directory (the real nbgrader command line).

    Each log line is time-stamped as it arrives, so a batch run can be split
    into per-submission times without running nbgrader once per student.
    """
    command = [sys.executable, "-m", "nbgrader", *map(str, args)]
    env = {**os.environ, **(env or {})}
    env.setdefault("GLOG_minloglevel", "2")
    env["PYTHONUNBUFFERED"] = "1"
    # nbgrader runs `alembic` (and `jupyter`) by name: find this environment's copies
    # even when it was not activated (e.g. `.venv/bin/paddlecourse course ...`).
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    start = time.monotonic()
    process = subprocess.Popen(
        command, cwd=course_dir, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1
    )
    lines = []
    for line in process.stdout:
        lines.append((time.monotonic() - start, line.rstrip("\n")))
        if echo:
            print(line, end="", flush=True)
    returncode = process.wait(timeout=timeout)
    run = Run(list(args), returncode, "\n".join(text for _, text in lines), time.monotonic() - start, lines)
    if check and not run.ok:
        raise RuntimeError(f"nbgrader {' '.join(map(str, args))} failed ({returncode}):\n{run.log[-4000:]}")
    return run


# ---------------------------------------------------------------- the course directory

def sync_sources(course_dir, repo=REPO_ROOT, lang=None):
    """Copy every solution notebook (of the course's edition) to ``source/<assignment>/``; returns the ids.

    Re-run it (``paddlecourse course sync``) after editing solutions/; grade ids
    are stable, so earlier submissions stay gradeable.
    """
    course_dir = Path(course_dir)
    lang = lang or course_language(course_dir)
    ids = []
    for notebook in lesson_notebooks(repo, lang):
        target = course_dir / "source" / assignment_id(notebook)
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(notebook, target / notebook.name)
        ids.append(assignment_id(notebook))
    record(course_dir)
    return ids


def create_course(course_dir, repo=REPO_ROOT, exchange=None, course_id=COURSE_ID, timeout=CELL_TIMEOUT,
                  overwrite_config=False, generate=True, lang="en"):
    """Create (or refresh) an nbgrader course directory for this course; returns its path.

    With ``generate`` (the default) every lesson is also put in the gradebook and
    its student version generated (``nbgrader generate_assignment --create``).
    ``lang="zh"`` makes it from the Chinese edition (solutions/zh/): the same assignments and
    grade ids, the Chinese text, checks and feedback.
    """
    course_dir = Path(course_dir).resolve()
    exchange = Path(exchange).resolve() if exchange else course_dir / "exchange"
    course_dir.mkdir(parents=True, exist_ok=True)
    exchange.mkdir(parents=True, exist_ok=True)
    config = course_dir / "nbgrader_config.py"
    if overwrite_config or not config.exists():
        config.write_text(config_text(course_dir, exchange, course_id, timeout), encoding="utf-8")
    lesson_notebooks(repo, lang)  # an unknown language stops here, before anything is written
    (course_dir / COURSE_SETTINGS).write_text(json.dumps({"lang": lang}) + "\n", encoding="utf-8")
    ids = sync_sources(course_dir, repo, lang)
    if generate:
        for aid in ids:
            generate_assignment(course_dir, aid)
    record(course_dir)
    return course_dir


def exchange_root(course_dir):
    """The Exchange.root written in the course's nbgrader_config.py (default: <course>/exchange)."""
    config = Path(course_dir) / "nbgrader_config.py"
    if config.exists():
        found = re.search(r"^c\.Exchange\.root\s*=\s*['\"]([^'\"]+)['\"]", config.read_text(encoding="utf-8"), re.M)
        if found:
            return found.group(1)
    return str(Path(course_dir).resolve() / "exchange")


def generate_assignment(course_dir, assignment):
    """Student version of one lesson into ``release/`` (and the assignment into the gradebook)."""
    run = nbgrader(course_dir, "generate_assignment", assignment, "--create", "--force")
    record(course_dir)
    return run


def release_assignment(course_dir, assignment):
    """Put the student version into the exchange, where students `nbgrader fetch_assignment` it."""
    run = nbgrader(course_dir, "release_assignment", assignment, "--force")
    record(course_dir)
    return run


def linked_submissions(course_dir, assignment, course_id=COURSE_ID):
    """{student: reason} for submissions of ``assignment`` in the exchange's inbound that are, or hold,
    a symbolic link. nbgrader's collect copies with shutil.copytree, which follows links: a link to
    source/...ipynb would arrive in submitted/ as the instructor's solution."""
    inbound = Path(exchange_root(course_dir)) / course_id / "inbound"
    found, newest = {}, {}
    if not inbound.is_dir():
        return found
    for entry in sorted(inbound.iterdir()):
        parts = entry.name.split("+")
        if len(parts) >= 3 and parts[1] == assignment and (parts[0] not in newest or parts[2] >= newest[parts[0]][0]):
            newest[parts[0]] = (parts[2], entry)   # the one collect takes: the latest time stamp
    for _, entry in newest.values():
        parts = entry.name.split("+")
        links = [entry] if entry.is_symlink() else []
        if not links and entry.is_dir():
            for root, dirs, files in os.walk(entry):  # os.walk does not follow links by default
                links += [Path(root) / name for name in dirs + files if (Path(root) / name).is_symlink()]
        if links:
            found[parts[0]] = (f"its submission in the exchange holds a symbolic link ({links[0].name} -> "
                               f"{os.readlink(links[0])}); collect would have copied what it points at")
    return found


def collect(course_dir, assignment):
    """Move every submission from the exchange into ``submitted/``; a submission that holds a symbolic
    link is collected but marked refused (``.paddlecourse-refused``), and the judge grades none of it."""
    linked = linked_submissions(course_dir, assignment)
    run = nbgrader(course_dir, "collect", assignment, "--update")
    for student, reason in linked.items():
        folder = Path(course_dir) / "submitted" / student / assignment
        if folder.is_dir() and not folder.is_symlink():
            mark = folder / ".paddlecourse-refused"
            if mark.is_symlink():
                mark.unlink()
            mark.write_text(reason + "\n", encoding="utf-8")
    return run


def submit(student_dir, assignment, student, exchange_root, cache=None):
    """Hand in ``<student_dir>/<assignment>/`` as ``student`` - what `nbgrader submit` does.

    Uses nbgrader's own ExchangeSubmit in this process (no start-up cost per
    student), for rehearsing the flow with made-up students; real students run
    `nbgrader submit <assignment> --course paddlecourse` in Jupyter or a shell.
    """
    from nbgrader.auth import Authenticator
    from nbgrader.coursedir import CourseDirectory
    from nbgrader.exchange.default import ExchangeSubmit
    from traitlets.config import Config

    config = Config()
    config.CourseDirectory.root = str(student_dir)
    config.CourseDirectory.course_id = COURSE_ID
    config.CourseDirectory.assignment_id = assignment
    config.CourseDirectory.student_id = student
    config.Exchange.root = str(exchange_root)
    config.Exchange.assignment_dir = str(student_dir)
    if cache:
        config.Exchange.cache = str(cache)
    coursedir = CourseDirectory(config=config)
    ExchangeSubmit(coursedir=coursedir, authenticator=Authenticator(config=config), config=config).start()


def submitted_students(course_dir, assignment):
    folder = Path(course_dir) / "submitted"
    return sorted(p.parent.name for p in folder.glob(f"*/{assignment}") if p.is_dir())

