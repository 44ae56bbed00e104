"""What every wrong-answer test shares (tests/test_wrong_answers_l00.py ... _l08.py): one real course kernel
running a lesson's solution notebook (tests/lesson_runner.py), and the verdicts a check cell gives an
answer tried in place of the solution's - rejected with a message that points at the fix, or accepted.
"""
from pathlib import Path

import pytest
from lesson_runner import LessonKernel

SOLUTIONS = Path(__file__).resolve().parent.parent / "solutions"


def lesson_kernel(notebook):
    """A module fixture: one course kernel running solutions/``notebook`` (``lesson = lesson_kernel("...")``)."""

    @pytest.fixture(scope="module")
    def lesson():
        with LessonKernel(SOLUTIONS / notebook) as kernel:
            yield kernel

    return lesson


def rejected_with(result, *words):
    """The check failed with the course's own CheckFailed, and its message holds every one of ``words``."""
    assert not result.passed and result.ename == "CheckFailed", result
    for word in words:
        assert word in result.message, (word, result.message)
    return result


def rejected(lesson, exercise, code, *words):
    """The check of ``exercise`` rejects ``code`` with a CheckFailed whose message holds every one of ``words``."""
    result = lesson.try_answer(exercise, code)
    assert not result.passed and result.ename == "CheckFailed", f"{exercise} accepted or crashed on:\n{code}\n{result}"
    for word in words:
        assert word in result.message, f"{exercise}: {word!r} not in the message for:\n{code}\n{result.message}"
    return result


def accepted(lesson, exercise, code):
    result = lesson.try_answer(exercise, code)
    assert result.passed and "✓" in result.output, f"{exercise} rejected a right answer:\n{code}\n{result}"
    return result


def solution_passes(lesson, exercise):
    """The solution's answer cell, then the whole test cell (hidden tests included), pass."""
    assert lesson.run_cell_of(f"{exercise}-answer").passed
    result = lesson.run_cell_of(exercise)
    assert result.passed and "✓" in result.output, result


def rejections(lesson, exercise, wrong):
    """What is wrong with how the check treats ``wrong`` ({label: (code, words its message must hold)})."""
    problems = []
    for label, (code, words) in wrong.items():
        result = lesson.try_answer(exercise, code)
        if result.passed or result.ename != "CheckFailed":
            problems.append(f"{label}: not rejected with CheckFailed ({result})")
        elif not all(word in result.message for word in words):
            problems.append(f"{label}: the message lacks {words}: {result.message}")
    return problems


def try_all(lesson, exercise, wrong, right):
    """Every wrong answer rejected with its words, every right one ({label: code}) accepted, the solution passing."""
    lesson.run_until(f"{exercise}-answer")
    problems = rejections(lesson, exercise, wrong)
    for label, code in right.items():
        result = lesson.try_answer(exercise, code)
        if not result.passed:
            problems.append(f"{label} (a right answer in another form) was rejected: {result}")
    assert lesson.run_cell_of(f"{exercise}-answer").passed
    solution = lesson.run_cell_of(exercise)
    assert solution.passed, solution
    assert not problems, "\n".join(problems)
