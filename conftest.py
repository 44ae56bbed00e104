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


# One lane for the tests that run many processes at once (a browser, JupyterLab and kernels; a hub
# and its users' servers; grading with two sandboxes side by side; a site build or a pip install):
# they run one after another on one worker, which also keeps the browser's one Chromium and JupyterLab,
# the site's one build and each file's module fixtures. Each notebook and every other file is a room
# of its own, spread over the workers: one kernel each, single-threaded, so two run side by side at
# nearly twice the speed (measured: nbval of the English lessons 149 s alone, 83 s on two workers),
# while two many-process rooms side by side only fight for the cores.
BUSY_LANE = ("tests/browser/", "tests/hub/", "tests/site/", "tests/test_nbgrader_e2e.py", "tests/test_grading_",
             "tests/test_lessons_build.py", "tests/test_wheelhouse.py")


def room_of(nodeid):
    path = nodeid.split("::", 1)[0]
    return "busy lane" if path.startswith(BUSY_LANE) else path


def pytest_collection_modifyitems(items):
    # the busy lane is the longest (tests/README.md): it starts first; the sort is stable, so files and
    # a notebook's cells keep their order
    items.sort(key=lambda item: room_of(item.nodeid) != "busy lane")


@pytest.hookimpl(optionalhook=True)  # only where pytest-xdist runs the suite
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ByRoom(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return room_of(nodeid)

    return ByRoom(config, log)
