"""A learner who runs a student copy without answering anything sees only the course's own check failures.

Every cell of every lesson in lessons/ runs in one real course kernel per lesson, answer cells
untouched (they raise NotImplementedError, as nbgrader left them), continuing past errors. Then:

- every graded test cell fails (what `nbgrader validate --invert` checks: a blank answer scores
  nothing), and fails with CheckFailed - the one-sentence message that names what is missing - never
  with a NameError, TypeError, AttributeError, NotImplementedError or a Paddle error (nbgrader scores
  both 0, but only CheckFailed tells a learner what to do);
- every other code cell runs without an error: no teaching cell depends on an exercise, so a
  learner who is stuck can go on (this is also what running the student copies under nbval with
  the exercises left out would check).
"""
from pathlib import Path

import pytest
from lesson_runner import LessonKernel, grade_id

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))


def is_answer_cell(cell):
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


def is_test_cell(cell):
    grader = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grader.get("grade")) and not grader.get("solution")


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_an_untouched_lesson_runs_and_every_check_fails_only_with_checkfailed(lesson):
    with LessonKernel(lesson) as kernel:
        results = dict(kernel.run_all())
    checked, wrong, broken = 0, [], []
    for index, cell in enumerate(kernel.cells):
        if cell.cell_type != "code" or index not in results:
            continue
        result = results[index]
        first_line = (result.message.splitlines() or [""])[0][:200]
        if is_test_cell(cell):
            checked += 1
            if result.passed:
                wrong.append(f"{grade_id(cell)}: passes although its answer is blank")
            elif result.ename != "CheckFailed":
                wrong.append(f"{grade_id(cell)}: {result.ename}: {first_line}")
        elif not is_answer_cell(cell) and not result.passed:
            broken.append(f"cell {index}: {result.ename}: {first_line}")
    assert checked >= 3, f"{lesson.name} has only {checked} graded cells"
    assert not wrong, (f"{lesson.name}: {len(wrong)} of {checked} check cells do not fail with CheckFailed when the "
                       "answers are untouched:\n  " + "\n  ".join(wrong))
    assert not broken, (f"{lesson.name}: teaching cells fail after the exercises were left blank:\n  "
                        + "\n  ".join(broken))
