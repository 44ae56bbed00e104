"""Grading a class: every submission judged, N at a time, then recorded by nbgrader in one process.

Judging (two or three sandboxed runs per submission, judge.py) is the slow part and runs ``jobs`` at a
time in worker threads, each waiting on its own sandbox. Nothing is written to the gradebook
while they run: the judgements go to a private temporary folder, and then ONE
``nbgrader autograde`` process records them all, one after another, so the gradebook (SQLite)
never sees two writers (jupyter/nbgrader#174).
"""
import os
import re
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from . import sandbox
from .course import COURSE_ID, Run, nbgrader, submitted_students
from .integrity import record, verify
from .judge import Judgement, judge_notebook
from .judge_runs import JudgeRuns


@dataclass
class Grade:
    student: str
    score: float
    max_score: float
    seconds: float
    status: str  # "graded", "needs a look: <why>" or "FAILED: <why>"
    notes: list = field(default_factory=list)

    @property
    def failed(self):
        return self.status.startswith("FAILED")

    @property
    def needs_look(self):
        return self.status != "graded"


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text):
    """``text`` with control characters shown as ``\\xNN``: a status or note quotes the submission, and
    terminal escape bytes in it could move the cursor and rewrite other lines of the instructor's table."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


@dataclass
class ClassReport:
    assignment: str
    grades: list
    seconds: float
    run: Run
    jobs: int = 1
    sandboxed: bool = True
    judge_runs_shared: int = 0   # submissions whose judge's run was another's with the same answers

    def __str__(self):
        width = max([len(g.student) for g in self.grades] + [7])
        lines = [f"{'student':<{width}}  score     time  status"]
        for g in self.grades:
            lines.append(f"{g.student:<{width}}  {g.score:>2g}/{g.max_score:<3g}  {g.seconds:5.1f} s  {printable(g.status)}")
            lines += [f"{'':<{width}}    note: {printable(note)}" for note in g.notes]
        lines.append(
            f"{len(self.grades)} submissions of {self.assignment} graded in {self.seconds:.1f} s with {self.jobs} "
            f"at a time ({self.seconds / max(len(self.grades), 1):.1f} s each, including nbgrader's start-up); "
            + ("every submission ran in the sandbox" if self.sandboxed
               else "WITHOUT the sandbox (--no-sandbox): " + sandbox.RISK)
            + (f"; {self.judge_runs_shared} gave the same answers as an earlier one and shared its judge's run"
               if self.judge_runs_shared else "")
        )
        look = [g.student for g in self.grades if g.needs_look]
        if look:
            lines.append("Look at these by hand (the status says why): " + ", ".join(look))
        return "\n".join(lines)


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


def default_jobs():
    return max(os.cpu_count() or 1, 1)


def judge_student(course_dir, assignment, student, limits=None, use_sandbox=True, judge_runs=None):
    """Every notebook of one student's submission, judged: [Judgement]."""
    course_dir = Path(course_dir)
    judgements = []
    for source in sorted((course_dir / "source" / assignment).glob("*.ipynb")):
        submitted = course_dir / "submitted" / student / assignment / source.name
        try:
            judgements.append(judge_notebook(submitted, source, limits=limits, use_sandbox=use_sandbox,
                                              judge_runs=judge_runs))
        except Exception as error:  # noqa: BLE001 - one submission must never stop the class's grading
            reason = f"grading this notebook failed ({type(error).__name__}: {str(error)[:200]})"
            judgements.append(Judgement(notebook=source.name, unreadable=reason, needs_look=[reason]))
    return judgements


def grade_class(course_dir, assignment, echo=False, timeout=None, jobs=None, sandboxed=True, limits=None):
    """Judge every submission of ``assignment`` (``jobs`` at a time, sandboxed), record the scores
    with one ``nbgrader autograde`` run; returns a ClassReport."""
    if sandboxed and not sandbox.available():
        raise sandbox.SandboxMissing(
            "bubblewrap (bwrap) is not installed or cannot create namespaces here, so submissions cannot be "
            "sandboxed. Install it (apt-get install bubblewrap) or, knowing the risk, pass --no-sandbox. " + sandbox.RISK)
    course_dir = Path(course_dir).resolve()
    verify(course_dir)  # before any of nbgrader runs (it executes nbgrader_config.py)
    limits = limits or sandbox.Limits()
    if timeout:
        limits.cell_seconds = int(timeout)
    jobs = max(int(jobs or default_jobs()), 1)
    students = submitted_students(course_dir, assignment)
    start = time.monotonic()
    private = Path(tempfile.mkdtemp(prefix="paddlecourse-judgements-"))
    try:
        judge_runs = JudgeRuns()   # students who answered alike share one judge's run
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            judged = dict(zip(students, pool.map(
                lambda s: judge_student(course_dir, assignment, s, limits, sandboxed, judge_runs), students)))
        for student, judgements in judged.items():
            (private / student).mkdir()
            for judgement in judgements:
                name = Path(judgement.notebook).stem
                (private / student / f"{name}.json").write_text(judgement.to_json(), encoding="utf-8")
        run = nbgrader(course_dir, "autograde", assignment, "--force", check=False, echo=echo,
                       env={"PADDLECOURSE_JUDGEMENTS": str(private),
                            "PADDLECOURSE_SANDBOX": "on" if sandboxed else "off"})
    finally:
        shutil.rmtree(private, ignore_errors=True)
    found = scores(course_dir, assignment)
    record(course_dir)  # autograding sets auto scores only; manual scores stay as recorded
    grades = []
    for student in students:
        judgements = judged[student]
        score, max_score, graded = found.get(student, (0.0, 0.0, False))
        notes = [note for j in judgements for note in j.notes]
        look = [reason for j in judgements for reason in j.needs_look]
        autograded_dir = course_dir / "autograded" / student / assignment
        if not (graded and autograded_dir.exists()):
            score = 0.0
            status = "FAILED: " + ("; ".join(look) or "nbgrader could not record it (see the log)")
        elif look:
            status = "needs a look: " + "; ".join(look)
        else:
            status = "graded"
        if not max_score:
            max_score = max((m for _, m, _ in found.values()), default=0.0)
        grades.append(Grade(student, score, max_score, sum(j.seconds for j in judgements), status, notes))
    if not run.ok and not any(g.failed for g in grades):
        raise RuntimeError(f"nbgrader autograde failed:\n{run.log[-4000:]}")
    return ClassReport(assignment, grades, time.monotonic() - start, run, jobs, sandboxed, judge_runs.reused)
