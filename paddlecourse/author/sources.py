"""The course's source notebooks: which files in solutions/ are lessons (graded, NN_name.ipynb) and which
ship beside them (the glossary). Read by the build, the catalogues, the site and the workshop tools.
"""
from pathlib import Path


def solution_paths(solutions_dir, include_extras=False):
    """The lesson notebooks (NN_name.ipynb), in order; with ``include_extras``, also the non-lesson
    notebooks that ship beside them (the glossary): built and tested like lessons, never graded."""
    notebooks = sorted(p for p in Path(solutions_dir).glob("*.ipynb") if not p.name.startswith("."))
    if include_extras:
        return notebooks
    return [p for p in notebooks if is_lesson(p)]


def is_lesson(path):
    """A lesson is named NN_name.ipynb; anything else in solutions/ (the glossary) is not an assignment."""
    name = Path(path).name
    return len(name) > 3 and name[:2].isdigit() and name[2] == "_"
