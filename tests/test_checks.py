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
    check_parts,
    check_value,
    run_answer,
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
    assert capsys.readouterr().out == ("✓ dz/dw: [42]\n" if isinstance(form, list) else "✓ dz/dw: 42\n")  # as it was given


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
        (None, "`answer` has no answer yet: write it in the answer cell above"),
        ("42", "is the text '42'"),
        (True, "True/False"),
        ([1, [2, 3]], "rows have different lengths"),
        (float("nan"), "contains NaN"),
        (float("inf"), "contains inf"),
        ({"a": 1}, "is a dict, but the answer is a single number"),
        (print, "If it is a function, call it"),
        (object(), "is a object, not a number"),
        ([1.0, 2.0], "is a list of 2 values, but the answer is a single number"),
        (..., "`answer` has no answer yet"),
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
        assert text.startswith(("answer", "`answer`")) and "Traceback" not in text and len(text) < 400


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
    assert text.startswith(("answer", "`answer`")) and "Traceback" not in text


# ---------------------------------------------------------------- untouched stubs: None / ... carry the name

@pytest.mark.parametrize("check", sorted(ALL_CHECKS))
@pytest.mark.parametrize("stub", [None, ..., NotImplemented], ids=["None", "Ellipsis", "NotImplemented"])
def test_every_check_names_an_unanswered_stub_and_the_cell_to_write_it_in(check, stub, capsys):
    result, text = outcome(ALL_CHECKS[check], stub, capsys)
    assert result == "fail"
    assert text == ("`answer` has no answer yet: write it in the answer cell above (where it says "
                    "# YOUR CODE HERE, in place of `raise NotImplementedError()`), run that cell, then this one "
                    "(if you wrote it already, that cell stopped with an error before reaching it: the error's last "
                    "line says why).")


def test_a_function_that_returns_none_is_told_to_return_its_result():
    with pytest.raises(CheckFailed, match=r"^`f\(batch\)` returned None: finish the function"):
        check_value("f(batch)", None, [1.0, 2.0])


# ---------------------------------------------------------------- run_answer

def untouched_stub(batch):
    # YOUR CODE HERE
    raise NotImplementedError()


def test_run_answer_returns_what_the_function_returns():
    assert run_answer("double(3)", lambda x: 2 * x, 3) == 6
    assert run_answer("join", "-".join, ["a", "b"]) == "a-b"


def test_run_answer_names_the_placeholder_of_an_untouched_stub():
    with pytest.raises(CheckFailed) as failure:
        run_answer("untouched_stub(batch)", untouched_stub, None)
    assert str(failure.value) == ("`untouched_stub` still has its placeholder: replace `raise NotImplementedError()` "
                                  "in the answer cell with your code, run it, then run this cell again.")
    assert failure.value.__cause__ is None and failure.value.__suppress_context__


@pytest.mark.parametrize("function, words", [
    (None, "`static_double_mlp` has no answer yet"),
    (..., "`static_double_mlp` has no answer yet"),
    (42, "`static_double_mlp` is a int, not a function: define it with `def static_double_mlp(...):`"),
])
def test_run_answer_without_a_function_says_so(function, words):
    with pytest.raises(CheckFailed) as failure:
        run_answer("static_double_mlp(batch)", function, None)
    assert str(failure.value).startswith(words)


def test_run_answer_turns_a_paddle_error_into_its_first_whole_sentence():
    def wrong_matmul(batch):
        return paddle.matmul(batch, paddle.ones([4, 5]))

    with pytest.raises(CheckFailed) as failure:
        run_answer("wrong_matmul(batch)", wrong_matmul, paddle.ones([2, 3]))
    message = str(failure.value)
    first_line, hint = message.split("\n")
    assert first_line.startswith("`wrong_matmul(batch)` raised ValueError: In operator matmul,")
    assert first_line.endswith("must be equal to the [0] dimension of Input(Y).")
    assert "Hint:" not in first_line and "/paddle/" not in message and "Expected K_lhs" not in message
    assert hint.startswith("Hint: Call `wrong_matmul(batch)` in a cell of its own")


def test_run_answer_keeps_paddles_own_not_implemented_errors_apart_from_the_stub():
    def unsupported(batch):
        raise NotImplementedError("This op is not supported on CPU.")

    with pytest.raises(CheckFailed, match="raised NotImplementedError: This op is not supported on CPU"):
        run_answer("unsupported(batch)", unsupported, None)


def test_run_answer_puts_a_kernel_left_in_static_mode_back():
    def dies_in_static_mode():
        paddle.enable_static()
        raise RuntimeError("Cannot find linear_0.w_0 in scope.")

    with pytest.raises(CheckFailed, match="raised RuntimeError: Cannot find linear_0.w_0 in scope."):
        run_answer("dies_in_static_mode()", dies_in_static_mode)
    assert paddle.in_dynamic_mode()


def test_run_answer_lets_keyboard_interrupt_through():
    def interrupted():
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_answer("interrupted()", interrupted)


# ---------------------------------------------------------------- check_parts

def test_check_parts_reports_every_part_in_one_message():
    with pytest.raises(CheckFailed) as failure:
        with check_parts("the four projects") as parts:
            parts.check_answer("project_a", "dynamic", "dynamic", options=["dynamic", "static"])
            parts.check_answer("project_b", "dynamic", "static", options=["dynamic", "static"],
                               hint="B is exported for a C++ server.")
            parts.check_answer("project_c", None, "static")
            parts.check_value("loss_after", 0.9, 0.5, rtol=1e-3)
    assert str(failure.value) == "\n".join([
        "the four projects: 3 of 4 parts are not right yet.",
        "✓ project_a",
        "✗ project_b: 'dynamic' is not right. (B is exported for a C++ server.)",
        "✗ `project_c` has no answer yet: write it in the answer cell above (where it says # YOUR CODE HERE, in place of `raise NotImplementedError()`), "
        "run that cell, then this one (if you wrote it already, that cell stopped with an error before reaching it: "
        "the error's last line says why).",
        "✗ loss_after: expected 0.5, found 0.9.",
    ])


def test_check_parts_prints_the_tick_lines_when_all_pass(capsys):
    with check_parts("shapes") as parts:
        parts.check_shape("hidden", paddle.zeros([4, 16]), [None, 16])
        parts.check_true("went down", True)
        parts.check_dtype("x", np.zeros(2, "float32"), "float32")
    assert capsys.readouterr().out == "✓ hidden: shape [4, 16]\n✓ went down\n✓ x: dtype float32\n"


def test_check_parts_run_answer_records_the_failure_and_skips_what_depends_on_it():
    with pytest.raises(CheckFailed) as failure:
        with check_parts("static_double_mlp") as parts:
            result = parts.run_answer("untouched_stub(batch)", untouched_stub, None)
            assert result is None
            parts.check_value("untouched_stub(batch)", result, [1.0])
            parts.check_value("other", 1.0, 1.0)
            parts.check_value("untouched", None, 1.0)  # only the failed call's own results are skipped
    lines = str(failure.value).split("\n")
    assert lines[0] == "static_double_mlp: 3 of 4 parts are not right yet."
    assert lines[4].startswith("✗ `untouched` has no answer yet")
    assert lines[1].startswith("✗ `untouched_stub` still has its placeholder")
    assert lines[2] == "✗ untouched_stub(batch): not checked: `untouched_stub(batch)` failed above."
    assert lines[3] == "✓ other: 1"


def test_check_parts_reports_an_error_in_the_block_as_a_last_part_not_a_traceback():
    with pytest.raises(CheckFailed) as failure:
        with check_parts("two parts") as parts:
            parts.check_value("a", 1.0, 1.0)
            len(None)
    lines = str(failure.value).split("\n")
    assert lines[1] == "✓ a: 1"
    assert lines[2].startswith("✗ the rest of this check: it stopped at TypeError: object of type 'NoneType' has no len()")
    with pytest.raises(CheckFailed) as failure:
        with check_parts("module-level check inside") as parts:
            check_value("b", 2.0, 1.0)
    assert str(failure.value).split("\n")[1] == "✗ b: expected 1, found 2."


# ---------------------------------------------------------------- messages that match the prompt

def test_a_list_answer_is_told_it_is_a_list_never_a_single_number():
    with pytest.raises(CheckFailed) as failure:
        check_value("score_shape", [-1, 1], [-1], reveal=False)
    assert str(failure.value).startswith("score_shape is a list of 2 values, but the answer is a list of 1 value.")
    with pytest.raises(CheckFailed) as failure:
        check_value("score_shape", -1, [-1], reveal=False)
    assert str(failure.value) == ("score_shape is a single number (-1), but the answer is a list of 1 value.\n"
                                  "Hint: Write it as a list, in square brackets.")


def test_accepted_and_rejected_answers_are_echoed_as_the_learner_wrote_them(capsys):
    check_value("hidden_shape", [-1, 16], [-1, 16])
    check_value("shape", (2, 3), [2, 3])
    check_value("counts", paddle.to_tensor([1, 2, 3]), [1, 2, 3])
    check_value("probabilities", [0.5, 0.25], [0.5, 0.25])
    assert capsys.readouterr().out == ("✓ hidden_shape: [-1, 16]\n✓ shape: (2, 3)\n✓ counts: [1, 2, 3]\n"
                                       "✓ probabilities: [0.5, 0.25]\n")
    with pytest.raises(CheckFailed) as failure:
        check_value("hidden_shape", [-1, 6], [-1, 16])
    assert str(failure.value) == "hidden_shape: expected [-1, 16], found [-1, 6]."
    with pytest.raises(CheckFailed) as failure:
        check_value("counts", list(range(12)), list(range(1, 13)))
    assert "found 0" in str(failure.value) and "0." not in str(failure.value)


def big_pair():
    expected = np.arange(80, dtype="float64").reshape(8, 10) / 10
    found = expected.copy()
    found[3, 7] += 0.52
    found[0, 1] -= 0.2
    return found, expected


def test_big_arrays_that_differ_are_summarised_not_printed(capsys):
    found, expected = big_pair()
    with pytest.raises(CheckFailed) as failure:
        check_value("logits", paddle.to_tensor(found), expected)
    message = str(failure.value)
    assert message.splitlines() == [
        "logits: 2 of 80 values differ (a tensor of shape [8, 10]); the largest difference is 0.52 at [3, 7] "
        "(expected 3.7, found 4.22).",
        "First differing entries:",
        "  at [0, 1]: expected 0.1, found -0.1",
        "  at [3, 7]: expected 3.7, found 4.22",
        "The full arrays: run `paddlecourse.last_failure()`.",
    ]
    import paddlecourse

    paddlecourse.last_failure()
    shown = capsys.readouterr().out
    assert shown.startswith("logits, found (shape [8, 10]):") and "expected (shape [8, 10]):" in shown
    assert shown.count("\n") > 16  # every row of both arrays


def test_a_summary_with_reveal_false_shows_only_what_the_learner_found(capsys):
    found, expected = big_pair()
    with pytest.raises(CheckFailed) as failure:
        check_value("logits", found, expected, reveal=False)
    message = str(failure.value)
    assert "expected" not in message and "the first is at [0, 1] (found -0.1)" in message
    import paddlecourse

    paddlecourse.last_failure()
    assert "keeps the expected values to itself" in capsys.readouterr().out


def test_the_internal_error_fallback_is_one_sentence():
    class Chatty:
        def __array__(self, *args, **kwargs):
            raise RuntimeError("First sentence here. Second sentence that should not appear. " + "x " * 80)

    with pytest.raises(CheckFailed) as failure:
        check_value("answer", Chatty(), 42)
    first_line = str(failure.value).split("\n")[0]
    assert first_line == "answer: could not be checked (RuntimeError: First sentence here)."


# ---------------------------------------------------------------- check_parts(..., fold=True)

def test_folded_parts_name_every_unanswered_variable_in_one_sentence():
    with pytest.raises(CheckFailed) as failure:
        with check_parts("Exercise 1", fold=True) as parts:
            for name in ("deploy_A", "deploy_B", "deploy_C"):
                parts.check_answer(name, None, "eager")
    assert str(failure.value) == ("`deploy_A`, `deploy_B` and `deploy_C` have no answer yet: write them in the answer "
                                  "cell above (where it says # YOUR CODE HERE, in place of `raise NotImplementedError()`), run that cell, then this one "
                                  "(if you wrote them already, that cell stopped with an error before reaching them: the "
                                  "error's last line says why).")


def test_folded_parts_say_an_untouched_stub_once_and_fold_the_same_error():
    def verdict(low, high, claimed):
        raise NotImplementedError()

    with pytest.raises(CheckFailed) as failure:
        with check_parts("Exercise 3", fold=True) as parts:
            for args in ((1, 2, 3), (4, 5, 6)):
                parts.check_answer(f"verdict{args}", parts.run_answer(f"verdict{args}", verdict, *args), "s")
    assert str(failure.value).startswith("`verdict` still has its placeholder")
    assert "\n" not in str(failure.value)

    def two_arguments(a, b):
        return "s"

    with pytest.raises(CheckFailed) as failure:
        with check_parts("Exercise 3", fold=True) as parts:
            parts.check_true("first", True)
            for args in ((1, 2, 3), (4, 5, 6)):
                parts.check_answer(f"verdict{args}", parts.run_answer(f"verdict{args}", two_arguments, *args), "s")
    lines = str(failure.value).split("\n")
    assert lines[0] == "Exercise 3: 4 of 5 parts are not right yet." and lines[1] == "✓ first"
    assert lines[2].startswith("✗ `verdict(1, 2, 3)` raised TypeError:")
    assert lines[2].endswith("This also stops: `verdict(4, 5, 6)`.") and len(lines) == 3


def test_run_answer_on_paddles_own_code_does_not_say_call_it_alone():
    with pytest.raises(CheckFailed) as failure:
        run_answer("the exported model at batch 8", paddle.nn.Linear(3, 2), paddle.ones([8, 4]))
    assert "in a cell of its own" not in str(failure.value) and "The fix goes in your answer" in str(failure.value)
    with pytest.raises(CheckFailed) as failure:
        run_answer("paddle.jit.save(...)", paddle.nn.Linear(3, 2), paddle.ones([8, 4]),
                   hint="Look at the batch dimension of any_batch_spec.")
    assert str(failure.value).endswith("Hint: Look at the batch dimension of any_batch_spec.")


def test_parts_check_records_any_check_and_says_whether_it_passed():
    with pytest.raises(CheckFailed):
        with check_parts("spec", fold=True) as parts:
            assert parts.check(check_value, "a", 1.0, 1.0) is True
            assert parts.check(check_value, "b", 2.0, 1.0) is False
