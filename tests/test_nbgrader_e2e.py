"""End to end with real nbgrader and the sandbox on: create a course, release lesson 00, students
submit (correct, another form, blank, wrong, an infinite loop then SystemExit, a loop that swallows
the interrupt, a deleted and an edited test cell, faked check functions, a kernel that exits, catch-up
asked to fill every answer, an honest but noisy one with copy-pasted cells, an output flood and an
unreadable file), the class is graded in ONE command with --jobs 2, grades are exported and feedback
generated - and no feedback shows a hidden test, nothing outside a sandbox changes.

The attacks of issue 13 (hooks and lying objects, a forged report, reaching for the course directory,
another student, the exchange and the network) are lesson 02's class (test_grading_l02.py): here they
repeated the same attacks.py on a second lesson, for a minute of the grading lane.
Takes about 2 minutes alone (two sandboxed runs per submission, two at a time);
the cheating submissions of every lesson are test_cheating_submissions.py.
Per-submission times go to test-artifacts/nbgrader-grading-times.txt.
"""
import csv
import sys
from pathlib import Path

import pytest

from paddlecourse.teach import grading as instructor

sys.path.insert(0, str(Path(__file__).parent))
from grading_class import ARTIFACTS, JOBS, digests, hand_in, released, sandbox_or_skip  # noqa: E402
from submissions import l00  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT = "l00"
NOTEBOOK = "00_setup_and_first_run.ipynb"

pytestmark = pytest.mark.timeout(900)


@pytest.fixture(scope="module")
def graded_class(tmp_path_factory):
    sandbox_or_skip()
    base = tmp_path_factory.mktemp("nbgrader")
    course, student_copy = released(base, ASSIGNMENT, NOTEBOOK)
    hostile, hostile_expected = l00.hostile()
    submissions = {**l00.SUBMISSIONS, **hostile}
    expected = {**l00.EXPECTED, **hostile_expected}
    hand_in(base, course, ASSIGNMENT, NOTEBOOK, student_copy, submissions)

    guarded = [course / "nbgrader_config.py", course / "gradebook.db", *sorted((course / "source").rglob("*")),
               *sorted((course / "submitted").rglob("*.ipynb"))]
    before = digests(guarded)
    # the whole class, one command; with `--timeout 8` (an instructor's option) rather than 15 s a cell, so the
    # two that never end spin for half as long: lesson 00's slowest cell takes 1.3 s of its kernel's own time
    report = instructor.grade_class(course, ASSIGNMENT, jobs=JOBS, timeout=8)
    after = digests([p for p in guarded if p.name != "gradebook.db"])
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "nbgrader-grading-times.txt").write_text(str(report) + "\n", encoding="utf-8")
    print(report)
    return course, report, expected, {"before": before, "after": after}


def test_every_submission_gets_exactly_the_points_it_earned(graded_class):
    _, report, expected, _ = graded_class
    got = {g.student: g.score for g in report.grades}
    assert got == {student: float(score) for student, score in expected.items()}, str(report)
    assert all(g.max_score == l00.MAX_SCORE for g in report.grades if not g.failed)
    # the honest copies answer alike: their judge's runs are shared, and still every score above is exact
    assert report.judge_runs_shared >= 1, str(report)


def test_stopped_and_unreadable_submissions_are_listed_with_the_reason(graded_class):
    _, report, _, _ = graded_class
    grades = {g.student: g for g in report.grades}
    assert {s for s, g in grades.items() if g.failed} == {"unreadable"}, str(report)
    assert "unreadable notebook" in grades["unreadable"].status
    look = {s for s, g in grades.items() if g.needs_look}
    # the stopped ones must be listed; a hostile one may be (its hooks can hang a lesson cell); an honest one never
    assert l00.NEEDS_LOOK | {"unreadable"} <= look, str(report)
    assert not look & {"correct", "other_form", "blank", "wrong", "honest_noise_and_copies", "floods_output"}, str(report)
    assert "Look at these by hand" in str(report)
    assert "every submission ran in the sandbox" in str(report)


def test_honest_copies_are_graded_and_explained(graded_class):
    course, report, _, _ = graded_class
    grades = {g.student: g for g in report.grades}
    notes = " ".join(grades["honest_noise_and_copies"].notes)
    assert "l00-ex2-answer appears 2 times" in notes and "l00-ex3 appears 2 times" in notes, notes


def test_no_submission_touches_the_course_or_other_students(graded_class):
    course, report, _, guards = graded_class
    changed = [p for p, digest in guards["after"].items() if guards["before"].get(p) != digest]
    assert not changed, changed
    assert instructor.differences(course) == []  # config, source/ and manual scores as recorded


def test_the_recorded_notebooks_stay_small(graded_class):
    course, _, _, _ = graded_class
    flooded = course / "autograded" / "floods_output" / ASSIGNMENT / NOTEBOOK
    assert flooded.stat().st_size < 1 << 20, flooded.stat().st_size


def test_a_submission_that_never_ends_is_stopped_by_the_cell_limit(graded_class):
    # What is asserted is what the limits did, not how long they took: a busy machine makes every
    # run slower (benchmarks/grade_class.py reports the times, quiet and loaded).
    _, report, _, _ = graded_class
    grades = {g.student: g for g in report.grades}
    stopped = grades["swallows_interrupt"]
    assert stopped.needs_look and "did not stop" in f"{stopped.status} {' '.join(stopped.notes)}", str(report)
    # interrupted; the cells after it still graded (ex4, which raised SystemExit, scores nothing)
    assert grades["infinite_loop_and_system_exit"].score == 3, str(report)


def test_deleted_and_edited_test_cells_are_graded_as_the_instructor_wrote_them(graded_class):
    _, report, _, _ = graded_class
    notes = " ".join({g.student: g for g in report.grades}["tampered_test_cells"].notes)
    assert "Test cell l00-ex1 was missing; it was put back and graded." in notes, notes
    assert "Test cell l00-ex2 was changed; the instructor's version was graded." in notes, notes


def test_grades_export_to_csv(graded_class):
    course, _, expected, _ = graded_class
    path = instructor.export_grades(course)
    every_row = list(csv.DictReader(path.open()))
    # the gradebook holds every lesson (create generates them all); only the one handed out has rows
    assert {row["assignment"] for row in every_row} == {ASSIGNMENT}
    rows = {row["student_id"]: row for row in every_row}
    assert set(rows) == set(expected)
    for student, score in expected.items():
        assert float(rows[student]["score"]) == score, student
        assert float(rows[student]["max_score"]) == l00.MAX_SCORE
    # the core path's points beside the lesson's: lesson 00's core exercise is ex1 (2 points)
    assert float(rows["correct"]["core_score"]) == float(rows["correct"]["core_max_score"]) == 2
    assert float(rows["blank"]["core_score"]) == 0 and float(rows["blank"]["core_max_score"]) == 2


def test_feedback_never_shows_hidden_tests(graded_class):
    course, _, _, _ = graded_class
    pages = instructor.generate_feedback(course, ASSIGNMENT)
    graded = {g.student for g in graded_class[1].grades if not g.failed}
    assert {p.parent.parent.name for p in pages} == graded
    solution = (ROOT / "solutions" / NOTEBOOK).read_text()
    assert "Recomputed without the check functions" in solution  # what must not leak
    hidden_bits = ["BEGIN HIDDEN TESTS", "Recomputed without the check functions", "hidden_steps",
                   "b.numpy().sum(axis=1)[None, :]", "assert not isinstance(fits_the_server"]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        for bit in hidden_bits:
            assert bit not in html.replace("&quot;", '"').replace("&#x27;", "'"), (page, bit)
    wrong = (course / "feedback" / "wrong" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")).read_text()
    # visible checks still explain themselves; hidden ones only say that they failed
    assert "CheckFailed" in wrong and "Hint:" in wrong
    fake = (course / "feedback" / "fake_checks" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html")).read_text()
    assert "CheckFailed" in fake  # the judge ran the real checks, whatever the submission replaced
    copies = (course / "feedback" / "honest_noise_and_copies" / ASSIGNMENT / NOTEBOOK.replace(".ipynb", ".html"))
    assert "the last copy was graded" in copies.read_text()
    released = list((course / "exchange" / instructor.COURSE_ID / "feedback").glob("*.html"))
    assert len(released) == len(graded)


def test_hidden_test_filter_on_a_traceback():
    """The feedback filter alone: a failing hidden assert keeps neither its code nor its text."""
    from nbformat.v4 import new_code_cell, new_output

    source = "check(x)\n### BEGIN HIDDEN TESTS\nassert x == 42, f'x should be 42 not {x}'\n### END HIDDEN TESTS"
    cell = new_code_cell(source, metadata={"nbgrader": {"grade": True, "grade_id": "t", "points": 1}})
    cell.outputs = [new_output("error", ename="AssertionError", evalue="x should be 42 not 41", traceback=[
        "\x1b[0;31mAssertionError\x1b[0m Traceback (most recent call last)",
        "Cell \x1b[0;32mIn[7], line 3\x1b[0m\n\x1b[1;32m      1\x1b[0m check(x)\n----> 3 assert x == 42",
        "\x1b[0;31mAssertionError\x1b[0m: x should be 42 not 41",
    ])]
    out, _ = instructor.HideHiddenTests().preprocess_cell(cell, {}, 0)
    assert "42" not in out.source and "42" not in str(out.outputs)
    assert out.outputs[0].ename == "HiddenTestFailed"
    visible = new_code_cell(source, metadata={"nbgrader": {"grade": True, "grade_id": "t", "points": 1}})
    visible.outputs = [new_output("error", ename="CheckFailed", evalue="x: found 41.\nHint: add one", traceback=[
        "Cell In[7], line 1\n----> 1 check(x)\n      2 ### BEGIN HIDDEN TESTS\n      3 assert x == 42",
    ])]
    out, _ = instructor.HideHiddenTests().preprocess_cell(visible, {}, 0)
    assert out.outputs[0].traceback == ["CheckFailed: x: found 41.\nHint: add one"]
