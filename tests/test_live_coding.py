"""Live-coding copies: markdown and set-up kept, code emptied, nothing hidden leaks, and they run."""
import re
from pathlib import Path

import nbformat
import pytest

from paddlecourse.author.build import student_copy
from paddlecourse.cli import main
from paddlecourse.teach.live_coding import KEEP_TAG, live_copy
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = lesson_paths(ROOT / "solutions")


def is_test(cell):
    grader = cell.metadata.get("nbgrader", {})
    return bool(grader.get("grade")) and not grader.get("solution")


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_lesson_keeps_markdown_and_setup_and_empties_the_rest(path):
    solution = nbformat.read(path, as_version=4)
    student = student_copy(solution)
    live = live_copy(solution)
    assert len(live.cells) == len(solution.cells)
    code = [c for c in live.cells if c.cell_type == "code"]
    assert "paddlecourse.setup()" in code[0].source  # the set-up cell is kept
    for before, after in zip(student.cells, live.cells):
        assert before.cell_type == after.cell_type
        if after.cell_type == "markdown":
            assert after.source == before.source
            continue
        assert after.outputs == [] and after.execution_count is None
        kept = after is code[0] or is_test(after) or KEEP_TAG in after.metadata.get("tags", [])
        assert after.source == (before.source if kept else ""), after.source[:80]
        if not kept:
            assert after.metadata.get("editable", True) and "nbgrader" not in after.metadata
    text = nbformat.writes(live)
    for secret in ("BEGIN SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS"):
        assert secret not in text


def test_without_tests_only_setup_survives():
    live = live_copy(nbformat.read(SOLUTIONS[0], as_version=4), keep_tests=False)
    kept = [c.source for c in live.cells if c.cell_type == "code" and c.source]
    assert len(kept) == 1 and "paddlecourse.setup()" in kept[0]


def test_cells_tagged_live_keep_are_kept():
    solution = nbformat.read(SOLUTIONS[0], as_version=4)
    data_cell = next(c for c in solution.cells if c.cell_type == "code" and c.source.startswith("downloaded = ["))
    data_cell.metadata["tags"] = [KEEP_TAG]
    live = live_copy(solution)
    assert any(c.source.startswith("downloaded = [") for c in live.cells)


def test_command_writes_every_lesson_and_a_copy_runs(tmp_path):
    out = tmp_path / "live"
    assert main(["live-coding", "--solutions", str(ROOT / "solutions"), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.glob("*.ipynb")) == [p.name for p in SOLUTIONS]
    # lesson 00's copy runs top to bottom in the course kernel; only the test cells fail
    # (nothing has been typed yet), and the set-up cell works
    from nbclient import NotebookClient

    notebook = nbformat.read(out / SOLUTIONS[0].name, as_version=4)
    NotebookClient(notebook, timeout=120, allow_errors=True, kernel_name="paddlecourse",
                   resources={"metadata": {"path": str(out)}}).execute()
    failing = [c for c in notebook.cells if c.cell_type == "code" and any(o.output_type == "error" for o in c.outputs)]
    assert failing and all(is_test(c) for c in failing)


def test_presenter_notes_and_schedule_cover_every_lesson(tmp_path):
    """Notes are generated from the lessons, so a lesson added later gets notes with no new code."""
    from paddlecourse.teach.grading import schedule_markdown, write_presenter_notes

    profiles = write_presenter_notes(tmp_path, measure=False)
    assert [p.path.name for p in profiles] == [p.name for p in SOLUTIONS]
    for profile in profiles:
        notes = (tmp_path / f"{profile.path.stem}.md").read_text()
        assert profile.exercises, profile.path.name  # every lesson has graded exercises
        for grade_id, _, _ in profile.exercises:
            assert f'catchup("{grade_id}")' in notes
        assert "BEGIN SOLUTION" not in notes and "HIDDEN TESTS" not in notes
    lesson00 = (tmp_path / "00_setup_and_first_run.md").read_text()
    header = nbformat.read(SOLUTIONS[0], as_version=4).cells[0].source   # as lesson 00 states it
    full, core = re.search(r"about (\d+) minutes in all; about (\d+) on the \*\*core path", header).groups()
    assert f"Planned time: {full} min in all, {core} on the core path" in lesson00
    assert "Deeper: skip it on a core-path day" in lesson00   # its sections off the core path say so
    assert all(p.planned for p in profiles), [p.path.name for p in profiles if not p.planned]
    assert "pause: learners work" in lesson00
    table = schedule_markdown(profiles)
    assert table.count("\n") == len(profiles) + 2
