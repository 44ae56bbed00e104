"""Progress: which of a lesson's exercises have passed, failed, or not been run yet.

In a lesson's last cell::

    from paddlecourse import progress
    progress("l02")

The kernel remembers every cell it runs (a digest of the cell's text and
whether it raised; setup() and the course kernel register the hook). progress()
reads the lesson's test cells from the shipped notebooks - the lesson next to
the learner's notebook, or the course's solutions/ - and looks each one up, so
no check cell has to report anything itself.

From a shell, for a saved notebook (its stored outputs are read instead)::

    paddlecourse progress lessons/02_autograd_by_hand.ipynb
"""
import difflib
import os
import re
from pathlib import Path

from .language import _, N_, ngettext
from .lesson_context import grading_in_progress, solution_dirs
from .lesson_index import lesson_paths
from .notebook_cells import HIDDEN, deeper_in, digest, read_cells
from .skipping import skipped_in

PASSED, FAILED, NO_ANSWER, NOT_RUN = "passed", "failed", "no answer yet", "not run"
MARKS = {PASSED: "✓", FAILED: "✗", NO_ANSWER: "○", NOT_RUN: "·"}
# Translators: an exercise's state in progress()'s table
STATE_TEXT = {PASSED: N_("passed"), FAILED: N_("failed"), NO_ANSWER: N_("no answer yet"), NOT_RUN: N_("not run")}

# digest of a cell's text -> (True if it ran without error, the error's type name or NO_ANSWER: a check that
# only found the answer cell's placeholder, as Run All over a skipped exercise leaves it)
_RUNS = {}


class ProgressError(LookupError):
    """The lesson could not be found; the message says what to type instead."""


# ---------------------------------------------------------------- remembering what ran

def record_run(result):
    """IPython post_run_cell hook: remember whether this cell's text ran without error."""
    try:
        source = result.info.raw_cell if result.info is not None else None
        if source is None or not source.strip():
            return
        error = result.error_before_exec or result.error_in_exec
        ename = NO_ANSWER if getattr(error, "no_answer", False) else type(error).__name__ if error is not None else ""
        _RUNS[digest(source)] = (error is None, ename)
    except Exception:  # a bookkeeping hook must never show up in a learner's cell
        pass


def register(shell):
    """Register the hook once per shell (setup() and the kernel extension both call this)."""
    if shell is None:
        return
    callbacks = shell.events.callbacks.get("post_run_cell", [])
    if not any(getattr(cb, "__qualname__", "") == record_run.__qualname__ and
               getattr(cb, "__module__", "") == record_run.__module__ for cb in callbacks):
        shell.events.register("post_run_cell", record_run)


def _ipython():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


# ---------------------------------------------------------------- finding the lesson's test cells

_LESSON = re.compile(r"^\s*(?:l|lesson)?\s*0*(\d{1,2})\s*$", re.I)


def lesson_number(lesson_id):
    """'l02', 'L2', '02', 2 -> '02'; anything else raises ProgressError."""
    match = _LESSON.match(str(lesson_id))
    if not match:
        raise ProgressError(_("{lesson} is not a lesson id: use the one in the lesson's title, like 'l02'.").format(
            lesson=repr(str(lesson_id))))
    return f"{int(match.group(1)):02d}"


def _lesson_dirs():
    here = Path.cwd()
    candidates = [here, here / "lessons", here.parent / "lessons", *solution_dirs()]
    seen, found = set(), []
    for folder in candidates:
        if folder.is_dir() and folder.resolve() not in seen:
            seen.add(folder.resolve())
            found.append(folder)
    return found


def graded_cells(number):
    """[(grade_id, points, {digests of every shipped form of the cell})] for lesson ``number``, in order."""
    cells = {}
    for folder in _lesson_dirs():
        for path in sorted(folder.glob(f"{number}_*.ipynb")):
            try:
                notebook_cells = read_cells(path)
            except Exception:  # a half-saved or foreign file: the other copies still count
                continue
            for cell in notebook_cells:
                grader = cell.get("metadata", {}).get("nbgrader", {})
                if not grader.get("grade") or grader.get("solution") or "grade_id" not in grader:
                    continue
                entry = cells.setdefault(grader["grade_id"], [grader.get("points", 0), set()])
                source = cell.source
                entry[1].update({digest(source), digest(source.split(HIDDEN, 1)[0])})
    return [(grade_id, points, digests) for grade_id, (points, digests) in cells.items()]


def deeper_exercises(number):
    """deeper_in() over every copy of lesson ``number`` found here."""
    found = set()
    for folder in _lesson_dirs():
        for path in sorted(folder.glob(f"{number}_*.ipynb")):
            try:
                found |= deeper_in(read_cells(path))
            except Exception:
                continue
    return found


def current_lesson():
    """The lesson ("02") whose cells ran last in this kernel, or None: a short id like `ex2` means this one."""
    owners = {}
    for folder in _lesson_dirs():
        for path in lesson_paths(folder):
            try:
                cells = read_cells(path)
            except Exception:
                continue
            for cell in cells:
                if cell.cell_type == "code" and cell.source.strip():
                    owners.setdefault(digest(cell.source), set()).add(path.name[:2])
    # a cell every lesson shares (the set-up cell) says nothing about which lesson this is
    owner = {d: lessons.pop() for d, lessons in owners.items() if len(lessons) == 1}
    return next((owner[d] for d in reversed(list(_RUNS)) if d in owner), None)


def known_lessons():
    numbers = set()
    for folder in _lesson_dirs():
        numbers.update(p.name[:2] for p in lesson_paths(folder))
    return sorted(numbers)


# ---------------------------------------------------------------- the report

def lesson_progress(lesson_id):
    """[(grade_id, points, state, error type)] for the lesson's exercises, as run in this kernel."""
    number = lesson_number(lesson_id)
    cells = graded_cells(number)
    if not cells:
        known = known_lessons()
        nearest = difflib.get_close_matches(number, known, n=2)
        # Translators: the sentences after "There is no lesson l09 here.", each with its leading space
        hint = (_(" The lessons here are: {lessons}.").format(lessons=_(", ").join("l" + n for n in known)) if known
                else _(" No lesson notebooks were found: open this notebook from the course's lessons/ folder."))
        if nearest and nearest[0] != number:
            hint = _(" Did you mean {lessons}?").format(
                lessons=_(" or ").join(repr("l" + n) for n in nearest)) + hint
        raise ProgressError(_("There is no lesson {lesson} here.{hint}").format(lesson=f"l{number}", hint=hint))
    rows = []
    for grade_id, points, digests in cells:
        runs = [_RUNS[d] for d in digests if d in _RUNS]
        if not runs:
            rows.append((grade_id, points, NOT_RUN, ""))
        elif any(ok for ok, _ in runs):
            rows.append((grade_id, points, PASSED, ""))
        elif all(ename == NO_ANSWER for _ok, ename in runs):
            rows.append((grade_id, points, NO_ANSWER, ""))
        else:
            rows.append((grade_id, points, FAILED, runs[0][1]))
    return rows


KERNEL_NOT_RUN = N_("· not run: run the exercise's test cell (a kernel restart forgets earlier runs).")
SAVED_NOT_RUN = N_("· not run: the test cell has no output in the saved notebook.")
IN_THIS_KERNEL = N_("in this kernel")


def _tally(rows):
    passed = [r for r in rows if r[2] == PASSED]
    return len(passed), len(rows), sum(r[1] for r in passed), sum(r[1] for r in rows)


def format_table(title, rows, where=IN_THIS_KERNEL, not_run=KERNEL_NOT_RUN, deeper=frozenset()):
    """The text table progress() prints: one line per exercise, the core path and the deeper part apart when the
    lesson has both (``deeper``: their grade ids), then what to do next."""
    passed, exercises, got, total = _tally(rows)
    # Translators: {where} is "in this kernel" or "when it was last saved"
    lines = [_("{title}: {passed} of {exercises} exercises passed {where} ({got} of {total} points).").format(
        title=title, passed=passed, exercises=exercises, where=_(where), got=got, total=total)]
    core_rows = [r for r in rows if r[0] not in deeper]
    if deeper and core_rows and len(core_rows) < len(rows):
        core, extra = _tally(core_rows), _tally([r for r in rows if r[0] in deeper])
        lines.append(_("  Core path: {passed} of {exercises} passed ({got} of {total} points); deeper: {dpassed} of "
                       "{dexercises} ({dgot} of {dtotal} points).").format(
            passed=core[0], exercises=core[1], got=core[2], total=core[3],
            dpassed=extra[0], dexercises=extra[1], dgot=extra[2], dtotal=extra[3]))
    width = max(len(r[0]) for r in rows)
    units = {points: ngettext("point", "points", points) for _id, points, _state, _type in rows}
    unit_width = max(6, *(len(u) for u in units.values()))
    for grade_id, points, state, _type in rows:
        lines.append(f"  {MARKS[state]} {grade_id:<{width}}  {points:>2} {units[points]:<{unit_width}}  "
                     f"{_(STATE_TEXT[state])}" + (_(" (deeper)") if grade_id in deeper else ""))
    core_todo = [r[0] for r in rows if r[2] != PASSED and r[0] not in deeper]
    deeper_todo = [r[0] for r in rows if r[2] != PASSED and r[0] in deeper]
    if core_todo:
        lines.append(_("Stuck on one? `%catchup {exercise}` puts its solution in a new cell below.").format(
            exercise=core_todo[0]))
    elif deeper_todo:   # the core path is done: the rest is optional, and said to be
        lines.append(_("The core path is done. The deeper exercises are optional; stuck on one, `%catchup {exercise}` "
                       "puts its solution in a new cell below.").format(exercise=deeper_todo[0]))
    if (core_todo or deeper_todo) and any(r[2] == NOT_RUN for r in rows):
        lines.append(_(not_run))
    return "\n".join(lines)


def _open_lesson():
    """The lesson id of the notebook this kernel runs ('l04'), from the path Jupyter gives its kernel; else None."""
    shell = _ipython()
    session = str((shell.user_ns.get("__session__") if shell is not None else None) or "")
    match = re.search(r"(?:^|/)(\d\d)_[^/]*\.ipynb$", session)
    return f"l{match.group(1)}" if match else None


def progress(lesson_id=None):
    """Print which of the lesson's exercises passed, failed or were not run yet in this kernel
    (``lesson_id`` like 'l04'; without it, the lesson of the open notebook)."""
    if grading_in_progress():  # nobody reads it there, and reading the notebooks took 8 s on a busy grader
        print(_("(progress is not shown while nbgrader grades this notebook)"))
        return None
    lesson_id = lesson_id if lesson_id is not None else _open_lesson()
    if lesson_id is None:
        print(_("Which lesson? Give its id, as in the lesson's title: progress('l02')."))
        return None
    try:
        rows = lesson_progress(lesson_id)
    except ProgressError as error:
        print(error)
        return None
    if _ipython() is None:
        where = N_("in this Python session (only IPython/Jupyter records cells)")
    else:
        where = IN_THIS_KERNEL
    number = lesson_number(lesson_id)
    print(format_table(_("Lesson {lesson}").format(lesson=f"l{number}"), rows, where, deeper=deeper_exercises(number)))
    return None


# ---------------------------------------------------------------- a saved notebook

def notebook_progress(path):
    """Rows as in lesson_progress(), read from a saved notebook's stored outputs.

    An exercise whose answer cell still raised the stub's NotImplementedError is "no answer yet", as in the
    kernel's own progress(): a Deeper exercise skipped on purpose is not a failure."""
    path = Path(path)
    if not path.is_file():
        raise ProgressError(_("{path} is not a file: give the path of a saved lesson notebook (.ipynb).").format(
            path=path))
    try:
        cells = read_cells(path)   # not nbformat: its import alone took seconds on a busy machine
    except Exception:
        raise ProgressError(_("{file} could not be read as a Jupyter notebook.").format(file=path.name)) from None
    unanswered = set()
    for cell in cells:
        grader = cell.get("metadata", {}).get("nbgrader", {})
        if grader.get("solution") and any(o.get("output_type") == "error" and o.get("ename") == "NotImplementedError"
                                          for o in cell.get("outputs", [])):
            unanswered.add(str(grader.get("grade_id", "")).removesuffix("-answer"))
    rows = []
    for cell in cells:
        grader = cell.get("metadata", {}).get("nbgrader", {})
        if not grader.get("grade") or grader.get("solution") or "grade_id" not in grader:
            continue
        errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
        if skipped_in(cell.get("outputs", [])) == grader["grade_id"]:   # a Deeper exercise's quiet line
            state, ename = NO_ANSWER, NO_ANSWER
        elif errors and grader["grade_id"] in unanswered:
            state, ename = NO_ANSWER, NO_ANSWER
        elif errors:
            state, ename = FAILED, errors[-1].get("ename", "")
        elif cell.get("execution_count") is not None or cell.get("outputs"):
            # ran without an error (a tool that clears execution counts keeps the outputs)
            state, ename = PASSED, ""
        else:
            state, ename = NOT_RUN, ""
        rows.append((grader["grade_id"], grader.get("points", 0), state, ename))
    if not rows:
        raise ProgressError(_("{file} has no graded exercises (is it a lesson notebook?).").format(file=path.name))
    return rows


def notebook_deeper(path):
    """deeper_in() of a saved notebook (empty when it cannot be read)."""
    try:
        return deeper_in(read_cells(path))
    except Exception:
        return set()


def print_notebook_progress(*paths):
    """The CLI: print the table of each saved notebook, a blank line between; returns 0, or 1 when one could not
    be read (the others are still shown)."""
    status = 0
    for number, path in enumerate(paths):
        if number:
            print()
        try:
            rows = notebook_progress(path)
        except ProgressError as error:
            print(error)
            status = 1
            continue
        print(format_table(os.path.basename(str(path)), rows, where=N_("when it was last saved"),
                           not_run=SAVED_NOT_RUN, deeper=notebook_deeper(path)))
    return status
