"""A Deeper exercise left for a second pass: one quiet line, not two red errors.

A learner on the core path runs a Deeper exercise's cells as they came: the answer cell still raises its
placeholder's NotImplementedError, and the check finds no answer. Both stay errors - progress() counts the
exercise as "no answer yet", nbgrader scores it 0, and Run All goes on past them (the cells are tagged
raises-exception) - but setup()'s error display shows them quietly: nothing for the answer cell, and one
plain line from the check (its output's metadata names the exercise, for ``paddlecourse progress``)::

    ○ l05-ex2 is a Deeper exercise, left for a second pass: its answer cell is as it came, so there is nothing to check yet.

Only when the check runs right after its own answer cell, untouched (the text the course shipped, byte for
byte after trailing spaces): an answer the learner wrote that gives None still gets the check's full
sentence with its hint. While nbgrader executes a notebook (autograde, validate, the grading sandbox) nothing
is quiet, so a blank exercise fails there as loudly as before.
"""
from pathlib import Path

from .language import _
from .lesson_context import course_folder, grading_in_progress
from .lesson_index import lesson_paths
from .notebook_cells import HIDDEN, deeper_in, digest, read_cells

ANSWER = "-answer"
SKIPPED = "paddlecourse_skipped"   # a quiet line's output metadata: the exercise it stands for
_SHIPPED = {}   # folders read -> {digest: ("answer" | "check", exercise id)}
_LAST_CELL = {"digest": None}   # the text of the cell that ran last, as a digest


def _folders():
    here = Path.cwd()
    shipped = course_folder("lessons")
    candidates = [here, here / "lessons", here.parent / "lessons"]
    if shipped is not None:
        candidates += [shipped, shipped / "zh"]
    return tuple(sorted({str(folder.resolve()) for folder in candidates if folder.is_dir()}))


def _deeper_cells():
    """{digest of a shipped cell: ("answer" or "check", exercise id)} for every Deeper exercise found."""
    folders = _folders()
    if folders not in _SHIPPED:
        found = {}
        for folder in folders:
            for path in lesson_paths(folder):
                try:
                    cells = read_cells(path)
                except Exception:  # a half-saved or foreign file: the other copies still count
                    continue
                deeper = deeper_in(cells)
                for cell in cells:
                    grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
                    exercise = grade_id[: -len(ANSWER)] if grade_id.endswith(ANSWER) else grade_id
                    if exercise not in deeper:
                        continue
                    kind = "answer" if grade_id.endswith(ANSWER) else "check"
                    found[digest(cell.source)] = (kind, exercise)
                    found.setdefault(digest(cell.source.split(HIDDEN, 1)[0]), (kind, exercise))
        _SHIPPED[folders] = found
    return _SHIPPED[folders]


def remember_last_cell(result):
    """IPython post_run_cell hook: which cell ran last (the check asks whether it was its answer cell)."""
    try:
        source = result.info.raw_cell if result.info is not None else None
        if source and source.strip():
            _LAST_CELL["digest"] = digest(source)
    except Exception:  # bookkeeping must never show up in a learner's cell
        pass


def register(shell):
    callbacks = shell.events.callbacks.get("post_run_cell", [])
    if not any(getattr(cb, "__qualname__", "") == remember_last_cell.__qualname__ and
               getattr(cb, "__module__", "") == remember_last_cell.__module__ for cb in callbacks):
        shell.events.register("post_run_cell", remember_last_cell)


def running_cell(shell):
    """The text of the cell the shell is running now, or None."""
    result = getattr(getattr(shell, "displayhook", None), "exec_result", None)
    info = getattr(result, "info", None)
    return getattr(info, "raw_cell", None)


def untouched_deeper_answer(source):
    """The exercise id when ``source`` is a Deeper exercise's answer cell exactly as shipped, else None."""
    if source is None or grading_in_progress():
        return None
    kind, exercise = _deeper_cells().get(digest(source), (None, None))
    return exercise if kind == "answer" else None


def skipped_deeper_check(source):
    """The exercise id when ``source`` is a Deeper exercise's check and the cell run just before it was that
    exercise's answer cell as shipped; else None."""
    if source is None or grading_in_progress():
        return None
    cells = _deeper_cells()
    kind, exercise = cells.get(digest(source), (None, None))
    if kind != "check":
        return None
    last = cells.get(_LAST_CELL["digest"], (None, None))
    return exercise if last == ("answer", exercise) else None


def skipped_line(exercise):
    # Translators: {exercise} is a grade id such as l05-ex2; keep the leading ○ (progress() uses it too)
    return _("○ {exercise} is a Deeper exercise, left for a second pass: its answer cell is as it came, so there "
             "is nothing to check yet.").format(exercise=exercise)


def show_skipped(exercise):
    """The quiet line, as plain text; its metadata tells a saved notebook's reader (paddlecourse progress) that
    this check found no answer, since the cell then keeps no error output."""
    from IPython.display import display

    display({"text/plain": skipped_line(exercise)}, raw=True, metadata={SKIPPED: exercise})


def skipped_in(outputs):
    """The exercise a saved check cell's outputs say was skipped, or None."""
    for output in outputs:
        if output.get("output_type") == "display_data" and isinstance(output.get("metadata"), dict):
            exercise = output["metadata"].get(SKIPPED)
            if isinstance(exercise, str):
                return exercise
    return None
