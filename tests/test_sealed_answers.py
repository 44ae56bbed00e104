"""A released check cell does not give its answer away: choices are compared with a digest (paddlecourse.sealed)."""
import ast
from pathlib import Path

import nbformat
import pytest

from paddlecourse import CheckFailed, check_answer, check_value
from paddlecourse.sealed import seal, sealed
from paddlecourse.lesson_index import lesson_paths

ROOT = Path(__file__).resolve().parent.parent
LESSONS = lesson_paths(ROOT / "lessons")


def test_a_sealed_answer_matches_the_same_choice_in_any_form():
    answer = sealed("l99-ex1", seal("l99-ex1", {"B", "C"}))
    check_answer("silent", ["c", " B "], answer)
    check_answer("silent", ("B", "C"), answer)
    with pytest.raises(CheckFailed) as wrong:
        check_answer("silent", {"B"}, answer)
    assert "is not right" in str(wrong.value) and "(the sealed answer)" not in str(wrong.value)
    letter = sealed("l99-ex2", seal("l99-ex2", "b"))
    check_answer("why", "B", letter)
    with pytest.raises(CheckFailed):
        check_answer("why", "a", letter)
    # the digest depends on the exercise: the same letter elsewhere has another one
    assert seal("l99-ex2", "b") != seal("l99-ex3", "b")


def test_a_sealed_number_matches_in_any_one_number_form_and_is_never_shown():
    import numpy as np
    import paddle

    answer = sealed("l99-ex4", seal("l99-ex4", 294))
    for form in (294, 294.0, np.int64(294), np.float32(294), [294.0], paddle.to_tensor([294.0])):
        check_value("w_grad_at_end", form, answer)
    with pytest.raises(CheckFailed) as wrong:
        check_value("w_grad_at_end", 252, answer, hint="Count all seven calls.")
    assert "found 252" in str(wrong.value) and "294" not in str(wrong.value) and "Count all seven" in str(wrong.value)
    with pytest.raises(CheckFailed) as two:
        check_value("w_grad_at_end", [294, 28], answer)
    assert "a single number" in str(two.value)
    with pytest.raises(CheckFailed) as text:
        check_value("w_grad_at_end", "many", answer)
    assert "294" not in str(text.value)


def _literal(node):
    try:
        ast.literal_eval(node)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("lesson", LESSONS, ids=[p.stem for p in LESSONS])
def test_no_released_check_compares_a_choice_with_its_answer_written_out(lesson):
    literal = []
    for cell in nbformat.read(lesson, as_version=4).cells:
        if not cell.metadata.get("nbgrader", {}).get("grade") or cell.cell_type != "code":
            continue
        for node in ast.walk(ast.parse(cell.source)):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None) if isinstance(node, ast.Call) else None
            if name == "check_answer" and len(node.args) >= 3 and _literal(node.args[2]):
                literal.append(ast.unparse(node.args[2]))
    assert not literal, f"{lesson.name}: the check cell shows the answer {literal}: compare with sealed(...) instead"
