"""Lesson 00 in a real JupyterLab: the solution notebook runs top to bottom without an error."""

import pytest

from lab import cell_outputs_text

NOTEBOOK = "solutions/00_setup_and_first_run.ipynb"


@pytest.mark.browser
@pytest.mark.runs_lesson(NOTEBOOK)
def test_lesson00_solution_runs_clean_in_jupyterlab(ran):
    page = ran
    # paddlecourse.verify() prints this only when all five install checks pass.
    assert "All five checks passed." in "\n".join(cell_outputs_text(page))
