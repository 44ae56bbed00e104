"""Catch-up: a learner who fell behind loads the solution of ONE exercise, in one line.

    paddlecourse.catchup("l00-ex1")      # or, after `%load_ext paddlecourse.catchup`:  %catchup l00-ex1

The solution appears as a NEW cell right below the current one (the learner
runs it, or reads it first); no other cell is touched. ``run=True`` also runs it
at once, so the learner can go straight on. Outside Jupyter the code is printed.

It is switched off, and says so, when
- nbgrader is executing the notebook (autograding or validating: NBGRADER_EXECUTION), or
- the instructor turned it off: environment variable ``PADDLECOURSE_CATCHUP=off``
  (set it in the JupyterHub spawner or before starting Jupyter).

The solutions come from the course's ``solutions/`` folder (found next to the
lessons, in the repository, or at ``PADDLECOURSE_SOLUTIONS``).
"""
import difflib
import os
import re

from .language import _
from .lesson_context import grading_in_progress, solution_dirs
from .lesson_index import lesson_paths
from .notebook_cells import read_cells
from .settings import setting

OFF_VALUES = {"off", "0", "false", "no", "disabled"}
_EXERCISE = re.compile(r"^l(?P<lesson>\d+)-ex(?P<number>\d+)(?:-answer)?$")


class CatchUpError(LookupError):
    """The exercise or its solution could not be found; the message says why."""

    def _render_traceback_(self):
        # IPython shows this instead of a traceback: the sentence is all a learner needs.
        return [f"CatchUpError: {self}"]


def disabled_reason():
    """Why catch-up is off right now, as a sentence; None when it is on."""
    if grading_in_progress():
        return _("Catch-up is disabled while nbgrader runs this notebook "
                 "(NBGRADER_EXECUTION={value}): graded work must be your own.").format(
            value=os.environ["NBGRADER_EXECUTION"])
    if setting("PADDLECOURSE_CATCHUP").strip().lower() in OFF_VALUES:
        return _("Catch-up is disabled by your instructor (PADDLECOURSE_CATCHUP=off). Ask them for help instead.")
    return None


_LOOSE = re.compile(r"^\s*l?(?:esson)?\s*0*(?P<lesson>\d{1,2})\D*?(?:ex(?:ercise)?)?\D*0*(?P<number>\d{1,2})\s*$", re.I)


def parse_exercise(exercise):
    """'l00-ex1' (or 'l00-ex1-answer') -> ('00', 'l00-ex1'); anything else raises CatchUpError."""
    match = _EXERCISE.match(str(exercise).strip().lower())
    if not match or len(match.group("lesson")) != 2:
        # Translators: {suggestion} is empty or " Did you mean l03-ex3?", with its leading space
        raise CatchUpError(_("{exercise} is not an exercise id.{suggestion} "
                             "Exercise ids look like l02-ex3 (lesson 02, exercise 3); `progress(\"l02\")` at the end "
                             "of a lesson lists them.").format(exercise=repr(str(exercise)),
                                                               suggestion=_suggestion(exercise)))
    return match.group("lesson"), f"l{match.group('lesson')}-ex{match.group('number')}"


def known_exercises():
    """Every exercise id the solutions found here define, in lesson order."""
    found = []
    for folder in solution_dirs():
        for path in lesson_paths(folder):
            try:
                cells = read_cells(path)
            except Exception:
                continue
            for cell in cells:
                grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id", "")
                if grade_id.endswith("-answer") and grade_id[: -len("-answer")] not in found:
                    found.append(grade_id[: -len("-answer")])
    return found


_SHORT = re.compile(r"^\s*ex(?:ercise)?\s*0*(?P<number>\d{1,2})\s*$", re.I)
_LESSON_ONLY = re.compile(r"^\s*l?(?:esson)?\s*0*(?P<lesson>\d{1,2})\s*$", re.I)


def _suggestion(exercise):
    """' Did you mean l03-ex3?' for a typo, from the ids that exist; '' when nothing is close."""
    try:
        known = known_exercises()
    except Exception:
        return ""
    text = str(exercise).strip().lower()
    loose = _LOOSE.match(text) or _LESSON_ONLY.match(text)
    picks = []
    short = _SHORT.match(text)
    if short:  # "ex2": exercise 2 of the lesson this kernel has been running
        try:
            from .progress import current_lesson

            lesson = current_lesson()
        except Exception:
            lesson = None
        guess = f"l{lesson}-ex{int(short.group('number'))}" if lesson else None
        picks = [guess] if guess in known else []
    if loose and not picks:  # l3-ex3, l03ex3, l03-ex9, l03: the digits say which lesson (and exercise) was meant
        lesson = f"l{int(loose.group('lesson')):02d}-ex"
        number = loose.groupdict().get("number")
        guess = f"{lesson}{int(number)}" if number else None
        picks = [guess] if guess in known else [k for k in known if k.startswith(lesson)]
    if not picks:
        picks = difflib.get_close_matches(text, known, n=3, cutoff=0.6)
    if not picks:
        return ""
    if len(picks) == 1:
        listed = picks[0]
    else:
        # Translators: a list of exercise ids to choose from: "l03-ex1, l03-ex2 or l03-ex3"
        listed = _("{ids} or {last}").format(ids=_(", ").join(picks[:-1]), last=picks[-1])
    # Translators: put after another sentence, with its leading space
    return _(" Did you mean {ids}?").format(ids=listed)


def solution_code(exercise):
    """The solution code of one exercise, from its lesson's solution notebook."""
    lesson, grade_id = parse_exercise(exercise)
    folders = solution_dirs()
    if not folders:
        raise CatchUpError(_(
            "The course's solutions/ folder was not found. Open the lesson from the course folder, "
            "or set PADDLECOURSE_SOLUTIONS to the folder that holds the solution notebooks."
        ))
    for folder in folders:
        for path in sorted(folder.glob(f"{lesson}_*.ipynb")):
            for cell in read_cells(path):
                grader = cell.get("metadata", {}).get("nbgrader", {})
                if grader.get("solution") and grader.get("grade_id") in (f"{grade_id}-answer", grade_id):
                    return _strip_markers(cell.source)
    # No folder names here: a learner needs the right id, not the server's paths.
    raise CatchUpError(_("There is no exercise {exercise} in lesson {lesson}.{suggestion}").format(
        exercise=grade_id, lesson=lesson, suggestion=_suggestion(exercise)))


def _strip_markers(source):
    kept = [line for line in source.split("\n") if not re.match(r"\s*###?\s*(BEGIN|END) SOLUTION", line)]
    return "\n".join(kept).strip("\n")


def catchup(exercise, run=False):
    """Put the solution of ``exercise`` (e.g. "l00-ex1") in a new cell below this one.

    With ``run=True`` the solution is also run right away in your kernel.
    Outside IPython the code is printed and returned. When catch-up is disabled
    the reason is printed and nothing else happens.
    """
    reason = disabled_reason()
    if reason:
        print(reason)
        return None
    _lesson, grade_id = parse_exercise(exercise)
    code = solution_code(grade_id)
    # Translators: the first line of the new cell, a Python comment: keep the "# " at its start
    cell = _("# Catch-up: the solution of {exercise}, loaded by paddlecourse.catchup").format(exercise=grade_id)
    cell += "\n" + code
    shell = _ipython()
    if shell is None:
        print(cell)
        return code
    shell.set_next_input(cell, replace=False)
    if run:
        shell.run_cell(cell, store_history=False)
        print(_("Ran the solution of {exercise}; it is also in the new cell below. Your other cells are "
                "unchanged.").format(exercise=grade_id))
    else:
        print(_("The solution of {exercise} is in a new cell below this one: read it, then run it. "
                "Your other cells are unchanged.").format(exercise=grade_id))
    return None


def _ipython():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def catchup_magic(line):
    """%catchup l00-ex1 [--run]"""
    words = line.split()
    if not words:
        print(_("Usage: %catchup l00-ex1 [--run]"))
        return None
    try:
        catchup(words[0], run="--run" in words[1:])
    except CatchUpError as error:
        print(error)
    except Exception as error:  # e.g. an unreadable solutions file: one sentence, no traceback
        print(_("Catch-up could not load {exercise} ({error}). "
                "Ask your instructor, or open the solution notebook in the solutions/ folder.").format(
            exercise=words[0], error=type(error).__name__))


def load_ipython_extension(shell):
    """`%load_ext paddlecourse.catchup` registers the %catchup line magic."""
    shell.register_magic_function(catchup_magic, magic_kind="line", magic_name="catchup")
