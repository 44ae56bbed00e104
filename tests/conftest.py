"""Fixtures shared by the browser tests and the hub test."""
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # for tests/system_parts.py
from system_parts import require_system_part  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]


@pytest.fixture(scope="session")
def browser():
    """Headless Debian Chromium driven by Playwright (never Playwright's own downloaded browsers).

    One per test session: Playwright's sync API refuses a second instance while
    one is open, so the browser tests and the hub test share this one.
    """
    executable = require_system_part(
        "Chromium", shutil.which("chromium") or "/usr/bin/chromium", "sudo apt-get install chromium"
    )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        # At the end of a full run, closing waited for ever on Playwright's driver (CI ran into the
        # 600 s timeout of the last test, twice); killing the driver ended it cleanly. Bound the wait.
        watchdog = threading.Timer(30, _kill_playwright_driver)
        watchdog.daemon = True
        watchdog.start()
        chromium.close()


def _kill_playwright_driver():
    import psutil

    for child in psutil.Process().children(recursive=True):
        try:
            if "playwright" in " ".join(child.cmdline()):
                child.kill()
        except psutil.Error:
            pass


@pytest.fixture(autouse=True, scope="module")
def _state_dir_stays_in_its_module():
    """The grading tests point PADDLECOURSE_STATE_DIR (the integrity record) at their own temporary folder;
    after each test file it is what it was before, so a later file on the same worker (the hub class once
    got a grading test's folder) never sees another test's record."""
    before = os.environ.get("PADDLECOURSE_STATE_DIR")
    yield
    if before is None:
        os.environ.pop("PADDLECOURSE_STATE_DIR", None)
    else:
        os.environ["PADDLECOURSE_STATE_DIR"] = before
