"""Helpers that drive a notebook in JupyterLab 4.6 through the browser, as a learner would.

Facts about the Lab 4.6.6 DOM these rely on (checked by hand, see the reasons inline):
- `.jp-Notebook-ExecutionIndicator[data-status="idle"]` also shows while the notebook
  has *no kernel yet* ("No Kernel"), so "kernel ready" is that indicator AND the
  toolbar's `.jp-KernelName` showing the notebook's kernelspec display name.
- An exception and a plain stderr print render identically
  (`.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]`), so
  errors are read from the notebook model (`window.jupyterapp`, exposed by the
  `jupyterlab` fixture), where they have `output_type == "error"`.
"""
import json
import re
from pathlib import Path

import pytest

PANEL = ".jp-NotebookPanel:visible"  # the notebook in the active tab
IDLE = '.jp-Notebook-ExecutionIndicator[data-status="idle"]'
OPEN_TIMEOUT = 90_000  # ms; starting a kernel that imports Paddle on 2 busy cores
RUN_TIMEOUT = 180_000  # ms
CLICK_TIMEOUT = 20_000  # ms; a click goes to the kernel and back on a busy machine
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

# Installed before "Run All": a MutationObserver notes when a run has started (a `[*]`
# prompt or a busy indicator), so a fast notebook that finishes between two polls
# is not mistaken for one that never started.
_WATCH_RUN = """panel => {
  window.__pcRunStarted = false;
  const started = () => panel.querySelector('.jp-Notebook-ExecutionIndicator[data-status="busy"]')
    || [...panel.querySelectorAll('.jp-InputPrompt')].some(p => p.textContent.includes('[*]'));
  window.__pcObserver?.disconnect();
  window.__pcObserver = new MutationObserver(() => { if (started()) window.__pcRunStarted = true; });
  window.__pcObserver.observe(panel, {subtree: true, childList: true, characterData: true, attributes: true});
}"""
_RUN_FINISHED = """panel => window.__pcRunStarted
  && panel.querySelector('.jp-Notebook-ExecutionIndicator[data-status="idle"]')
  && ![...panel.querySelectorAll('.jp-InputPrompt')].some(p => p.textContent.includes('[*]'))"""

_ERRORS_FROM_MODEL = """() => {
  if (!window.jupyterapp) throw new Error('window.jupyterapp missing: start Lab with --LabApp.expose_app_in_browser=True');
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model);
  const errors = [];
  for (const cell of panel.content.model.cells) {
    if (cell.type !== 'code') continue;
    for (const output of cell.outputs.toJSON())
      if (output.output_type === 'error') errors.push(output.traceback.join('\\n') || `${output.ename}: ${output.evalue}`);
  }
  return errors;
}"""
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


# Closes every document in the main area without asking to save (the run changed their outputs; the files
# stay as they were): the next notebook then opens in the same Lab, as a learner opens one after another.
_CLOSE_DOCUMENTS = """() => {
  for (const widget of [...window.jupyterapp.shell.widgets('main')]) {
    if (widget.context?.model) widget.context.model.dirty = false;
    widget.close();
  }
  return [...window.jupyterapp.shell.widgets('main')].length;
}"""


def close_documents(page):
    """Close every open document in the page's Lab; True if the main area is empty after."""
    return page.evaluate(_CLOSE_DOCUMENTS) == 0


def open_in_running_lab(page, path, timeout=OPEN_TIMEOUT):
    """Open `path` in the Lab already on the page, as a learner double-clicks it in the file browser (no page
    load), and wait until it is the visible document."""
    page.evaluate("async p => { await window.jupyterapp.commands.execute('docmanager:open', {path: p}); }", path)
    page.wait_for_function("p => [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && "
                           "w.content?.model)?.context.path === p", arg=path, timeout=timeout)


def open_notebook(page, lab, path, timeout=OPEN_TIMEOUT, in_running_lab=False):
    """Open `path` (relative to the served root) in a fresh Lab layout and wait until its kernel is idle;
    with `in_running_lab`, open it in the Lab already on the page (File > Open; a page load of Lab costs
    its browser about 5 s of CPU).

    Fails clearly if Lab asks "Select Kernel" (the notebook's kernelspec is not
    installed) or if the server started a different kernel than the notebook names.
    """
    spec = json.loads((lab.root / path).read_text()).get("metadata", {}).get("kernelspec")
    assert spec, f"{path} has no kernelspec in its metadata; Lab would pick a kernel at random"
    if in_running_lab:
        open_in_running_lab(page, path, timeout)
    else:
        page.goto(lab.url(path))
    panel = page.locator(PANEL)
    # (exact get_by_text on the label: in Lab 4.6.6 an anchored has_text regex on .jp-KernelName never matched)
    kernel_name = page.locator(".jp-KernelName").get_by_text(spec["display_name"], exact=True)
    ready = panel.locator(".jp-NotebookPanel-toolbar").filter(has=page.locator(IDLE)).filter(has=kernel_name)
    dialog = page.locator(".jp-Dialog").filter(has=page.locator(".jp-Dialog-header", has_text="Select Kernel"))
    ready.or_(dialog).first.wait_for(timeout=timeout)
    if dialog.is_visible():
        pytest.fail(
            f"JupyterLab asked to 'Select Kernel' for {path}: kernelspec {spec['name']!r} is not installed "
            "for this server (run `make setup`, which installs the course kernel into .venv).",
            pytrace=False,
        )
    kernels = [s["kernel"]["name"] for s in lab.api("sessions") if s["path"] == path]
    assert kernels == [spec["name"]], f"{path} runs kernel(s) {kernels}, but its metadata names {spec['name']!r}"


def run_all_cells(page, timeout=RUN_TIMEOUT):
    """Run > Run All Cells through the menu bar, then wait until no cell is queued or running."""
    panel = page.locator(PANEL)
    if panel.locator(".jp-CodeCell").count() == 0:
        return
    panel.evaluate(_WATCH_RUN)
    page.get_by_role("menubar").get_by_role("menuitem", name="Run", exact=True).click()
    page.locator(".lm-Menu").get_by_role("menuitem", name="Run All Cells", exact=True).click()
    page.wait_for_function(_RUN_FINISHED, arg=panel.element_handle(), timeout=timeout, polling=250)


def error_outputs(page):
    """The text (ANSI colours stripped) of every exception output in the visible notebook.

    Stderr prints and warnings are not errors and are not included, although Lab
    renders both with the same DOM (see the module docstring).
    """
    return [_ANSI.sub("", text) for text in page.evaluate(_ERRORS_FROM_MODEL)]


def cell_outputs_text(page):
    """The text of every rendered output (stdout, stderr, results, HTML) in the visible notebook, in order."""
    return page.locator(PANEL).locator(".jp-OutputArea-output").all_text_contents()


def run_notebook_clean(page, lab, path, in_running_lab=False):
    """Open `path`, run all its cells, and fail if any cell raised (the start of every lesson test)."""
    open_notebook(page, lab, path, in_running_lab=in_running_lab)
    run_all_cells(page)
    errors = error_outputs(page)
    assert errors == [], f"{path} raised in JupyterLab:\n" + "\n\n".join(errors)


def save_screenshot(target, name):
    """Save a picture of `target` (a page or a locator) as test-artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


# The focused element's ring as drawn: outline width and colour, the box-shadow, and whether the browser
# counts the focus as keyboard focus (:focus-visible).
_FOCUS_RING = """() => { const el = document.activeElement, s = getComputedStyle(el);
  return {tag: el.tagName.toLowerCase(), text: (el.innerText || '').trim().slice(0, 40), visible: el.matches(':focus-visible'),
          in_widget: !!el.closest('.pc-widget'), outline_style: s.outlineStyle, outline_px: parseFloat(s.outlineWidth),
          outline_color: s.outlineColor, shadow: s.boxShadow}; }"""


def assert_keyboard_focus_is_visible(page, widget, name):
    """Move the keyboard focus back one control (Shift+Tab, as a learner does after a click) and check the
    course's focus ring (widgets/focus.py) is drawn: a solid outline at least 2 px wide, dark blue, with a
    white ring inside it. Saves a picture of the widget as test-artifacts/screenshots/<name>.png."""
    page.keyboard.press("Shift+Tab")
    ring = page.evaluate(_FOCUS_RING)
    assert ring["visible"] and ring["in_widget"], f"the keyboard focus left the widget or is not visible: {ring}"
    assert ring["outline_style"] == "solid" and ring["outline_px"] >= 2, f"focus outline too thin: {ring}"
    assert ring["outline_color"] == "rgb(29, 78, 216)" and "rgb(255, 255, 255)" in ring["shadow"], ring
    save_screenshot(widget, name)
    return ring
