"""Live-coding copies: every lesson with its code cells emptied, for a presenter to type into.

    paddlecourse live-coding            # -> live-coding/NN_*.ipynb, one per solutions/NN_*.ipynb

Kept as they are: every markdown cell, the set-up cell (the first code cell, which
calls ``paddlecourse.setup()``), cells tagged ``live-keep`` (for data a presenter
should not have to type), and - unless ``keep_tests=False`` - the exercises' test
cells, so the room sees the checks pass as the presenter types the answers.
Everything else is emptied, outputs included. Copies are made from the student
version (``paddlecourse.author.build.student_copy``), so hidden tests and solutions never
reach the projector.
"""
from pathlib import Path

import nbformat

from ..author.build import student_copy, write_notebook
from ..author.sources import solution_paths

KEEP_TAG = "live-keep"


def _is_test_cell(cell):
    grader = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grader.get("grade")) and not grader.get("solution")


def live_copy(solution, keep_tests=True):
    """The live-coding version of one solution notebook (a NotebookNode)."""
    notebook = student_copy(solution)
    first_code = next((i for i, c in enumerate(notebook.cells) if c.cell_type == "code"), None)
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        keep = (
            index == first_code
            or KEEP_TAG in cell.get("metadata", {}).get("tags", [])
            or (keep_tests and _is_test_cell(cell))
        )
        if keep:
            continue
        cell.source = ""
        # an emptied cell is for typing into: never locked, no grading metadata
        for key in ("editable", "deletable", "nbgrader"):
            cell.metadata.pop(key, None)
    notebook.metadata["paddlecourse"] = {"live_coding": True}
    return notebook


def build_live_copies(solutions_dir="solutions", out_dir="live-coding", keep_tests=True):
    """Write a live-coding copy of every lesson; returns the paths written."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for source in solution_paths(solutions_dir):
        target = out_dir / source.name
        write_notebook(live_copy(nbformat.read(source, as_version=4), keep_tests=keep_tests), target)
        written.append(target)
    return written
