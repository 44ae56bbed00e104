"""Which notebooks of a folder are the course's lessons, in course order: the one answer every part of the course
asks (the build, progress, catch-up, the grading course, the links, the site, the workshop tools and the tests).

A lesson is a notebook named NN_name.ipynb (its number gives the order; its grade ids start lNN-). Anything else
beside the lessons, the glossary, is built and tested like a lesson but never graded.
"""
from pathlib import Path


def is_lesson(path):
    """True for NN_name.ipynb; the glossary and anything else in the folder is not an assignment."""
    name = Path(path).name
    return len(name) > 3 and name[:2].isdigit() and name[2] == "_" and name.endswith(".ipynb")


def lesson_paths(folder, include_extras=False):
    """The lesson notebooks in ``folder``, in order; with ``include_extras``, also the notebooks that ship beside
    them (the glossary). Hidden files (editors' and Jupyter's) never count."""
    notebooks = sorted(p for p in Path(folder).glob("*.ipynb") if not p.name.startswith("."))
    return notebooks if include_extras else [p for p in notebooks if is_lesson(p)]
