"""Instructor helpers: an nbgrader course directory wired to this repository's lessons.

Everything here composes nbgrader's own command line (``python -m nbgrader ...``)
and its preprocessors; nothing of nbgrader is re-implemented. What this module
adds is the wiring and the course's policy:

- ``create_course(dir)`` makes a course directory: ``source/<assignment>/`` filled
  from ``solutions/*.ipynb`` (every lesson, present and future: one assignment per
  solution notebook, ``l00`` for ``00_setup_and_first_run.ipynb``), an
  ``nbgrader_config.py`` with the course's settings, ``Exchange.root`` set
  explicitly, and a gradebook with every assignment in it.
- ``grade_class(dir, assignment)`` autogrades every submission in ONE nbgrader run
  and reports, per student, the score and the seconds it took; a submission that
  nbgrader had to give up on (a kernel that swallows interrupts, a kernel that
  exits) is reported as FAILED with score 0 instead of stalling the class.
- ``HideHiddenTests`` is a feedback preprocessor: generated feedback shows the
  visible checks, never the hidden tests' code, and never a traceback (whose
  context lines would show the hidden code); a failing hidden test says only that
  a hidden test did not pass.

The command line is ``paddlecourse course ...`` (see instructors/README.md).
"""
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor

REPO_ROOT = Path(__file__).resolve().parent.parent
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


def lesson_notebooks(repo=REPO_ROOT):
    """Every solution notebook of the course, in order (new lessons are picked up automatically)."""
    return sorted(p for p in (Path(repo) / "solutions").glob("[0-9]*.ipynb") if not p.name.startswith("."))


def lessons_by_assignment(repo=REPO_ROOT):
    return {assignment_id(p): p for p in lesson_notebooks(repo)}


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

# A deleted test cell is put back from the source and graded, instead of silently
# costing (or hiding) its points. Locked cells a student edited are always restored.
c.OverwriteCells.add_missing_cells = True

# Feedback shows visible checks and their messages, never hidden tests: hidden-test code
# is removed and tracebacks are cut to one line (their context lines would show it).
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "paddlecourse.instructor.HideHiddenTests",
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


def nbgrader(course_dir, *args, check=True, echo=False, timeout=None):
    """Run ``nbgrader <args>`` in the course directory (the real nbgrader command line).

    Each log line is time-stamped as it arrives, so a batch run can be split
    into per-submission times without running nbgrader once per student.
    """
    command = [sys.executable, "-m", "nbgrader", *map(str, args)]
    env = dict(os.environ)
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

def sync_sources(course_dir, repo=REPO_ROOT):
    """Copy every solution notebook to ``source/<assignment>/``; returns the assignment ids.

    Re-run it (``paddlecourse course sync``) after editing solutions/; grade ids
    are stable, so earlier submissions stay gradeable.
    """
    course_dir = Path(course_dir)
    ids = []
    for notebook in lesson_notebooks(repo):
        target = course_dir / "source" / assignment_id(notebook)
        target.mkdir(parents=True, exist_ok=True)
        shutil.copy2(notebook, target / notebook.name)
        ids.append(assignment_id(notebook))
    return ids


def create_course(course_dir, repo=REPO_ROOT, exchange=None, course_id=COURSE_ID, timeout=CELL_TIMEOUT,
                  overwrite_config=False, generate=True):
    """Create (or refresh) an nbgrader course directory for this course; returns its path.

    With ``generate`` (the default) every lesson is also put in the gradebook and
    its student version generated (``nbgrader generate_assignment --create``).
    """
    course_dir = Path(course_dir).resolve()
    exchange = Path(exchange).resolve() if exchange else course_dir / "exchange"
    course_dir.mkdir(parents=True, exist_ok=True)
    exchange.mkdir(parents=True, exist_ok=True)
    config = course_dir / "nbgrader_config.py"
    if overwrite_config or not config.exists():
        config.write_text(config_text(course_dir, exchange, course_id, timeout), encoding="utf-8")
    ids = sync_sources(course_dir, repo)
    if generate:
        for aid in ids:
            generate_assignment(course_dir, aid)
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
    return nbgrader(course_dir, "generate_assignment", assignment, "--create", "--force")


def release_assignment(course_dir, assignment):
    """Put the student version into the exchange, where students `nbgrader fetch_assignment` it."""
    return nbgrader(course_dir, "release_assignment", assignment, "--force")


def collect(course_dir, assignment):
    """Move every submission from the exchange into ``submitted/``."""
    return nbgrader(course_dir, "collect", assignment, "--update")


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


@dataclass
class Grade:
    student: str
    score: float
    max_score: float
    seconds: float
    status: str  # "graded" or "FAILED: <why>"

    @property
    def failed(self):
        return self.status != "graded"


@dataclass
class ClassReport:
    assignment: str
    grades: list
    seconds: float
    run: Run

    def __str__(self):
        width = max([len(g.student) for g in self.grades] + [7])
        lines = [f"{'student':<{width}}  score     time  status"]
        for g in self.grades:
            lines.append(f"{g.student:<{width}}  {g.score:>2g}/{g.max_score:<3g}  {g.seconds:5.1f} s  {g.status}")
        failed = [g.student for g in self.grades if g.failed]
        lines.append(
            f"{len(self.grades)} submissions of {self.assignment} graded in {self.seconds:.1f} s "
            f"({self.seconds / max(len(self.grades), 1):.1f} s each, including nbgrader's start-up)"
        )
        if failed:
            lines.append(
                "FAILED (scored 0, look at them by hand; the log says why): " + ", ".join(failed)
            )
        return "\n".join(lines)


_SANITIZING = re.compile(r"Sanitizing (?P<path>\S+)")
_STUDENT_IN_PATH = re.compile(r"[/\\](?:submitted|autograded)[/\\](?P<student>[^/\\]+)[/\\]")


def _per_student_seconds(run):
    """Split a batch autograde log into seconds per student (from the time-stamped lines)."""
    starts = []
    for when, line in run.line_times:
        found = _SANITIZING.search(line)
        if found:
            student = _STUDENT_IN_PATH.search(found.group("path"))
            if student and (not starts or starts[-1][1] != student.group("student")):
                starts.append((when, student.group("student")))
    seconds = {}
    for i, (when, student) in enumerate(starts):
        end = starts[i + 1][0] if i + 1 < len(starts) else run.seconds
        seconds[student] = seconds.get(student, 0.0) + end - when
    return seconds


def _failure_reason(run, student):
    """The first error line nbgrader logged for this student's submission, if any."""
    block, inside = [], False
    for _, line in run.line_times:
        found = _SANITIZING.search(line)
        if found:
            match = _STUDENT_IN_PATH.search(found.group("path"))
            inside = bool(match and match.group("student") == student)
        if inside and ("ERROR" in line or "Error" in line or "died" in line.lower()):
            block.append(line.split("]", 1)[-1].strip())
    for line in block:
        if "Timeout" in line or "timed out" in line.lower():
            return "a cell did not stop when interrupted (killed after the timeout)"
        if "died" in line.lower() or "DeadKernel" in line:
            return "the kernel died or exited"
    return block[0][:120] if block else "nbgrader could not grade it"


def scores(course_dir, assignment):
    """{student: (score, max_score, autograded?)} from the gradebook, via nbgrader's API."""
    from nbgrader.apps import NbGraderAPI
    from nbgrader.coursedir import CourseDirectory
    from traitlets.config import Config

    course_dir = Path(course_dir).resolve()
    config = Config()
    config.CourseDirectory.root = str(course_dir)
    config.CourseDirectory.db_url = "sqlite:///" + str(course_dir / "gradebook.db")
    config.CourseDirectory.course_id = COURSE_ID
    config.Exchange.root = str(course_dir / "exchange")
    api = NbGraderAPI(CourseDirectory(config=config), config=config)
    result = {}
    for submission in api.get_submissions(assignment):
        if submission.get("student") is None or submission.get("status") == "missing":
            continue
        result[submission["student"]] = (
            float(submission["score"] or 0.0),
            float(submission["max_score"] or 0.0),
            bool(submission["autograded"]),
        )
    return result


def grade_class(course_dir, assignment, echo=False, timeout=None):
    """Autograde every submission of ``assignment`` in one nbgrader run; returns a ClassReport.

    nbgrader grades each submission in its own kernel with the per-cell timeout.
    When it has to give up on one (it logs "Removing failed assignment" and exits 1),
    the others are still graded; that student is reported FAILED with score 0.
    """
    course_dir = Path(course_dir)
    students = submitted_students(course_dir, assignment)
    extra = [f"--Execute.timeout={int(timeout)}"] if timeout else []
    run = nbgrader(course_dir, "autograde", assignment, "--force", *extra, check=False, echo=echo)
    seconds = _per_student_seconds(run)
    found = scores(course_dir, assignment)
    grades = []
    for student in students:
        score, max_score, graded = found.get(student, (0.0, 0.0, False))
        autograded_dir = course_dir / "autograded" / student / assignment
        if graded and autograded_dir.exists():
            status = "graded"
        else:
            score, status = 0.0, "FAILED: " + _failure_reason(run, student)
        if not max_score:
            max_score = max((m for _, m, _ in found.values()), default=0.0)
        grades.append(Grade(student, score, max_score, seconds.get(student, float("nan")), status))
    if not run.ok and not any(g.failed for g in grades):
        raise RuntimeError(f"nbgrader autograde failed:\n{run.log[-4000:]}")
    return ClassReport(assignment, grades, run.seconds, run)


def export_grades(course_dir, to="grades.csv"):
    """Every grade in the gradebook to a CSV file (nbgrader export); returns its path."""
    nbgrader(course_dir, "export", "--to", to)
    return Path(course_dir) / to


def generate_feedback(course_dir, assignment, release=True):
    """HTML feedback per student into ``feedback/`` (hidden tests hidden), and into the exchange."""
    nbgrader(course_dir, "generate_feedback", assignment, "--force")
    if release:
        nbgrader(course_dir, "release_feedback", assignment)
    return sorted((Path(course_dir) / "feedback").glob(f"*/{assignment}/*.html"))


# ---------------------------------------------------------------- feedback without hidden tests

_CELL_LINE = re.compile(r"(?:Cell In\s*\[\d*\]|Input In\s*\[\d*\]|<ipython-input-[^>]*>)\D*?line (\d+)")
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def hidden_line_numbers(source, begin="BEGIN HIDDEN TESTS", end="END HIDDEN TESTS"):
    """1-based line numbers of a cell's hidden-test region (markers included)."""
    hidden, inside = set(), False
    for number, line in enumerate(source.split("\n"), start=1):
        if begin in line:
            inside = True
        if inside:
            hidden.add(number)
        if end in line:
            inside = False
    return hidden


def failing_line(traceback):
    """The line of the cell itself (outermost frame) that raised, from an IPython traceback."""
    for entry in traceback:
        found = _CELL_LINE.search(_ANSI.sub("", entry))
        if found:
            return int(found.group(1))
    return None


class HideHiddenTests(NbGraderPreprocessor):
    """Feedback preprocessor: remove hidden tests from grade cells and cut tracebacks to one line.

    - the hidden-test region of each grade cell is removed (nbgrader's ClearHiddenTests);
    - every error output in a grade cell keeps only ``Name: message`` (an IPython
      traceback prints the lines around the failing one, hidden ones included);
    - when the failing line was in the hidden region (or cannot be told, unless it
      is a check's CheckFailed), the message is replaced too, since an assert's
      text can quote hidden values. Hidden tests are therefore plain asserts,
      never check functions.
    """

    message = "A hidden test did not pass. (Hidden tests are not shown; check your answer against the exercise text.)"

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type != "code" or not cell.get("metadata", {}).get("nbgrader", {}).get("grade"):
            return cell, resources
        hidden = hidden_line_numbers(cell.source)
        if hidden:
            ClearHiddenTests(enforce_metadata=False)._remove_hidden_test_region(cell)
        for output in cell.get("outputs", []):
            if output.get("output_type") != "error":
                continue
            line = failing_line(output.get("traceback", []))
            # setup() prints a failed check as one line, without the cell's line number;
            # checks belong to the visible part (hidden tests are plain asserts).
            visible_check = line is None and output.get("ename") == "CheckFailed"
            if hidden and not visible_check and (line is None or line in hidden):
                output.ename, output.evalue = "HiddenTestFailed", self.message
            output.traceback = [f"{output.ename}: {output.evalue}"]
        return cell, resources


# ---------------------------------------------------------------- measuring the lessons

def time_cells(notebook_path, timeout=600):
    """Run one notebook top to bottom in its own kernel; returns [(index, seconds, cell)] per code cell."""
    import nbformat
    from nbclient import NotebookClient

    notebook = nbformat.read(notebook_path, as_version=4)
    client = NotebookClient(
        notebook, timeout=timeout, record_timing=True, allow_errors=True,
        resources={"metadata": {"path": str(Path(notebook_path).parent)}},
    )
    start = time.monotonic()
    with client.setup_kernel():
        kernel_ready = time.monotonic() - start
        timings = []
        for index, cell in enumerate(notebook.cells):
            if cell.cell_type != "code":
                continue
            t0 = time.monotonic()
            client.execute_cell(cell, index)
            timings.append((index, time.monotonic() - t0, cell))
    return kernel_ready, timings


def timing_report(paths=None, repo=REPO_ROOT):
    """Per lesson: kernel start, the slowest cells, total; and the timeout they call for."""
    rows = []
    slowest = 0.0
    for path in paths or lesson_notebooks(repo):
        try:
            kernel, timings = time_cells(path)
        except Exception as error:
            rows.append((Path(path).name, float("nan"), float("nan"), [], float("nan")))
            print(f"{Path(path).name}: could not be run ({type(error).__name__}: {error})", file=sys.stderr)
            continue
        top = sorted(timings, key=lambda t: -t[1])[:3]
        total = kernel + sum(t for _, t, _ in timings)
        slowest = max([slowest] + [t for _, t, _ in timings])
        graded = [t for _, t, c in timings if c.metadata.get("nbgrader", {}).get("grade")]
        rows.append((Path(path).name, kernel, total, top, max(graded, default=0.0)))
    lines = []
    for name, kernel, total, top, graded in rows:
        cells = ", ".join(f"cell {i}: {t:.1f} s" for i, t, _ in top)
        lines.append(f"{name}: kernel {kernel:.1f} s, run {total:.1f} s, slowest graded cell {graded:.1f} s; slowest {cells}")
    lines.append(f"slowest cell of all: {slowest:.1f} s -> per-cell timeout now {CELL_TIMEOUT} s "
                 f"(keep it at about twice the slowest cell on a busy machine)")
    return "\n".join(lines), rows


# ---------------------------------------------------------------- schedule and notes for presenters

_TIME = re.compile(r"\*\*Time:\*\*\s*about\s+(\d+)\s+minutes\D+?(\d+)\s+reading and running\D+?(\d+)\s+on the", re.S)
WORDS_PER_MINUTE = 150  # reading a technical text aloud or alone, with code to look at


@dataclass
class LessonProfile:
    """What a presenter needs to plan one lesson, read from the notebook and measured by running it."""

    path: Path
    title: str
    planned: tuple  # (total, teaching, exercises) minutes, as the lesson states them; None if it does not
    words: int
    code_cells: int
    exercises: list  # [(grade_id, points, heading)]
    sections: list  # [(heading, is_exercise, pause_hint)]
    mistakes: str
    key_points: str
    run_seconds: float = float("nan")
    teaching_seconds: float = float("nan")
    exercise_seconds: float = float("nan")
    slowest: tuple = (None, float("nan"))  # (cell index, seconds)

    @property
    def reading_minutes(self):
        return self.words / WORDS_PER_MINUTE


def _section(markdown, name):
    match = re.search(rf"^##+\s*{name}\s*$(.*?)(?=^##?\s|\Z)", markdown, re.M | re.S | re.I)
    return match.group(1).strip() if match else ""


def lesson_profile(path, measure=True):
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    markdown = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "markdown")
    title = next((line.lstrip("# ").strip() for line in markdown.splitlines() if line.startswith("# ")), Path(path).stem)
    found = _TIME.search(markdown)
    planned = tuple(int(g) for g in found.groups()) if found else None
    exercises, sections, heading = [], [], None
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("## ") or line.startswith("### "):
                    heading = line.lstrip("#").strip()
                    lowered = heading.lower()
                    is_exercise = lowered.startswith("exercise")
                    hint = ""
                    if is_exercise:
                        hint = "pause: learners work"
                    elif "predict" in cell.source.lower():
                        hint = "pause: ask the room to predict"
                    sections.append((heading, is_exercise, hint))
        grader = cell.get("metadata", {}).get("nbgrader", {})
        if grader.get("grade") and not grader.get("solution"):
            exercises.append((grader.get("grade_id"), grader.get("points", 0), heading))
    profile = LessonProfile(
        path=Path(path), title=title, planned=planned, words=len(markdown.split()),
        code_cells=sum(c.cell_type == "code" for c in notebook.cells), exercises=exercises, sections=sections,
        mistakes=_section(markdown, "Common mistakes"), key_points=_section(markdown, "Key points"),
    )
    if measure:
        try:
            kernel, timings = time_cells(path)
        except Exception as error:  # a lesson being edited may not run; plan with what the others say
            profile.mistakes = profile.mistakes + f"\n\n(Could not be timed: {type(error).__name__}: {error})"
            return profile
        profile.run_seconds = kernel + sum(t for _, t, _ in timings)
        graded = [t for _, t, c in timings if c.metadata.get("nbgrader")]
        profile.exercise_seconds = sum(graded)
        profile.teaching_seconds = profile.run_seconds - profile.exercise_seconds
        index, seconds, _ = max(timings, key=lambda t: t[1])
        profile.slowest = (index, seconds)
    return profile


def schedule_markdown(profiles):
    """The schedule table: planned minutes per lesson next to what was measured by running it."""
    lines = [
        "| lesson | planned: teaching + exercises | reading (words / 150 per min) | exercises (points) "
        "| run time, all cells | slowest cell |",
        "|---|---|---|---|---|---|",
    ]
    total = [0, 0]
    for p in profiles:
        planned = f"{p.planned[1]} + {p.planned[2]} = {p.planned[0]} min" if p.planned else "not stated"
        if p.planned:
            total[0] += p.planned[1]
            total[1] += p.planned[2]
        points = sum(pts for _, pts, _ in p.exercises)
        lines.append(
            f"| {p.path.stem} | {planned} | {p.reading_minutes:.0f} min ({p.words} words) | "
            f"{len(p.exercises)} ({points}) | {p.run_seconds:.0f} s | {p.slowest[1]:.1f} s (cell {p.slowest[0]}) |"
        )
    lines.append(f"| **all** | **{total[0]} + {total[1]} = {sum(total)} min** | | | "
                 f"{sum(p.run_seconds for p in profiles):.0f} s | |")
    return "\n".join(lines)


def notes_markdown(profile):
    """Presenter notes for one lesson, generated from the lesson itself (so they never drift)."""
    p = profile
    aid = assignment_id(p.path)
    planned = (f"{p.planned[0]} min: {p.planned[1]} teaching, {p.planned[2]} exercises" if p.planned
               else "not stated in the lesson")
    out = [
        f"# {p.title}",
        "",
        f"<!-- generated by `paddlecourse course notes` from solutions/{p.path.name}; "
        "edit the lesson, not this file, then regenerate -->",
        "",
        f"- Notebook: `lessons/{p.path.name}` (answers: `solutions/{p.path.name}`); nbgrader assignment `{aid}`.",
        f"- Planned time: {planned}. Reading load: about {p.reading_minutes:.0f} min of text ({p.words} words), "
        f"{p.code_cells} code cells.",
        f"- Runs top to bottom in {p.run_seconds:.0f} s on a shared 2-core machine; slowest cell "
        f"{p.slowest[1]:.1f} s (cell {p.slowest[0]}). Run it once before the session so the first import is warm.",
        "",
        "## Flow and where to pause",
        "",
    ]
    for heading, is_exercise, hint in p.sections:
        if heading.lower() in {"common mistakes", "key points", "what comes next"}:
            continue
        out.append(f"- {'**' + heading + '**' if is_exercise else heading}{' — ' + hint if hint else ''}")
    out += ["", "## Exercises and catch-up", "",
            "| exercise | points | where | catch-up line for a learner who is stuck |", "|---|---|---|---|"]
    for grade_id, points, heading in p.exercises:
        out.append(f"| `{grade_id}` | {points} | {heading} | `from paddlecourse.catchup import catchup; catchup(\"{grade_id}\")` |")
    out += ["", "## Common learner mistakes (from the lesson)", "", p.mistakes or "_The lesson has no such section._",
            "", "## Key points to land", "", p.key_points or "_The lesson has no such section._", ""]
    return "\n".join(out)


def write_presenter_notes(out_dir, paths=None, repo=REPO_ROOT, measure=True):
    """instructors/notes/<lesson>.md for every lesson, and the schedule table; returns the profiles."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    profiles = [lesson_profile(p, measure=measure) for p in (paths or lesson_notebooks(repo))]
    for profile in profiles:
        (out_dir / f"{profile.path.stem}.md").write_text(notes_markdown(profile), encoding="utf-8")
    return profiles
