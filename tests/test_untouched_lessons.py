"""A learner who runs a student copy without answering anything sees only the course's own check failures.

Every cell of every lesson in lessons/ runs in one real course kernel per lesson, answer cells
untouched (they raise NotImplementedError, as nbgrader left them), continuing past errors. Every
graded test cell must then fail with CheckFailed - the one-sentence message that names what is
missing - never with a NameError, TypeError, AttributeError, NotImplementedError or a Paddle error
(nbgrader scores both 0, but only CheckFailed tells a learner what to do).
"""
from pathlib import Path

import pytest
from lesson_runner import LessonKernel, grade_id

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "lessons").glob("[0-9][0-9]_*.ipynb"))


def is_test_cell(cell):
    grader = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grader.get("grade")) and not grader.get("solution")


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_check_of_an_untouched_lesson_fails_only_with_checkfailed(lesson):
    with LessonKernel(lesson) as kernel:
        results = dict(kernel.run_all())
    checked, wrong = 0, []
    for index, cell in enumerate(kernel.cells):
        if not is_test_cell(cell):
            continue
        checked += 1
        result = results[index]
        if not result.passed and result.ename != "CheckFailed":
            first_line = (result.message.splitlines() or [""])[0][:200]
            wrong.append(f"{grade_id(cell)}: {result.ename}: {first_line}")
    assert checked >= 3, f"{lesson.name} has only {checked} graded cells"
    assert not wrong, (f"{lesson.name}: {len(wrong)} of {checked} check cells fail with something other than "
                       "CheckFailed when the answers are untouched:\n  " + "\n  ".join(wrong))
