"""Notebook tests: every lesson runs under nbval in the course kernel, as part of plain `pytest`.

- solutions/*.ipynb run top to bottom and every cell's output is compared with
  the stored one (after the sanitizer in tests/nbval-sanitize.cfg).
- lessons/*.ipynb (the student copies) run every cell except the exercises: the
  answer cells are blank there and their test cells are meant to fail (that is
  checked by `nbgrader validate --invert` in tests/test_lessons_build.py). No
  teaching cell may depend on an exercise, so a learner who is stuck can go on.
"""
from pathlib import Path

import pytest
from nbval.plugin import IPyNbFile

ROOT = Path(__file__).parent
SANITIZER = ROOT / "tests" / "nbval-sanitize.cfg"


def is_exercise_cell(cell):
    """An nbgrader answer cell or test cell."""
    grader = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grader.get("solution") or grader.get("grade"))


class LessonNotebook(IPyNbFile):
    """nbval's notebook collector, with per-folder rules instead of command-line flags."""

    def __init__(self, *args, compare, **kwargs):
        super().__init__(*args, **kwargs)
        self.compare_outputs = compare
        # Pictures are not compared (their bytes vary with the Graphviz and
        # matplotlib builds); their text/plain form is.
        self.skip_compare = self.skip_compare + ("image/svg+xml",)

    def get_sanitize_files(self):
        return [str(SANITIZER)]

    def collect(self):
        for item in super().collect():
            if not self.compare_outputs and is_exercise_cell(item.cell):
                continue  # blank in the student copy: nbgrader validate --invert covers it
            item.add_marker(pytest.mark.notebook)
            yield item


def pytest_collect_file(file_path, parent):
    if file_path.suffix != ".ipynb" or ".ipynb_checkpoints" in file_path.parts:
        return None
    folder = file_path.parent
    if folder == ROOT / "solutions":
        return LessonNotebook.from_parent(parent, path=file_path, compare=True)
    if folder == ROOT / "lessons":
        return LessonNotebook.from_parent(parent, path=file_path, compare=False)
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "notebook: a cell of a lesson notebook, run by nbval")
