"""progress("l00"): which exercises passed, failed or were not run, in a real kernel and from a saved notebook."""
import copy
from pathlib import Path

import nbformat
import pytest
from lesson_runner import LessonKernel

from paddlecourse.cli import main
from paddlecourse.progress import ProgressError, digest, lesson_number, lesson_progress, notebook_progress

ROOT = Path(__file__).resolve().parent.parent
LESSON_00 = "00_setup_and_first_run.ipynb"
POINTS = [c.metadata.nbgrader["points"] for c in nbformat.read(ROOT / "solutions" / LESSON_00, as_version=4).cells
          if c.metadata.get("nbgrader", {}).get("grade")]


def test_digest_ignores_trailing_spaces_and_blank_lines():
    assert digest("a = 1  \nb = 2\n\n") == digest("\na = 1\nb = 2")
    assert digest("a = 1") != digest("a = 2")


@pytest.mark.parametrize("given, number", [("l02", "02"), ("L2", "02"), ("02", "02"), (2, "02"), ("lesson 8", "08")])
def test_lesson_ids_in_any_spelling(given, number):
    assert lesson_number(given) == number


def test_an_unknown_lesson_is_one_sentence(monkeypatch):
    monkeypatch.chdir(ROOT / "lessons")
    with pytest.raises(ProgressError, match=r"There is no lesson l42 here\. .*The lessons here are: l00, l01"):
        lesson_progress("l42")
    with pytest.raises(ProgressError, match="is not a lesson id"):
        lesson_progress("two")


def test_in_a_real_kernel_it_tells_passed_failed_and_not_run_apart():
    with LessonKernel(ROOT / "solutions" / LESSON_00) as lesson:
        lesson.run_until("l00-ex3-answer")  # l00-ex1's and l00-ex2's answer and test cells ran (and passed)
        wrong = lesson.try_answer("l00-ex3", "fits_the_server = ['numpy-2.4.6-cp311-cp311-win_amd64.whl']")
        assert wrong.ename == "CheckFailed", wrong
        shown = lesson.run_code('from paddlecourse import progress\nprogress("l00")')
        assert shown.passed, shown
        lines = shown.output.splitlines()
        assert lines[0] == f"Lesson l00: 2 of 4 exercises passed in this kernel ({POINTS[0] + POINTS[1]} of {sum(POINTS)} points)."
        # the core path (ex1) and the deeper part (ex2-ex4) apart, and each deeper row says so
        assert lines[1] == (f"  Core path: 1 of 1 passed ({POINTS[0]} of {POINTS[0]} points); deeper: 1 of 3 "
                            f"({POINTS[1]} of {sum(POINTS[1:])} points).")
        assert [line.split()[:2] for line in lines[2:6]] == [
            ["✓", "l00-ex1"], ["✓", "l00-ex2"], ["✗", "l00-ex3"], ["·", "l00-ex4"]]
        assert [line.endswith("(deeper)") for line in lines[2:6]] == [False, True, True, True]
        assert "`%catchup l00-ex3`" in shown.output
        # the real answer, then the test cell as it stands in the notebook: now it counts as passed
        lesson.run_cell_of("l00-ex3-answer")
        assert lesson.run_cell_of("l00-ex3").passed
        shown = lesson.run_code('progress("l00")')
        assert "✓ l00-ex3" in shown.output and "3 of 4 exercises passed" in shown.output
        # without an id: the open notebook's lesson, from the path Jupyter gives the kernel (__session__) ...
        bare = lesson.run_code('__session__ = "/home/ana/paddlecourse/lessons/00_setup_and_first_run.ipynb"\nprogress()')
        assert bare.output.splitlines()[0].startswith("Lesson l00: 3 of 4 exercises passed"), bare
        # ... and where there is none, one sentence that says what to type
        asked = lesson.run_code('del __session__\nprogress()')
        assert asked.passed and asked.output.strip() == "Which lesson? Give its id, as in the lesson's title: progress('l02').", asked


def test_the_student_copy_s_check_cells_are_recognised_too():
    with LessonKernel(ROOT / "lessons" / LESSON_00) as lesson:
        lesson.run_until("l00-ex1", allow_errors=True)  # the untouched answer cell raises NotImplementedError
        assert not lesson.run_cell_of("l00-ex1").passed
        shown = lesson.run_code('from paddlecourse import progress\nprogress("l00")')
        # a check that only found the answer cell's placeholder (as Run All over a skipped exercise leaves
        # it) is "no answer yet", not "failed"
        assert "○ l00-ex1" in shown.output and "no answer yet" in shown.output and "· l00-ex2" in shown.output, shown
        assert "✗" not in shown.output, shown


def test_saved_notebook_from_the_command_line(tmp_path, capsys):
    assert main(["progress", str(ROOT / "solutions" / LESSON_00)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{LESSON_00}: 4 of 4 exercises passed when it was last saved ({sum(POINTS)} of {sum(POINTS)} points).")
    assert main(["progress", str(ROOT / "lessons" / LESSON_00)]) == 0
    out = capsys.readouterr().out
    assert "0 of 4 exercises passed" in out and "no output in the saved notebook" in out

    notebook = nbformat.read(ROOT / "solutions" / LESSON_00, as_version=4)
    failed = copy.deepcopy(notebook)
    for cell in failed.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "l00-ex2":
            cell.outputs = [nbformat.v4.new_output("error", ename="CheckFailed", evalue="no", traceback=["no"])]
    saved = tmp_path / "mine.ipynb"
    nbformat.write(failed, saved)
    states = {row[0]: row[2] for row in notebook_progress(saved)}
    assert states == {"l00-ex1": "passed", "l00-ex2": "failed", "l00-ex3": "passed", "l00-ex4": "passed"}
    # a tool that clears the execution counts keeps the outputs: a test cell that printed its ✓ still passed
    for cell in failed.cells:
        if cell.cell_type == "code":
            cell.execution_count = None
    nbformat.write(failed, saved)
    states = {row[0]: row[2] for row in notebook_progress(saved)}
    assert states == {"l00-ex1": "passed", "l00-ex2": "failed", "l00-ex3": "passed", "l00-ex4": "passed"}


def test_a_saved_notebook_with_the_deeper_exercises_skipped(tmp_path, capsys):
    """A core-only learner leaves the Deeper answers blank: those show as "no answer yet (deeper)", not failed,
    and the next step says the core path is done instead of pointing at a Deeper exercise as if it were due."""
    notebook = nbformat.read(ROOT / "solutions" / LESSON_00, as_version=4)
    from paddlecourse.progress import deeper_in

    deeper = deeper_in(notebook.cells)
    assert deeper, "lesson 00 has a Deeper exercise"
    for cell in notebook.cells:
        grade_id = cell.metadata.get("nbgrader", {}).get("grade_id", "")
        if grade_id.removesuffix("-answer") in deeper:
            error = "NotImplementedError" if grade_id.endswith("-answer") else "CheckFailed"
            cell.outputs = [nbformat.v4.new_output("error", ename=error, evalue="", traceback=[error])]
    saved = tmp_path / LESSON_00
    nbformat.write(notebook, saved)
    assert main(["progress", str(saved), str(ROOT / "lessons" / LESSON_00)]) == 0   # two notebooks in one call
    out = capsys.readouterr().out
    for grade_id in deeper:
        assert f"○ {grade_id}" in out and "no answer yet (deeper)" in out, out
    assert "✗" not in out and "The core path is done. The deeper exercises are optional" in out, out
    assert out.count("exercises passed when it was last saved") == 2, out


def test_a_deeper_exercise_run_as_it_came_shows_one_quiet_line(tmp_path):
    """Run All over a skipped Deeper exercise: nothing from its answer cell, one plain line from its check, and
    both still raise (progress() says "no answer yet"); the saved notebook tells the command line the same. A
    core exercise, a check run later on its own, and anything while nbgrader executes stay as loud as before."""
    quiet = ("○ l00-ex2 is a Deeper exercise, left for a second pass: its answer cell is as it came, so there is "
             "nothing to check yet.")
    with LessonKernel(ROOT / "lessons" / LESSON_00) as lesson:
        lesson.run_until("l00-ex1-answer")
        core = lesson.run_cell_of("l00-ex1-answer")   # a core exercise's untouched answer: its sentence, in red
        assert core.ename == "NotImplementedError" and "still waits for you" in core.outputs[0]["traceback"][0], core
        lesson.run_until("l00-ex2-answer", allow_errors=True)
        answer = lesson.run_cell_of("l00-ex2-answer")
        assert answer.outputs == [], answer
        check = lesson.run_cell_of("l00-ex2")
        assert [o.get("output_type") for o in check.outputs] == ["display_data"], check
        assert check.outputs[0]["data"] == {"text/plain": quiet}
        assert check.outputs[0]["metadata"] == {"paddlecourse_skipped": "l00-ex2"}
        shown = lesson.run_code('from paddlecourse import progress\nprogress("l00")')
        assert "○ l00-ex2   1 point   no answer yet (deeper)" in shown.output, shown
        again = lesson.run_cell_of("l00-ex2")   # not right after its answer cell: the check's own sentence
        assert again.ename == "CheckFailed" and "has no answer yet" in again.message, again
        written = lesson.try_answer("l00-ex2", "one_off_install = None")   # an answer that gives None: the hint
        assert written.ename == "CheckFailed" and "has no answer yet" in written.message, written
        saved = copy.deepcopy(lesson.notebook)
        saved.cells[lesson.index_of("l00-ex2-answer")].outputs = answer.outputs
        saved.cells[lesson.index_of("l00-ex2")].outputs = check.outputs
        nbformat.write(saved, tmp_path / LESSON_00)
        assert {row[0]: row[2] for row in notebook_progress(tmp_path / LESSON_00)}["l00-ex2"] == "no answer yet"
        lesson.run_code("import os\nos.environ['NBGRADER_EXECUTION'] = 'validate'")
        graded_answer = lesson.run_cell_of("l00-ex2-answer")
        graded_check = lesson.run_cell_of("l00-ex2")
        assert graded_answer.ename == "NotImplementedError" and "still waits" in graded_answer.outputs[0]["traceback"][0]
        assert graded_check.ename == "CheckFailed" and "has no answer yet" in graded_check.message, graded_check


def test_piping_the_table_into_a_reader_that_stops_early_is_not_an_error():
    import subprocess
    import sys

    # `| head -1` closes the pipe early; here the pipe is closed before the first line, every time
    code = f"""
import os, sys
read_end, write_end = os.pipe()
os.close(read_end)
os.dup2(write_end, 1)
sys.stdout = os.fdopen(1, "w", buffering=1)
from paddlecourse.cli import main
sys.stderr.write(f"exit {{main(['progress', {str(ROOT / 'solutions' / LESSON_00)!r}])}}\\n")
"""
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert shown.stderr.strip().endswith("exit 0") and "Traceback" not in shown.stderr, shown.stderr


def test_the_command_line_says_what_is_wrong_with_a_bad_path(tmp_path, capsys):
    assert main(["progress", str(tmp_path / "missing.ipynb")]) == 1
    assert "is not a file" in capsys.readouterr().out
    (tmp_path / "notes.ipynb").write_text("not json")
    assert main(["progress", str(tmp_path / "notes.ipynb")]) == 1
    assert "could not be read as a Jupyter notebook" in capsys.readouterr().out


def test_setup_registers_the_recording_hook_once():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import paddlecourse; paddlecourse.setup(); paddlecourse.setup()")
        hooks = [cb for cb in shell.events.callbacks["post_run_cell"] if getattr(cb, "__name__", "") == "record_run"]
        assert len(hooks) == 1
    finally:
        InteractiveShell.clear_instance()


def test_progress_and_catchup_read_the_lessons_without_nbformat():
    """A lesson's last cell calls progress(): importing nbformat (and jsonschema's format checkers)
    there cost about two seconds per lesson run, so the learner-side readers use plain JSON."""
    import subprocess
    import sys

    probe = ("import sys\nfrom paddlecourse import progress\nfrom paddlecourse.catchup import solution_code\n"
             "progress('l02'); assert 'tracked' in solution_code('l02-ex1')\n"
             "print('nbformat' in sys.modules, 'jsonschema' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False False", done.stdout


def test_a_notebook_that_is_not_nbformat_4_is_skipped_like_a_broken_one(tmp_path):
    from paddlecourse.notebook_cells import read_cells

    old = tmp_path / "old.ipynb"
    old.write_text('{"nbformat": 3, "worksheets": []}')
    with pytest.raises(ValueError):
        read_cells(old)
    fine = tmp_path / "fine.ipynb"
    fine.write_text('{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": '
                    '[{"cell_type": "code", "source": ["a = 1\\n", "b = 2"], "metadata": {}}]}')
    (cell,) = read_cells(fine)
    assert (cell.cell_type, cell.source) == ("code", "a = 1\nb = 2")
