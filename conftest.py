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
import os
from pathlib import Path

import pytest
from nbval.plugin import IPyNbFile

ROOT = Path(__file__).parent

# A learner's kernel has no PYTHONUNBUFFERED (CI shells and this machine's do): without it, what a child
# Python printed before a crash is lost with the process, and a lesson that forgets `-u` must fail here
# as it fails on a hub (found by tests/hub/test_hub_load_smoke.py, never by nbval, in lesson 04).
os.environ.pop("PYTHONUNBUFFERED", None)
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
    from tests.cpu_per_test import register   # PADDLECOURSE_CPU_PER_TEST=1: CPU seconds per test, to test-artifacts/

    register(config)


# Two lanes for the tests that run many processes at once: the browser's (Chromium, JupyterLab and its
# kernels; a hub and its users' servers; the website) and grading's (two sandboxes side by side, nbgrader,
# pip). Each lane runs one test after another on one worker, which also keeps the browser's one Chromium
# and JupyterLab, the site's one build and each file's module fixtures together. Each notebook and every
# other file is a room of its own, spread over the workers around the lanes: one single-threaded kernel
# each, so two run side by side at nearly twice the speed (nbval of the English lessons: 149 s alone,
# 83 s on two workers), while many-process rooms side by side only fight for the cores (a run with every
# file spread over two workers took 33 min; with all of them in one lane, 22 min). A third worker takes the
# single-kernel rooms from the start: the lanes spend much of their time waiting (a browser drawing, a hub
# spawning, a silent kernel); with three, /proc/stat showed the two cores 93-94 % busy (tests/README.md).
# The sandbox's own tests (one plain kernel at a time, no nbgrader) and the grading unit tests are rooms of their
# own: in the grading lane they waited behind the classes for about 100 s of a run.
# The hub load smoke test (a hub, three servers, no browser) balances the lanes from the grading side: in the
# browser lane it made that lane the run's longest (837 s against 766). First match wins, so it comes first.
# Binder's replay (pip and one kernel, no browser) is a lane of its own: in the browser lane it added 81 s to the
# run's longest lane, while the third worker, which it now joins, waits on the others at the end.
# The portability slice (fresh venvs of other Pythons, pip and uv, one plain kernel at a time) joins Binder's replay,
# the other test of that kind, in its lane. So does the two editions' grading: with two busy loops beside the suite
# the grading lane took 1086 s of a 1216 s run, the binder lane 326 s (the editions' file: 93 s).
LANES = {"tests/hub/test_hub_load_smoke.py": "grading lane", "tests/hub/test_binder_replay.py": "binder lane",
         "tests/test_portability.py": "binder lane", "tests/test_grading_editions.py": "binder lane",
         "tests/browser/": "browser lane", "tests/hub/": "browser lane", "tests/site/": "browser lane",
         "tests/test_nbgrader_e2e.py": "grading lane", "tests/test_grading_l0": "grading lane",
         "tests/test_lessons_build.py": "grading lane", "tests/test_wheelhouse.py": "grading lane"}


def room_of(nodeid):
    path = nodeid.split("::", 1)[0]
    return next((lane for prefix, lane in LANES.items() if path.startswith(prefix)), path)


# Paddle 3.3.1 itself can crash a kernel that has converted and saved models many times: a SIGSEGV inside
# jit.save (pir::DenseTensorType::classof, reached from static_api_matmul while tracing), seen once in a loaded run
# of test_wrong_answers_l06.py after eleven saves in one kernel, and not reproduced on its own. The tests that drive
# one lesson kernel through many answers start it again once after such a crash (pytest-rerunfailures: only on
# nbclient's DeadKernelError; the rerun shows as "R" and in the summary); a second crash, or any other
# failure, fails the test.
PADDLE_CRASHES = ("tests/test_wrong_answers_", "tests/test_untouched_lessons.py", "tests/test_lesson_runner.py")


def pytest_collection_modifyitems(items):
    # the lanes are the longest rooms (tests/README.md): they start first; the sort is stable, so files and
    # a notebook's cells keep their order
    items.sort(key=lambda item: room_of(item.nodeid) not in LANES.values())
    for item in items:
        if item.nodeid.startswith(PADDLE_CRASHES):
            item.add_marker(pytest.mark.flaky(reruns=1, only_rerun=["DeadKernelError"]))


@pytest.hookimpl(optionalhook=True)  # only where pytest-xdist runs the suite
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ByRoom(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            return room_of(nodeid)

    return ByRoom(config, log)
