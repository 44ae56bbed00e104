"""What a learner-side helper knows of its surroundings: whether nbgrader is running this notebook, and
where the course's solutions are. Shared by catch-up and progress (which imports nothing else of catch-up).
"""
import os
from pathlib import Path

from .settings import setting


def grading_in_progress():
    """True while nbgrader executes the notebook (autograde or validate).

    Lessons use it to skip what autograding does not need (widgets waiting for
    clicks, long training runs)::

        from paddlecourse.catchup import grading_in_progress
        epochs = 1 if grading_in_progress() else 20
    """
    return bool(os.environ.get("NBGRADER_EXECUTION"))


PACKAGE = Path(__file__).resolve().parent


def course_folder(name):
    """The installed wheel's copy of ``lessons`` or ``solutions`` (setup.py puts them in the package), else the
    repository's (a checkout, an editable install); None when neither holds a notebook."""
    for folder in (PACKAGE / name, PACKAGE.parent / name):
        if any(folder.glob("*.ipynb")):
            return folder
    return None


def solution_dirs():
    """The folders holding the course's solutions: PADDLECOURSE_SOLUTIONS, then beside the lessons, then the
    installed course's (the wheel's copy, or the repository's)."""
    here = Path.cwd()
    candidates = []
    if setting("PADDLECOURSE_SOLUTIONS"):
        candidates.append(Path(setting("PADDLECOURSE_SOLUTIONS")))
    candidates += [here / "solutions", here.parent / "solutions", course_folder("solutions")]
    seen, found = set(), []
    for folder in filter(None, candidates):
        key = folder.resolve() if folder.exists() else folder
        if key not in seen and folder.is_dir():
            seen.add(key)
            found.append(folder)
    return found
