"""Every lesson, run as the autograder runs a cheating submission (check functions faked, every answer None):
no test cell may pass, and no hidden test may call a check function a submission can replace.

A room of its own, out of the grading lane: each lesson runs in one plain kernel (no sandbox, no nbgrader
start-up), so these fill the other worker's gaps instead of waiting behind the class tests.
"""
from pathlib import Path

import nbformat
import pytest

from paddlecourse.teach import grading as instructor
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.timeout(900)

LESSONS = lesson_paths(ROOT / "solutions")


FAKE_CHECKS = """import paddlecourse, paddlecourse.checks
for _name in ("check_value", "check_shape", "check_dtype", "check_grad", "check_answer", "check_true"):
    setattr(paddlecourse, _name, lambda *args, **kwargs: print("✓ (faked)"))
    setattr(paddlecourse.checks, _name, lambda *args, **kwargs: print("✓ (faked)"))
"""


def tampered(solution):
    """The autograder's view of a cheating submission: checks faked, every answer set to None.

    Each name an answer cell defines (variables, functions, classes) becomes None, or a
    function returning None; the test cells keep their hidden tests, as after autograding.
    """
    import ast

    notebook = nbformat.from_dict(solution)
    first = True
    for cell in notebook.cells:
        grader = cell.metadata.get("nbgrader", {})
        if not grader.get("solution") or grader.get("grade"):
            continue
        names, functions = [], []
        for node in ast.parse(cell.source).body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                functions.append(node.name)
            targets = node.targets if isinstance(node, ast.Assign) else (
                [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
            for target in targets:
                names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
        lines = [FAKE_CHECKS] if first else []
        lines += [f"{name} = None" for name in names]
        lines += [f"def {name}(*args, **kwargs):\n    return None" for name in functions]
        cell.source = "\n".join(lines) or "pass"
        first = False
    return notebook


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_a_cheating_submission_scores_nothing(lesson, monkeypatch, tmp_path):
    """Each lesson, run as nbgrader runs a submission (NBGRADER_EXECUTION=autograde) with the
    check functions faked and every answer set to None: no test cell may pass (hidden tests must
    recompute the answer, not call check_*, and must test the answer, not the lesson's own variables).

    How long each cell takes under autograding, against the per-cell limit, is measured by
    benchmarks/grading_cell_times.py: a time limit asserted here would fail on a busy machine.
    """
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    path = tmp_path / lesson.name
    nbformat.write(tampered(nbformat.read(lesson, as_version=4)), path)
    _, timings = instructor.time_cells(path, timeout=300)  # a guard against a hang, not a budget
    passed = [
        cell.metadata["nbgrader"]["grade_id"] for _, _, cell in timings
        if cell.metadata.get("nbgrader", {}).get("grade") and not cell.metadata["nbgrader"].get("solution")
        and not any(o.output_type == "error" for o in cell.outputs)
    ]
    assert not passed, f"{lesson.name}: these test cells pass for a submission that faked the checks: {passed}"


CHECKS = ("check_value", "check_shape", "check_dtype", "check_grad", "check_answer", "check_true")


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda p: p.stem)
def test_hidden_tests_do_not_trust_the_check_functions(lesson):
    """A submission can replace paddlecourse.check_* with functions that always pass (the
    `fake_checks` student above). Hidden tests must therefore recompute each answer with
    plain asserts; a hidden check_* call would pass for that submission.
    """
    import re

    offenders = []
    for cell in nbformat.read(lesson, as_version=4).cells:
        grader = cell.metadata.get("nbgrader", {})
        if not grader.get("grade") or grader.get("solution"):
            continue
        hidden = re.search(r"BEGIN HIDDEN TESTS(.*?)END HIDDEN TESTS", cell.source, re.S)
        if hidden is None:
            offenders.append((grader["grade_id"], "has no hidden tests"))
        elif re.search(r"\b(?:%s)\s*\(" % "|".join(CHECKS), hidden.group(1)):
            offenders.append((grader["grade_id"], "calls a check function in its hidden tests"))
    assert not offenders, f"{lesson.name}: {offenders}; use plain asserts (e.g. abs(float(x) - 42) < 1e-6)"
