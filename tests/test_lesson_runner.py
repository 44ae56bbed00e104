"""The wrong-answer test helper: a real course kernel runs a lesson and tries answers in place of the solution."""
from pathlib import Path

from lesson_runner import LessonKernel, visible_part

ROOT = Path(__file__).resolve().parent.parent


def test_visible_part_stops_at_the_hidden_tests():
    assert visible_part("check(a)\n### BEGIN HIDDEN TESTS\nassert a\n### END HIDDEN TESTS") == "check(a)"


def test_wrong_and_right_answers_in_one_kernel():
    with LessonKernel(ROOT / "solutions" / "00_setup_and_first_run.ipynb") as lesson:
        lesson.run_until("l00-ex3-answer")
        wrong = lesson.try_answer("l00-ex3", "fits_the_server = None")
        assert not wrong.passed and wrong.ename == "CheckFailed", wrong
        assert "`fits_the_server` has no answer yet" in wrong.message
        broken = lesson.try_answer("l00-ex3", "fits_the_server = undefined_name")
        assert broken.answer_error.startswith("NameError"), broken
        assert lesson.run_cell_of("l00-ex3-answer").passed
        right = lesson.run_cell_of("l00-ex3")
        assert right.passed and "✓" in right.output, right
        printed = lesson.run_code("print(6 * 7)")
        assert printed.passed and printed.output == "42\n"
