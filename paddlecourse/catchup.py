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
import os
import re
from pathlib import Path

OFF_VALUES = {"off", "0", "false", "no", "disabled"}
_EXERCISE = re.compile(r"^l(?P<lesson>\d+)-ex(?P<number>\d+)(?:-answer)?$")


class CatchUpError(LookupError):
    """The exercise or its solution could not be found; the message says why."""


def grading_in_progress():
    """True while nbgrader executes the notebook (autograde or validate).

    Lessons use it to skip what autograding does not need (widgets waiting for
    clicks, long training runs)::

        from paddlecourse.catchup import grading_in_progress
        epochs = 1 if grading_in_progress() else 20
    """
    return bool(os.environ.get("NBGRADER_EXECUTION"))


def disabled_reason():
    """Why catch-up is off right now, as a sentence; None when it is on."""
    if grading_in_progress():
        return (
            "Catch-up is disabled while nbgrader runs this notebook "
            f"(NBGRADER_EXECUTION={os.environ['NBGRADER_EXECUTION']}): graded work must be your own."
        )
    if os.environ.get("PADDLECOURSE_CATCHUP", "").strip().lower() in OFF_VALUES:
        return "Catch-up is disabled by your instructor (PADDLECOURSE_CATCHUP=off). Ask them for help instead."
    return None


def _solution_dirs():
    here = Path.cwd()
    candidates = []
    if os.environ.get("PADDLECOURSE_SOLUTIONS"):
        candidates.append(Path(os.environ["PADDLECOURSE_SOLUTIONS"]))
    candidates += [here / "solutions", here.parent / "solutions", Path(__file__).resolve().parent.parent / "solutions"]
    seen, found = set(), []
    for folder in candidates:
        key = folder.resolve() if folder.exists() else folder
        if key not in seen and folder.is_dir():
            seen.add(key)
            found.append(folder)
    return found


def parse_exercise(exercise):
    """'l00-ex1' (or 'l00-ex1-answer') -> ('00', 'l00-ex1'); anything else raises CatchUpError."""
    match = _EXERCISE.match(str(exercise).strip().lower())
    if not match:
        raise CatchUpError(
            f"{exercise!r} is not an exercise id. Use the id printed above the test cell, like 'l02-ex3'."
        )
    return match.group("lesson"), f"l{match.group('lesson')}-ex{match.group('number')}"


def solution_code(exercise):
    """The solution code of one exercise, from its lesson's solution notebook."""
    import nbformat  # here, not at the top: `import paddlecourse` stays light

    lesson, grade_id = parse_exercise(exercise)
    folders = _solution_dirs()
    if not folders:
        raise CatchUpError(
            "The course's solutions/ folder was not found. Open the lesson from the course folder, "
            "or set PADDLECOURSE_SOLUTIONS to the folder that holds the solution notebooks."
        )
    for folder in folders:
        for path in sorted(folder.glob(f"{lesson}_*.ipynb")):
            notebook = nbformat.read(path, as_version=4)
            for cell in notebook.cells:
                grader = cell.get("metadata", {}).get("nbgrader", {})
                if grader.get("solution") and grader.get("grade_id") in (f"{grade_id}-answer", grade_id):
                    return _strip_markers(cell.source)
    raise CatchUpError(f"There is no exercise {grade_id} in lesson {lesson} (looked in {', '.join(map(str, folders))}).")


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
    _, grade_id = parse_exercise(exercise)
    code = solution_code(grade_id)
    cell = f"# Catch-up: the solution of {grade_id}, loaded by paddlecourse.catchup\n{code}"
    shell = _ipython()
    if shell is None:
        print(cell)
        return code
    shell.set_next_input(cell, replace=False)
    if run:
        shell.run_cell(cell, store_history=False)
        print(f"Ran the solution of {grade_id}; it is also in the new cell below. Your other cells are unchanged.")
    else:
        print(f"The solution of {grade_id} is in a new cell below this one: read it, then run it. "
              "Your other cells are unchanged.")
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
        print("Usage: %catchup l00-ex1 [--run]")
        return None
    catchup(words[0], run="--run" in words[1:])


def load_ipython_extension(shell):
    """`%load_ext paddlecourse.catchup` registers the %catchup line magic."""
    shell.register_magic_function(catchup_magic, magic_kind="line", magic_name="catchup")
