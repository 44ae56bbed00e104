"""lessons/ are generated from solutions/ and nothing else; nbgrader agrees with both."""
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from paddlecourse.author.build import build_lessons
from paddlecourse.author.sources import solution_paths

ROOT = Path(__file__).parents[1]
SOLUTIONS = solution_paths(ROOT / "solutions")
NBGRADER = [sys.executable, "-m", "nbgrader"]


def test_committed_lessons_match_a_fresh_build(tmp_path):
    """English and Chinese: lessons/ and lessons/zh/ are what the build makes of solutions/ and solutions/zh/."""
    built = [p.relative_to(tmp_path) for p in build_lessons(ROOT / "solutions", tmp_path)]
    committed = sorted(p.relative_to(ROOT / "lessons") for p in (ROOT / "lessons").rglob("*.ipynb")
                       if ".ipynb_checkpoints" not in p.parts)
    assert sorted(built) == committed, "lessons/ and solutions/ hold different notebooks: run `make lessons`"
    assert any(p.parts[0] == "zh" for p in built), "the Chinese student copies (lessons/zh/) are built too"
    stale = [str(p) for p in built if (tmp_path / p).read_text() != (ROOT / "lessons" / p).read_text()]
    assert not stale, f"lessons/ drifted from solutions/ (never edit lessons/ by hand; run `make lessons`): {stale}"


@pytest.mark.parametrize("solution", SOLUTIONS, ids=[p.stem for p in SOLUTIONS])
def test_solution_is_a_well_formed_lesson(solution):
    notebook = nbformat.read(solution, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata.kernelspec.name == "paddlecourse"
    number = solution.name[:2]
    grades = [c.metadata.nbgrader for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade")]
    answers = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("solution")]
    assert len(grades) >= 3, "every lesson has at least three graded exercises"
    assert len(answers) >= 3
    ids = [g["grade_id"] for g in grades]
    assert len(set(ids)) == len(ids) and all(i.startswith(f"l{number}-ex") for i in ids)
    first_code = next(c for c in notebook.cells if c.cell_type == "code")
    assert "paddlecourse.setup()" in first_code.source, "the first code cell sets the kernel up"
    assert all(g.get("points", 0) > 0 and g.get("locked") for g in grades)
    outputs = json.dumps([c.get("outputs", []) for c in notebook.cells])
    assert '"output_type": "error"' not in outputs, "a stored solution output is an error"


def test_nbgrader_validates_the_solution_and_fails_the_blank_student_copy(tmp_path):
    """nbgrader's own validator agrees with the build, on lesson 00. For every lesson the same two facts
    are checked more cheaply: nbval runs each solution with its hidden tests (test cells that fail stop
    it), and tests/test_untouched_lessons.py runs each student copy and asserts every check fails."""
    solution = SOLUTIONS[0]
    passed = subprocess.run([*NBGRADER, "validate", str(solution)], capture_output=True, text=True, cwd=tmp_path)
    assert passed.returncode == 0 and "Success! Your notebook passes all the tests." in passed.stdout, passed.stdout[-3000:]

    student = ROOT / "lessons" / solution.name
    inverted = subprocess.run([*NBGRADER, "validate", "--invert", str(student)], capture_output=True, text=True, cwd=tmp_path)
    assert inverted.returncode == 0 and "Success! The notebook does not pass any tests." in inverted.stdout, \
        inverted.stdout[-3000:]
