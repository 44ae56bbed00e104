"""Notebook tests: every lesson runs under nbval in the course kernel, as part of plain `pytest`.

- solutions/*.ipynb and the Chinese edition's solutions/zh/*.ipynb run top to bottom
  and every cell's output is compared with the stored one (after the sanitizer in
  tests/nbval-sanitize.cfg).
- lessons/*.ipynb (the student copies) are what `paddlecourse build` makes of the
  solutions (tests/test_lessons_build.py); tests/test_untouched_lessons.py runs each
  one with its answers blank and asserts that every check fails with the course's
  own message and that every teaching cell still runs. Running them under nbval
  too would only repeat that, so they are not collected here.
"""
from pathlib import Path

import pytest
from nbval.plugin import IPyNbFile

ROOT = Path(__file__).parent
SANITIZER = ROOT / "tests" / "nbval-sanitize.cfg"


class LessonNotebook(IPyNbFile):
    """nbval's notebook collector, with the course's rules instead of command-line flags."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.compare_outputs = True
        # Pictures are not compared (their bytes vary with the Graphviz and
        # matplotlib builds); their text/plain form is.
        self.skip_compare = self.skip_compare + ("image/svg+xml",)

    def get_sanitize_files(self):
        return [str(SANITIZER)]

    def collect(self):
        for item in super().collect():
            item.add_marker(pytest.mark.notebook)
            yield item


def pytest_collect_file(file_path, parent):
    if file_path.suffix != ".ipynb" or ".ipynb_checkpoints" in file_path.parts:
        return None
    folder = file_path.parent
    if folder in (ROOT / "solutions", ROOT / "solutions" / "zh"):  # English, and the Chinese edition
        return LessonNotebook.from_parent(parent, path=file_path)
    return None


def pytest_configure(config):
    config.addinivalue_line("markers", "notebook: a cell of a lesson notebook, run by nbval")
