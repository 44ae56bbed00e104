"""Fixtures for real-browser tests: a throwaway JupyterLab server (Chromium comes from tests/conftest.py).

The server serves a temporary copy of `lessons/` and `solutions/` (outputs
cleared), with its own config, settings, workspaces and runtime folders, so
running cells never dirties the repo and no old workspace or user setting leaks
into a test.
"""
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

import nbformat
import pytest

from lab import SCREENSHOTS, close_documents, open_notebook, run_notebook_clean  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
SERVED_FOLDERS = ("lessons", "solutions")
STARTUP_TIMEOUT = 60  # seconds; a cold JupyterLab start on a busy 2-core machine takes ~5-15 s

# Lab settings for tests only: every cell stays attached and laid out (windowing off), so the picture tests
# measure outputs that are scrolled out of view too. (No news toast is the course's own default, installed by
# `paddlecourse kernel`: test_learner_interface.py checks a learner's Lab has it.)
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {
        "windowingMode": "none",
    },
}


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives JupyterLab in headless Chromium (slow; needs chromium)")
    config.addinivalue_line("markers", "runs_lesson(path): the test works on this notebook after one Run All in Lab, "
                                       "shared with every other test that names it (the `ran` fixture)")


def _copy_without_outputs(source, target):
    """Copy a folder, clearing every notebook's outputs and counts.

    Saved outputs would otherwise make "the output shows X" pass before a single
    cell has run; in the copy, every output a test sees comes from that test.
    """
    shutil.copytree(source, target, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    for path in target.rglob("*.ipynb"):
        notebook = nbformat.read(path, as_version=4)
        for cell in notebook.cells:
            if cell.cell_type == "code":
                cell.outputs, cell.execution_count = [], None
        nbformat.write(notebook, path)


def _free_port():
    """A port that was free a moment ago (the server gets it right after)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Lab:
    """A running JupyterLab server: its port, token, served root and log file."""

    def __init__(self, port, token, root, log):
        self.port, self.token, self.root, self.log = port, token, root, log
        self.base = f"http://127.0.0.1:{port}"

    def url(self, path):
        """The Lab URL opening `path` (relative to the served root); `reset` drops any saved layout."""
        return f"{self.base}/lab/tree/{path}?reset&token={self.token}"

    def api(self, endpoint, method="GET", timeout=10):
        """Call the server's REST API; returns the decoded JSON (or None for an empty body)."""
        request = urllib.request.Request(f"{self.base}/api/{endpoint}?token={self.token}", method=method)
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def log_text(self):
        return self.log.read_text(errors="replace")


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory):
    """Start JupyterLab on a temporary copy of the course notebooks; yield a `Lab`."""
    tmp = tmp_path_factory.mktemp("jupyterlab")
    root = tmp / "root"
    for folder in SERVED_FOLDERS:
        if (REPO / folder).is_dir():
            _copy_without_outputs(REPO / folder, root / folder)
    root.mkdir(exist_ok=True)
    config, settings, workspaces, runtime = (tmp / d for d in ("config", "settings", "workspaces", "runtime"))
    for name, values in LAB_SETTINGS.items():
        target = settings / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(values))

    port, token = _free_port(), secrets.token_hex(16)
    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(config),
        JUPYTER_RUNTIME_DIR=str(runtime),
        # Kernels then come only from the venv (sys.prefix), not a stale ~/.local copy.
        JUPYTER_DATA_DIR=str(tmp / "data"),
        JUPYTER_CONFIG_PATH=str(REPO / "deploy" / "jupyter" / "learner"),   # as `make lab` runs it
        JUPYTER_PREFER_ENV_PATH="0",
    )
    command = [
        sys.executable, "-m", "jupyter", "lab",
        f"--ServerApp.root_dir={root}", "--ip=127.0.0.1", f"--port={port}", "--port-retries=0",
        f"--IdentityProvider.token={token}", "--no-browser",
        f"--LabApp.user_settings_dir={settings}", f"--LabApp.workspaces_dir={workspaces}",
        "--LabApp.news_url=None",
        # window.jupyterapp: lab.error_outputs reads exceptions from the notebook model,
        # because in the DOM an exception looks exactly like a stderr print.
        "--LabApp.expose_app_in_browser=True",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if os.getuid() == 0:
        command.append("--allow-root")

    log = tmp / "server.log"
    with open(log, "wb") as log_file:
        process = subprocess.Popen(command, cwd=root, env=env, stdout=log_file, stderr=subprocess.STDOUT)
    lab = Lab(port, token, root, log)
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if process.poll() is not None:
                pytest.fail(f"JupyterLab exited with code {process.returncode}:\n{lab.log_text()}", pytrace=False)
            try:
                lab.api("status", timeout=2)
                break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                if time.monotonic() > deadline:
                    pytest.fail(f"JupyterLab did not answer within {STARTUP_TIMEOUT} s:\n{lab.log_text()}", pytrace=False)
                time.sleep(0.5)
        yield lab
    finally:
        # Ask politely first (it also shuts down kernels), then make sure.
        try:
            lab.api("shutdown", method="POST")
            process.wait(timeout=20)
        except Exception:
            pass
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def page(browser, request):
    """A fresh browser context and page; always leaves test-artifacts/screenshots/<test>.png behind."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    yield page
    _leave_screenshot(page, request)
    context.close()
    if "jupyterlab" in request.fixturenames:
        _shut_down_kernels(request.getfixturevalue("jupyterlab"))


def _leave_screenshot(page, request):
    """test-artifacts/screenshots/<test>.png, whatever the test's outcome."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    name = re.sub(r"[^\w.-]+", "_", request.node.name)
    try:
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True, timeout=15_000)
    except Exception as error:  # a failed screenshot must not hide the test's own result
        print(f"screenshot of {name} failed: {error}")


def _shut_down_kernels(lab, only=None):
    """End the kernels a test started (or the one of notebook ``only``): each holds a Paddle import (~0.5 GB)
    and wakes up now and then, so a dozen idle ones slow every later test on a 2-core machine. The runs a
    LessonRuns still shares are left alone."""
    try:
        for session in lab.api("sessions"):
            if (only is None and session["path"] in _HELD) or (only is not None and session["path"] != only):
                continue
            lab.api(f"sessions/{session['id']}", method="DELETE", timeout=30)
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
        print(f"could not shut down the test's kernels: {error}")


# ---------------------------------------------------------------- one Run All per notebook

VIEWPORT = {"width": 1366, "height": 850}   # a laptop window (test_pictures.py's first size)
_HELD = set()   # notebooks whose kernels a LessonRuns holds: the `page` fixture leaves them running


class LessonRuns:
    """Each notebook opened and run once in JupyterLab, its page shared by every test marked
    runs_lesson(path): the picture audit and the widget test of a lesson both start from that run
    (the suite once ran lessons 00, 01, 02, 04 and 08 two or three times each). After the last test that
    names it, its notebook is closed and its kernel shut down, and the next notebook opens in the same Lab
    (a page load of Lab costs the browser about 5 s of CPU; nine lessons, eight loads saved); a notebook whose
    run failed is run again, in a fresh page."""

    def __init__(self, browser, lab, users):
        self.browser, self.lab, self.users, self.pages = browser, lab, users, {}
        self.spare = None   # a page whose Lab is open with no document: the next notebook opens there

    def page(self, path):
        if path not in self.pages:
            page, reused = self.borrow()
            try:
                run_notebook_clean(page, self.lab, path, in_running_lab=reused)
            except BaseException:
                page.context.close()
                _shut_down_kernels(self.lab, only=path)
                raise
            self.pages[path] = page
            _HELD.add(path)
        page = self.pages[path]
        page.set_viewport_size(VIEWPORT)   # an earlier test may have left it narrower
        return page

    def done_with(self, path):
        self.users[path] -= 1
        if self.users[path] <= 0:
            self.forget(path)

    def forget(self, path):
        page = self.pages.pop(path, None)
        _HELD.discard(path)
        self.give_back(page, path)

    def borrow(self):
        """A page at VIEWPORT and whether JupyterLab is already loaded in it (the spare one) or not (a new one)."""
        page, self.spare = self.spare, None
        reused = page is not None
        if not reused:
            page = self.browser.new_context(viewport=VIEWPORT).new_page()
        page.set_viewport_size(VIEWPORT)
        return page, reused

    def give_back(self, page, path):
        """Close the page's documents without saving and shut down the kernel of `path`; the page is the spare
        one if there is none yet and its Lab closed them cleanly."""
        if page is not None:
            if self.spare is None and _closed_cleanly(page):
                self.spare = page
            else:
                page.context.close()
        _shut_down_kernels(self.lab, only=path)

    def close(self):
        for path in list(self.pages):
            self.forget(path)
        if self.spare is not None:
            self.spare.context.close()
            self.spare = None


def _closed_cleanly(page):
    try:
        return close_documents(page)
    except Exception as error:  # a page that cannot close its documents is not reused
        print(f"not reusing the page: {error}")
        return False


@pytest.fixture(scope="session")
def lesson_runs(browser, jupyterlab, request):
    users = Counter(marker.args[0] for item in request.session.items for marker in item.iter_markers("runs_lesson"))
    runs = LessonRuns(browser, jupyterlab, users)
    yield runs
    runs.close()


@pytest.fixture
def open_in_lab(request, lesson_runs):
    """open_in_lab(path, viewport=VIEWPORT) -> the page with notebook `path` open in JupyterLab, its kernel idle,
    not run: in the Lab the lesson runs leave spare, or in a new page. Afterwards the page is given back to them
    (its notebook closed unsaved, its kernel shut down) and leaves test-artifacts/screenshots/<test>.png, as
    `page` does."""
    opened = []

    def open_in_lab(path, viewport=VIEWPORT):
        page, reused = lesson_runs.borrow()
        opened.append((page, path))
        page.set_viewport_size(viewport)
        open_notebook(page, lesson_runs.lab, path, in_running_lab=reused)
        return page

    yield open_in_lab
    for page, path in opened:
        _leave_screenshot(page, request)
        lesson_runs.give_back(page, path)


@pytest.fixture
def ran(request, lesson_runs):
    """The page of the notebook this test marks runs_lesson(path), already run without an error; leaves
    test-artifacts/screenshots/<test>.png behind, as `page` does."""
    (path,) = {marker.args[0] for marker in request.node.iter_markers("runs_lesson")}
    page = lesson_runs.page(path)
    yield page
    _leave_screenshot(page, request)
    lesson_runs.done_with(path)
