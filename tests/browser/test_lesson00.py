"""Lesson 00 in a real JupyterLab: the solution notebook runs top to bottom without an error."""
from pathlib import Path

import pytest

from lab import cell_outputs_text, error_outputs, open_notebook, run_all_cells

NOTEBOOK = "solutions/00_setup_and_first_run.ipynb"
REPO = Path(__file__).resolve().parents[2]


@pytest.mark.browser
@pytest.mark.skipif(not (REPO / NOTEBOOK).exists(), reason=f"{NOTEBOOK} does not exist yet")
def test_lesson00_solution_runs_clean_in_jupyterlab(jupyterlab, page):
    open_notebook(page, jupyterlab, NOTEBOOK)
    run_all_cells(page)
    assert error_outputs(page) == []
    # paddlecourse.verify() prints this only when all five install checks pass.
    assert "All five checks passed." in "\n".join(cell_outputs_text(page))
