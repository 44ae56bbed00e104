"""A learner who runs a student copy without answering anything sees only the course's own check failures,
in English and in Chinese.

Every cell of every lesson in lessons/ runs in one real course kernel per lesson, answer cells
untouched (they raise NotImplementedError, as nbgrader left them), continuing past errors. Then:

- every graded test cell of a core exercise fails (what `nbgrader validate --invert` checks: a blank answer
  scores nothing), and fails with CheckFailed - the one-sentence message that names what is missing - never
  with a NameError, TypeError, AttributeError, NotImplementedError or a Paddle error (nbgrader scores
  both 0, but only CheckFailed tells a learner what to do); a Deeper exercise's check, run right after its
  untouched answer cell, shows only its one quiet line (paddlecourse.skipping: it still raises, and while
  nbgrader executes it fails aloud; tests/test_progress.py and tests/test_judge_verdict.py hold that);
- each test cell, run once more right after with the library speaking Chinese (what the Chinese
  edition's first cell, setup(lang="zh"), chooses), fails with a CheckFailed in Chinese. The Chinese
  student copy's code cells are these ones (tests/test_translations.py), so the lesson itself is not
  run a second time: only the check cells, which with a blank answer stop at their first check;
- every other code cell runs without an error: no teaching cell depends on an exercise, so a
  learner who is stuck can go on (this is also what running the student copies under nbval with
  the exercises left out would check);
- every cell of a Deeper exercise that fails blank is tagged `raises-exception`, so JupyterLab's Run All
  (which stops at the first error of an untagged cell) goes past it to the core sections after it, as the
  Deeper mark promises; no core exercise is tagged: Run All stops where a core learner has work to do.
"""
import ast
import re
from pathlib import Path

import pytest
from lesson_runner import LessonKernel, grade_id

from paddlecourse.progress import deeper_in
from paddlecourse.skipping import skipped_in
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parent.parent
LESSONS = lesson_paths(ROOT / "lessons")
SPEAK = "from paddlecourse import language as _language\n_language.set_language({lang!r})"


def is_answer_cell(cell):
    return bool(cell.get("metadata", {}).get("nbgrader", {}).get("solution"))


def is_test_cell(cell):
    grader = cell.get("metadata", {}).get("nbgrader", {})
    return bool(grader.get("grade")) and not grader.get("solution")


def tags(cell):
    return cell.get("metadata", {}).get("tags", [])


def has_chinese(text):
    return bool(re.search(r"[\u4e00-\u9fff]", text))


def first_line(result):
    return (result.message.splitlines() or [""])[0][:200]


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_an_untouched_lesson_runs_and_every_check_fails_only_with_checkfailed_in_both_languages(lesson):
    checked, wrong, broken, not_chinese, run_all = 0, [], [], [], []
    with LessonKernel(lesson) as kernel:
        deeper = deeper_in(kernel.cells)
        exercise_of, pending = {}, []   # cell index -> grade id: an answer cell belongs to the test cell after it
        for index, cell in enumerate(kernel.cells):
            if is_answer_cell(cell):
                pending.append(index)
            elif is_test_cell(cell):
                exercise_of.update(dict.fromkeys(pending + [index], grade_id(cell)))
                pending = []
        for index, cell in enumerate(kernel.cells):
            result = kernel.run_cell(index)
            if cell.cell_type != "code":
                continue
            if is_answer_cell(cell) or is_test_cell(cell):
                exercise = exercise_of.get(index)
                tagged = "raises-exception" in tags(cell)
                if exercise in deeper and not tagged:   # it raises, quietly or not
                    run_all.append(f"cell {index} ({exercise}, Deeper) stops Run All: tag it raises-exception")
                elif exercise not in deeper and tagged:
                    run_all.append(f"cell {index} ({exercise}, core) is tagged raises-exception: Run All must stop there")
            if is_test_cell(cell):
                checked += 1
                quiet = skipped_in(result.outputs)
                if grade_id(cell) in deeper:   # run right after its untouched answer: one plain line, no error
                    if quiet != grade_id(cell) or result.ename or len(result.outputs) != 1:
                        wrong.append(f"{grade_id(cell)} (Deeper): not its one quiet line: {result.ename or 'passed'}: "
                                     f"{first_line(result) or result.output[:200]}")
                elif result.passed:
                    wrong.append(f"{grade_id(cell)}: passes although its answer is blank")
                elif result.ename != "CheckFailed":
                    wrong.append(f"{grade_id(cell)}: {result.ename}: {first_line(result)}")
                kernel.run_code(SPEAK.format(lang="zh"), index)
                chinese = kernel.run_code(cell.source, index)
                kernel.run_code(SPEAK.format(lang="en"), index)
                if chinese.ename != "CheckFailed" or not has_chinese(chinese.message):
                    not_chinese.append(f"{grade_id(cell)}: {chinese.ename or 'passed'}: {first_line(chinese)}")
            elif not is_answer_cell(cell) and not result.passed:
                broken.append(f"cell {index}: {result.ename}: {first_line(result)}")
        # what progress() tells the learner who left every exercise blank: "no answer yet", never "failed"
        states = kernel.run_code("from paddlecourse.progress import lesson_progress as _lp\n"
                                 f"print(dict((g, s) for g, _p, s, _e in _lp({lesson.name[:2]!r})))")
        not_waiting = {g: s for g, s in ast.literal_eval(states.output.strip()).items() if s != "no answer yet"}
    assert checked >= 3, f"{lesson.name} has only {checked} graded cells"
    assert not not_waiting, f"{lesson.name}: progress() of the blank lesson says {not_waiting}, not 'no answer yet'"
    assert not wrong, (f"{lesson.name}: {len(wrong)} of {checked} check cells do not fail with CheckFailed when the "
                       "answers are untouched:\n  " + "\n  ".join(wrong))
    assert not broken, (f"{lesson.name}: teaching cells fail after the exercises were left blank:\n  "
                        + "\n  ".join(broken))
    assert not run_all, f"{lesson.name}: JupyterLab's Run All:\n  " + "\n  ".join(run_all)
    assert not not_chinese, f"{lesson.name}: checks not failing in Chinese:\n  " + "\n  ".join(not_chinese)
