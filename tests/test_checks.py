"""The checks: right answers in any form pass; anything else fails with a sentence, never a crash."""
import math

import numpy as np
import paddle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paddlecourse import (
    CheckFailed,
    check_answer,
    check_dtype,
    check_grad,
    check_shape,
    check_true,
    check_value,
    static_mode,
)

ALL_CHECKS = {
    "check_value": lambda found: check_value("answer", found, 42),
    "check_value (array)": lambda found: check_value("answer", found, [[1.0, 2.0], [3.0, 4.0]]),
    "check_shape": lambda found: check_shape("answer", found, [None, 10]),
    "check_dtype": lambda found: check_dtype("answer", found, "float32"),
    "check_grad": lambda found: check_grad("answer", found, 42),
    "check_answer": lambda found: check_answer("answer", found, "b", options=["a", "b", "c"]),
    "check_true": lambda found: check_true("answer", found),
}


class Unreadable:
    """A learner's object that fails at everything a check might try."""

    def __array__(self, *args, **kwargs):
        raise RuntimeError("boom")

    def __float__(self):
        raise RuntimeError("boom")

    def __len__(self):
        raise RuntimeError("boom")

    def __iter__(self):
        raise RuntimeError("boom")

    def __repr__(self):
        raise RuntimeError("cannot print me")

    def __bool__(self):
        raise RuntimeError("boom")

    def __eq__(self, other):
        raise RuntimeError("boom")

    __hash__ = object.__hash__

    @property
    def shape(self):
        raise RuntimeError("boom")

    @property
    def dtype(self):
        raise RuntimeError("boom")


def outcome(check, found, capsys):
    """'pass' with the printed tick line, or 'fail' with CheckFailed's message; anything else propagates."""
    try:
        check(found)
    except CheckFailed as failure:
        return "fail", str(failure)
    return "pass", capsys.readouterr().out


@pytest.mark.parametrize("form", [42, 42.0, np.float32(42), np.int64(42), np.array(42.0), np.array([42.0]),
                                  [42], paddle.to_tensor(42.0), paddle.to_tensor([42.0]), paddle.to_tensor([42])])
def test_a_number_in_any_form_passes(form, capsys):
    check_value("dz/dw", form, 42)
    assert capsys.readouterr().out == "✓ dz/dw: 42\n"


def test_arrays_compare_by_value_within_tolerance(capsys):
    check_value("out", paddle.to_tensor([[1.0, 2.0], [3.0, 4.0 + 1e-7]]), np.array([[1, 2], [3, 4]]))
    assert capsys.readouterr().out.startswith("✓ out")


def test_wrong_value_says_expected_and_found_and_hint():
    with pytest.raises(CheckFailed) as failure:
        check_value("dz/dw", 84.0, 42, hint="Clear the gradient first.")
    assert str(failure.value) == "dz/dw: expected 42, found 84.\nHint: Clear the gradient first."
    assert isinstance(failure.value, AssertionError)  # nbgrader scores any AssertionError as a failure


def test_reveal_false_keeps_the_answer_out_of_the_message():
    with pytest.raises(CheckFailed) as failure:
        check_value("dz/dw", 40, 42, reveal=False)
    assert "42" not in str(failure.value) and "found 40" in str(failure.value)


@pytest.mark.parametrize(
    "found, words",
    [
        (None, "is None"),
        ("42", "is the text '42'"),
        (True, "True/False"),
        ([1, [2, 3]], "rows have different lengths"),
        (float("nan"), "contains NaN"),
        (float("inf"), "contains inf"),
        ({"a": 1}, "is a dict"),
        (print, "If it is a function, call it"),
        (object(), "is a object, not a number"),
        ([1.0, 2.0], "holds 2 values"),
        (..., "placeholder"),
        (np.array(["a"]), "not real numbers"),
        (1 + 2j, "not real numbers"),
        (Unreadable(), "could not be checked (RuntimeError: boom)"),
    ],
)
def test_odd_answers_get_a_plain_sentence(found, words):
    with pytest.raises(CheckFailed) as failure:
        check_value("answer", found, 42)
    message = str(failure.value)
    assert words in message
    assert "Traceback" not in message and "0x" not in message


def test_shape_mismatch_is_named():
    with pytest.raises(CheckFailed, match=r"has shape \[2, 3\], but the answer has shape \[3, 2\]"):
        check_value("w", np.zeros((2, 3)), np.zeros((3, 2)))


def test_failure_is_raised_without_internal_context():
    with pytest.raises(CheckFailed) as failure:
        check_value("answer", Unreadable(), 42)
    assert failure.value.__cause__ is None and failure.value.__suppress_context__


def test_check_shape_accepts_run_time_dimensions(capsys):
    check_shape("logits", paddle.zeros([4, 10]), [None, 10])
    check_shape("logits", np.zeros((4, 10)), [-1, 10])
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 10], "float32")
        check_shape("x", x, [None, 10])
    assert capsys.readouterr().out.count("✓") == 3
    with pytest.raises(CheckFailed, match=r"has shape \[4, 9\]; expected \[-1, 10\]"):
        check_shape("logits", paddle.zeros([4, 9]), [None, 10])
    with pytest.raises(CheckFailed, match="looks like a shape itself"):
        check_shape("logits", [4, 10], [4, 10])


def test_symbolic_static_value_is_explained():
    with static_mode():
        main = paddle.static.Program()
        with paddle.static.program_guard(main):
            x = paddle.static.data("x", [-1, 3], "float32")
        with pytest.raises(CheckFailed, match="symbolic value from a static program"):
            check_value("x", x, 1.0)


@pytest.mark.parametrize("dtype", ["float32", np.float32, paddle.float32, np.dtype("float32")])
def test_check_dtype_reads_every_spelling(dtype, capsys):
    check_dtype("x", paddle.zeros([2]), dtype)
    check_dtype("x", np.zeros(2, dtype="float32"), dtype)
    assert capsys.readouterr().out.count("✓ x: dtype float32") == 2


def test_check_dtype_mismatch_hints_at_astype():
    with pytest.raises(CheckFailed, match=r"has dtype float64; expected float32\.\nHint: Convert with `.astype\('float32'\)`"):
        check_dtype("x", np.zeros(2), "float32")


def test_check_grad_explains_a_missing_gradient():
    untracked = paddle.to_tensor([2.0])
    with pytest.raises(CheckFailed, match="stop_gradient is True"):
        check_grad("w", untracked, 42)
    tracked = paddle.to_tensor([2.0], stop_gradient=False)
    with pytest.raises(CheckFailed, match="backward\\(\\) has not reached it yet"):
        check_grad("w", tracked, 42)
    with pytest.raises(CheckFailed, match="should be a Paddle tensor"):
        check_grad("w", 2.0, 42)


def test_check_grad_passes_on_the_lesson_example(capsys):
    w, x, b = (paddle.to_tensor([v], stop_gradient=False) for v in (2.0, 3.0, 1.0))
    ((w * x + b) ** 2).backward()
    check_grad("w", w, 42)
    check_grad("x", x, 28)
    check_grad("b", b, 14)
    assert capsys.readouterr().out == "✓ w.grad: 42\n✓ x.grad: 28\n✓ b.grad: 14\n"


def test_check_answer_ignores_case_spaces_and_order(capsys):
    check_answer("mode", "  Static  Graph ", "static graph")
    check_answer("picked", ("b", "a"), {"a", "b"})
    check_answer("yes/no", np.bool_(True), True)
    assert capsys.readouterr().out.count("✓") == 3
    with pytest.raises(CheckFailed, match="'d' is not one of the options"):
        check_answer("choice", "d", "b", options=["a", "b", "c"])
    with pytest.raises(CheckFailed, match="should be True or False"):
        check_answer("yes/no", "yes", True)
    with pytest.raises(CheckFailed) as failure:
        check_answer("choice", "a", "b")
    assert "'b'" not in str(failure.value)


def test_check_true_accepts_bool_tensors_and_explains_failure(capsys):
    check_true("all finite", paddle.isfinite(paddle.ones([3])).all())
    assert capsys.readouterr().out == "✓ all finite\n"
    with pytest.raises(CheckFailed, match="loss went down does not hold: it rose from 2.3 to 2.5"):
        check_true("loss went down", False, because="it rose from 2.3 to 2.5")
    with pytest.raises(CheckFailed, match="expected one True/False, found 3 values"):
        check_true("all finite", np.array([True, False, True]))
    with pytest.raises(CheckFailed, match="expected True/False, found the number 2.5"):
        check_true("loss went down", 2.5)


# Anything a learner could type, including nested, ragged and non-finite values.
learner_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5) | st.binary(max_size=3) | st.complex_numbers(),
    lambda children: st.lists(children, max_size=4) | st.tuples(children, children)
    | st.dictionaries(st.text(max_size=2), children, max_size=2) | st.sets(st.integers(), max_size=3),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(found=learner_values, check=st.sampled_from(sorted(ALL_CHECKS)))
def test_no_input_escapes_as_anything_but_a_pass_or_a_sentence(found, check, capsys):
    result, text = outcome(ALL_CHECKS[check], found, capsys)
    if result == "pass":
        assert text.startswith("✓ answer")
    else:
        assert text.startswith("answer") and "Traceback" not in text and len(text) < 400


@pytest.mark.parametrize("check", sorted(ALL_CHECKS))
@pytest.mark.parametrize(
    "found",
    [Unreadable(), paddle.to_tensor([float("nan")]), np.full((2, 2), np.nan), np.zeros((0,)), [[]], math.inf],
    ids=["unreadable", "nan-tensor", "nan-array", "empty", "empty-nested", "inf"],
)
def test_hostile_objects_fail_politely(check, found, capsys):
    result, text = outcome(ALL_CHECKS[check], found, capsys)
    if check == "check_dtype" and isinstance(found, paddle.Tensor):
        assert result == "pass", "a NaN tensor does have dtype float32"
        return
    assert result == "fail", f"{check} accepted {type(found).__name__}"
    assert text.startswith("answer") and "Traceback" not in text
