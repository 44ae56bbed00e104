"""What a self-paced learner's JupyterLab and Notebook 7 show (started as `make lab` and Binder start them, with
deploy/jupyter/learner first on the config path): the lesson, and none of nbgrader's instructor tools - no
Nbgrader menu, no Create Assignment, no Formgrader - and no console error from the course's setup. A hub's
instructors keep Formgrader (tests/hub/test_hub_class.py). No toast asks about Jupyter news either: the course's
Lab defaults (paddlecourse/kernel.py's LAB_DEFAULTS, installed by `paddlecourse kernel`) turn news off."""
import json
import urllib.request

import pytest

from lab import IDLE, PANEL

LESSON = "lessons/00_setup_and_first_run.ipynb"
NBGRADER_WORDS = ("Nbgrader", "Formgrader", "Create Assignment", "Assignment List")


def _console_errors(page):
    """Each console error and uncaught exception, with where it came from (the script's address or stack)."""
    errors = []
    page.on("console", lambda message: errors.append(f"{message.text} @ {message.location.get('url')}")
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(f"{error} @ {error.stack}"))
    return errors


# Notebook 7.6.5 raises these two in its own bundle (notebook_core) on every page, its file browser (/tree)
# too and with nbgrader switched off: they are Notebook's, not the course's, and are printed, not hidden.
NOTEBOOKS_OWN = ("Cannot read properties of undefined (reading 'schema')", "Command 'filebrowser:open-path' not registered")


@pytest.mark.browser
def test_a_learners_lab_has_no_nbgrader_menu_and_no_console_error(page, jupyterlab):
    errors = _console_errors(page)
    page.goto(jupyterlab.url(LESSON))
    page.locator(PANEL).locator(".jp-NotebookPanel-toolbar").filter(has=page.locator(IDLE)).wait_for(timeout=120_000)
    commands = page.evaluate("() => window.jupyterapp.commands.listCommands()")
    assert not [c for c in commands if c.startswith("nbgrader:")], [c for c in commands if c.startswith("nbgrader:")]
    menus = page.locator("#jp-MenuBar, .lm-MenuBar").first.inner_text()
    assert not [w for w in NBGRADER_WORDS if w in menus], menus
    assert not [w for w in NBGRADER_WORDS if w in page.locator(PANEL).inner_text()]
    assert not errors, errors
    # news off as Lab's own default, not as a setting this test's server was given (conftest.LAB_SETTINGS)
    url = f"{jupyterlab.base}/lab/api/settings/@jupyterlab/apputils-extension:notification?token={jupyterlab.token}"
    with urllib.request.urlopen(url, timeout=30) as response:
        notification = json.loads(response.read())
    assert notification["schema"]["properties"]["fetchNews"]["default"] == "false", (
        "JupyterLab's default is to ask about Jupyter news: the course's Lab defaults are not installed "
        "(run `paddlecourse kernel` in the environment)")
    assert notification["raw"].strip() in ("", "{}"), f"this server's user settings set news: {notification['raw']}"
    page.wait_for_timeout(1000)   # Lab asks about news once its notification plugin has started, after the panel
    toasts = page.locator(".Toastify__toast").all_inner_texts()
    assert not [t for t in toasts if "news" in t.lower()], toasts


@pytest.mark.browser
def test_a_learners_notebook_7_has_no_nbgrader_menu_and_no_console_error(page, jupyterlab):
    errors = _console_errors(page)
    page.goto(f"{jupyterlab.base}/notebooks/{LESSON}?token={jupyterlab.token}")
    page.locator(".jp-Notebook").first.wait_for(timeout=120_000)
    page.locator(".jp-Notebook-ExecutionIndicator[data-status='idle'], .jp-mod-idle").first.wait_for(
        timeout=120_000, state="attached")
    menus = page.locator(".lm-MenuBar").first.inner_text()
    assert not [w for w in NBGRADER_WORDS if w in menus], menus
    assert not [w for w in NBGRADER_WORDS if w in page.locator("body").inner_text()]
    notebooks_own = [e for e in errors if e.startswith(NOTEBOOKS_OWN) and "/static/notebook/" in e]
    print("Notebook 7's own console errors:", notebooks_own)
    assert not [e for e in errors if e not in notebooks_own], errors
    assert not [e for e in errors if "nbgrader" in e.lower() or "paddlecourse" in e.lower()], errors
