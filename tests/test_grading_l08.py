"""Lesson 08 graded end to end in the sandbox: function answers the tests hand lesson objects (a model to
train and return, a model to export to files, batches to predict, a BatchNorm model to evaluate) are
recorded where the student's code ran and replayed by the trusted judge (grading/effects.py).

Honest submissions (right, wrong, noisy on stderr) get exactly what they earned; hostile ones - hooks and
patches installed when a function is called, a function printing every cell and its caller's source, forged
records and forged runner lines, a submission linked to the instructor's source notebook - get nothing they
did not earn, and no feedback shows a hidden test.
"""
import sys
import time
from pathlib import Path

import pytest

from paddlecourse.teach import grading

sys.path.insert(0, str(Path(__file__).parent))
from submissions import l08  # noqa: E402
from grading_class import JOBS, digests, hand_in, released, sandbox_or_skip  # noqa: E402

ASSIGNMENT, NOTEBOOK = "l08", "08_choosing_and_fixing.ipynb"
ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    sandbox_or_skip()
    start = time.monotonic()
    base = tmp_path_factory.mktemp("l08")
    course, student_copy = released(base, ASSIGNMENT, NOTEBOOK)

    def link_to_source(student, spec):
        if spec.get("symlink_to_source"):   # the exchange's inbound is writable by students
            [handed_in] = (course / "exchange" / grading.COURSE_ID / "inbound").glob(f"{student}+{ASSIGNMENT}+*")
            (handed_in / NOTEBOOK).unlink()
            (handed_in / NOTEBOOK).symlink_to(course / "source" / ASSIGNMENT / NOTEBOOK)

    hand_in(base, course, ASSIGNMENT, NOTEBOOK, student_copy, l08.SPECS, after_submit=link_to_source)
    guarded = [course / "nbgrader_config.py", *sorted((course / "source").rglob("*"))]
    before = digests(guarded)
    report = grading.grade_class(course, ASSIGNMENT, jobs=JOBS)
    print(report)
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    (ROOT / "test-artifacts" / "l08-grading-times.txt").write_text(
        f"{report}\nfixture wall time {time.monotonic() - start:.1f} s\n", encoding="utf-8")
    return course, report, before, guarded


def test_scores(graded):
    _, report, *_ = graded
    assert {g.student: g.score for g in report.grades} == {s: float(v) for s, v in l08.EXPECTED.items()}, str(report)
    assert all(g.max_score == l08.MAX_SCORE for g in report.grades)


def test_honest_students_are_not_sent_to_a_hand_check(graded):
    _, report, *_ = graded
    grades = {g.student: g for g in report.grades}
    for student in l08.HONEST:
        assert grades[student].status == "graded", (student, grades[student].status)
    assert any("recorded" in note for note in grades["correct"].notes)


def test_a_submission_linked_to_the_source_notebook_is_refused(graded):
    course, report, *_ = graded
    symlinked = next(g for g in report.grades if g.student == "symlinked")
    assert symlinked.score == 0 and symlinked.needs_look
    assert "symbolic link" in symlinked.status, symlinked.status
    assert (course / "submitted" / "symlinked" / ASSIGNMENT / ".paddlecourse-refused").is_file()


def test_nothing_outside_the_sandbox_changed_and_feedback_shows_no_hidden_test(graded):
    course, _, before, guarded = graded
    assert digests(guarded) == before
    grading.record(course)
    pages = grading.generate_feedback(course, ASSIGNMENT, release=False)
    assert len(pages) == len(l08.SPECS)
    hidden = ["BEGIN HIDDEN TESTS", "Recomputed without the check functions", "for _batch in (2, 3, 9)",
              "assert len(fixed_losses) == 30", "_sample = paddle.randn"]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for bit in hidden:
            assert bit not in html, (page, bit)
        assert "FORGED" not in html
    leaky = next(p for p in pages if "leaks_hidden" in str(p)).read_text(encoding="utf-8")
    assert "BEGIN SOLUTION" not in leaky and "a warning from my answer" not in leaky
