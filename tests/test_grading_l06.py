"""Lesson 06 graded end to end in the sandbox (nbgrader, the whole class in one command at --jobs 2).

Its ex1 (`reloaded`, a model loaded from files, and the files at `ex1_prefix`) travels as the files'
contents; its ex4 (`class FixedScorer(Scorer)`) as what its test needs of the class (solution cells say
so in their metadata). Asserted: honest answers in two forms get every point; wrong ones, blank ones, a
class behind hooks that swallow every error, an ex1 saved elsewhere, and hooks that print a pass for a
class that is not there get none; a class the student's run never reached is not graded with the
solution's (the judge's run held it) and the submission goes to a hand check; no hidden test reaches what
the student sees.
"""
import sys
from pathlib import Path

import nbformat
import pytest

from paddlecourse.teach import grading
from paddlecourse.teach.grading.cells import grader

sys.path.insert(0, str(Path(__file__).parent))
from submissions import l06  # noqa: E402
from grading_class import JOBS, hand_in, released, sandbox_or_skip  # noqa: E402

ASSIGNMENT, NOTEBOOK = "l06", "06_export.ipynb"
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    sandbox_or_skip()
    base = tmp_path_factory.mktemp("l06")
    course, student_copy = released(base, ASSIGNMENT, NOTEBOOK)
    hand_in(base, course, ASSIGNMENT, NOTEBOOK, student_copy, l06.SUBMISSIONS)
    report = grading.grade_class(course, ASSIGNMENT, jobs=JOBS)
    print(report)
    return course, report


def test_scores(graded):
    _, report = graded
    assert {g.student: g.score for g in report.grades} == {s: float(v) for s, v in l06.EXPECTED.items()}, str(report)
    assert all(g.max_score == l06.MAX_SCORE for g in report.grades)


def test_only_the_run_that_stopped_goes_to_a_hand_check(graded):
    _, report = graded
    assert {g.student for g in report.grades if g.needs_look} == l06.NEEDS_LOOK, str(report)


def test_the_class_travels_as_what_its_test_needs_and_the_notes_say_so(graded):
    course, report = graded
    autograded = nbformat.read(course / "autograded" / "correct" / ASSIGNMENT / NOTEBOOK, as_version=4)
    notes = autograded.cells[0].source
    assert "Test l06-ex4 uses your class through what was observed of it in your run" in notes, notes
    # nothing of a verdict comes from the student's kernel: hooks that print a pass and clear every error
    # leave ex4 failed, with the judge's own message (FixedScorer is None: "no answer yet")
    hooks = nbformat.read(course / "autograded" / "no_class_behind_hooks" / ASSIGNMENT / NOTEBOOK, as_version=4)
    shown = {grader(c).get("grade_id"): c.outputs for c in hooks.cells if grader(c).get("grade_id")}
    assert any(o.get("output_type") == "error" for o in shown["l06-ex4"]), shown["l06-ex4"]
    assert not any(o.get("output_type") == "error" for o in shown["l06-ex1"]), shown["l06-ex1"]


def test_feedback_shows_no_hidden_test(graded):
    course, _ = graded
    grading.record(course)
    pages = grading.generate_feedback(course, ASSIGNMENT, release=False)
    assert not pages.failed and len(pages) == len(l06.SUBMISSIONS)
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for bit in ["BEGIN HIDDEN TESTS", "Recomputed without the check functions", "_saved_input_shapes",
                    "dropout must still act in train() mode"]:
            assert bit not in html, (page, bit)
