"""Catch-up: one line loads one exercise's solution as a new cell; off under nbgrader or by the instructor."""
import queue
from pathlib import Path

import nbformat
import pytest

from paddlecourse import catchup as catchup_module
from paddlecourse.catchup import CatchUpError, catchup, disabled_reason, parse_exercise, solution_code
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def catchup_on(monkeypatch):
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    monkeypatch.delenv("PADDLECOURSE_CATCHUP", raising=False)
    monkeypatch.delenv("PADDLECOURSE_SOLUTIONS", raising=False)


def all_exercises():
    """Every answer cell of every lesson that exists (later lessons are covered without new code)."""
    found = []
    for path in lesson_paths(ROOT / "solutions"):
        for cell in nbformat.read(path, as_version=4).cells:
            grader = cell.metadata.get("nbgrader", {})
            if grader.get("solution") and grader.get("grade_id", "").endswith("-answer"):
                found.append(grader["grade_id"][: -len("-answer")])
    return found


def test_lesson_00_is_covered():
    assert {"l00-ex1", "l00-ex2", "l00-ex3", "l00-ex4"} <= set(all_exercises())


@pytest.mark.parametrize("exercise", all_exercises())
def test_every_exercise_has_a_loadable_solution(exercise):
    code = solution_code(exercise)
    assert code.strip() and "BEGIN SOLUTION" not in code and "END SOLUTION" not in code
    compile(code, exercise, "exec")


def test_solution_text_of_lesson_00():
    assert "a.stop_gradient = False" in solution_code("l00-ex1")
    assert solution_code("L00-EX2-answer") == solution_code("l00-ex2")


@pytest.mark.parametrize("bad", ["ex1", "lesson0-ex1", "l00", "", "l00-ex99"])
def test_unknown_exercises_say_what_to_type(bad):
    with pytest.raises(CatchUpError, match="exercise"):
        catchup(bad)


def test_outside_jupyter_it_prints_the_code(capsys):
    code = catchup("l00-ex2")
    assert code == solution_code("l00-ex2")
    assert "Catch-up: the solution of l00-ex2" in capsys.readouterr().out


@pytest.mark.parametrize("variable,value,words", [
    ("NBGRADER_EXECUTION", "autograde", "while nbgrader runs"),
    ("NBGRADER_EXECUTION", "validate", "while nbgrader runs"),
    ("PADDLECOURSE_CATCHUP", "off", "disabled by your instructor"),
    ("PADDLECOURSE_CATCHUP", "OFF", "disabled by your instructor"),
])
def test_disabled_says_so_and_gives_nothing(monkeypatch, capsys, variable, value, words):
    monkeypatch.setenv(variable, value)
    assert words in disabled_reason()
    assert catchup("l00-ex1") is None
    out = capsys.readouterr().out
    assert words in out and "Catch-up is disabled" in out
    assert "stop_gradient" not in out


def test_solutions_folder_can_be_named(monkeypatch, tmp_path):
    lesson = nbformat.read(ROOT / "solutions" / "00_setup_and_first_run.ipynb", as_version=4)
    for cell in lesson.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "l00-ex2-answer":
            cell.source = "### BEGIN SOLUTION\none_off_install = 'from the named folder'\n### END SOLUTION"
    nbformat.write(lesson, tmp_path / "00_setup_and_first_run.ipynb")
    monkeypatch.setenv("PADDLECOURSE_SOLUTIONS", str(tmp_path))
    assert solution_code("l00-ex2") == "one_off_install = 'from the named folder'"


def test_parse_exercise():
    assert parse_exercise(" l03-ex2 ") == ("03", "l03-ex2")


# ---------------------------------------------------------------- in a real kernel

@pytest.fixture(scope="module")
def kernel():
    from jupyter_client.manager import start_new_kernel

    manager, client = start_new_kernel(kernel_name="paddlecourse", cwd=str(ROOT / "lessons"))
    try:
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def run(client, code, env=None):
    """Execute code; returns (stdout text, the reply's set_next_input payloads)."""
    msg_id = client.execute(code)
    reply = client.get_shell_msg(timeout=120)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = client.get_shell_msg(timeout=120)
    out = []
    while True:
        try:
            msg = client.get_iopub_msg(timeout=10)
        except queue.Empty:
            break
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "stream":
            out.append(msg["content"]["text"])
        if msg["msg_type"] == "error":
            out.append(msg["content"]["ename"] + ": " + msg["content"]["evalue"])
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    payloads = [p for p in reply["content"].get("payload", []) if p.get("source") == "set_next_input"]
    return "".join(out), payloads


def test_in_a_kernel_it_adds_a_new_cell_below_and_touches_nothing_else(kernel):
    out, payloads = run(kernel, "import paddlecourse.catchup as cu\nmy_work = 'kept'\ncu.catchup('l00-ex2')")
    assert "in a new cell below" in out
    assert len(payloads) == 1 and payloads[0]["replace"] is False
    assert payloads[0]["text"].startswith("# Catch-up: the solution of l00-ex2")
    assert "one_off_install" in payloads[0]["text"]
    out, _ = run(kernel, "print(my_work, 'one_off_install' in globals())")
    assert out.strip() == "kept False"  # nothing ran, nothing was overwritten


def test_in_a_kernel_the_magic_and_run_true(kernel):
    run(kernel, "import paddlecourse\npaddle = paddlecourse.setup()\n%load_ext paddlecourse.catchup")
    out, payloads = run(kernel, "%catchup l00-ex1 --run")
    assert "Ran the solution of l00-ex1" in out, out
    assert payloads and payloads[0]["replace"] is False
    out, _ = run(kernel, "print(a.grad is not None, list(a.grad.shape))")
    assert out.strip() == "True [4, 3]"


def test_in_a_kernel_it_is_off_when_the_instructor_says_so(kernel):
    out, payloads = run(kernel, "import os\nos.environ['PADDLECOURSE_CATCHUP'] = 'off'\n"
                                "import paddlecourse.catchup as cu\ncu.catchup('l00-ex3')\n"
                                "del os.environ['PADDLECOURSE_CATCHUP']")
    assert "disabled by your instructor" in out and payloads == []


@pytest.mark.parametrize("typo, meant", [
    ("l3-ex3", "Did you mean l03-ex3?"),
    ("l03ex3", "Did you mean l03-ex3?"),
    ("L0-EX1", "Did you mean l00-ex1?"),
    ("l00-ex9", "Did you mean l00-ex1, l00-ex2, l00-ex3 or l00-ex4?"),
    ("l00", "Did you mean l00-ex1, l00-ex2, l00-ex3 or l00-ex4?"),
])
def test_a_typo_gets_the_nearest_real_ids_and_no_path(typo, meant):
    with pytest.raises(CatchUpError) as failure:
        catchup(typo)
    message = str(failure.value)
    assert meant in message
    assert str(ROOT) not in message and "solutions" not in message


def test_the_catchup_error_renders_as_one_line_in_ipython():
    error = CatchUpError("There is no exercise l00-ex9 in lesson 00.")
    assert error._render_traceback_() == ["CatchUpError: There is no exercise l00-ex9 in lesson 00."]


def test_a_short_id_is_read_in_the_lesson_that_ran_last(monkeypatch):
    """`%catchup ex2` in lesson 02 suggests l02-ex2, not the other lessons' second exercises."""
    import importlib

    progress = importlib.import_module("paddlecourse.progress")   # the module (the package exports the function)
    lesson = nbformat.read(ROOT / "lessons" / "02_autograd_by_hand.ipynb", as_version=4)
    code = [c.source for c in lesson.cells if c.cell_type == "code" and "nbgrader" not in c.metadata]
    # the set-up cell (the same in every lesson), then one of lesson 02's own cells
    monkeypatch.setattr(progress, "_RUNS", {progress.digest(code[0]): (True, ""), progress.digest(code[3]): (True, "")})
    with pytest.raises(CatchUpError) as raised:
        catchup("ex2")
    assert "Did you mean l02-ex2?" in str(raised.value), str(raised.value)
