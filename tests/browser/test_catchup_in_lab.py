"""Catch-up in a real JupyterLab: one line puts the solution in a NEW cell below; nothing else changes."""
import pytest

from lab import PANEL

NOTEBOOK = "lessons/00_setup_and_first_run.ipynb"

_SOURCES = """() => {
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model);
  return [...panel.content.model.cells].map(c => c.sharedModel.getSource());
}"""

_ANSWER_CELL = """grade_id => {
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model);
  return [...panel.content.model.cells].findIndex(c => c.getMetadata('nbgrader')?.grade_id === grade_id);
}"""

_RUN_LINE_IN_CELL = """async ([index, line]) => {
  const panel = [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model);
  panel.content.model.cells.get(index).sharedModel.setSource(line);
  panel.content.activeCellIndex = index;
  await window.jupyterapp.commands.execute('notebook:run-cell');
}"""


@pytest.mark.browser
def test_catchup_inserts_the_solution_below_and_keeps_the_rest(open_in_lab):
    page = open_in_lab(NOTEBOOK)
    before = page.evaluate(_SOURCES)
    answer = page.evaluate(_ANSWER_CELL, "l00-ex1-answer")  # by its nbgrader id: the prose mentions "YOUR CODE HERE" too
    assert answer > 0 and "YOUR CODE HERE" in before[answer]
    line = 'from paddlecourse.catchup import catchup; catchup("l00-ex1")'
    page.evaluate(_RUN_LINE_IN_CELL, [answer, line])
    page.wait_for_function(
        "n => [...window.jupyterapp.shell.widgets('main')].find(w => w.isVisible && w.content?.model)"
        ".content.model.cells.length === n", arg=len(before) + 1, timeout=60_000)
    after = page.evaluate(_SOURCES)
    assert after[answer] == line  # the learner's own cell is untouched
    assert after[answer + 1].startswith("# Catch-up: the solution of l00-ex1")
    assert "stop_gradient = False" in after[answer + 1] and "BEGIN SOLUTION" not in after[answer + 1]
    assert after[: answer] == before[: answer] and after[answer + 2:] == before[answer + 1:]
    page.locator(PANEL).locator(".jp-OutputArea-output").get_by_text("in a new cell below").wait_for(timeout=30_000)
