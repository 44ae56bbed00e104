"""error_message(): a Paddle error as a learner should read it, in whole sentences, without C++ internals."""
import paddle
import pytest

from paddlecourse import error_message, show_error
from paddlecourse.errors import first_sentence


def raised(action):
    try:
        action()
    except Exception as error:  # noqa: BLE001 - the error is the point
        return error
    raise AssertionError("no error was raised")


def test_matmul_mismatch_keeps_whole_sentences_and_drops_the_internals():
    error = raised(lambda: paddle.matmul(paddle.ones([2, 3]), paddle.ones([4, 5])))
    text = error_message(error)
    assert text.startswith("ValueError: In operator matmul, the [1] dimension of Input(X) must be equal")
    assert text.endswith("and the [0] dimension of Input(Y) is [4].")
    for internal in ("(InvalidArgument)", "[Hint:", "K_lhs", "(at ", "/paddle/", "binary.cc", "\n"):
        assert internal not in text


def test_backward_twice_keeps_the_retain_graph_sentence():
    x = paddle.ones([2])
    x.stop_gradient = False
    y = (x * x).sum()
    y.backward()
    text = error_message(raised(y.backward))
    assert text.startswith("SystemError: The TensorWrappers of SumGradNode do not exist. This may be because:")
    assert "Please set retain_graph=True in the first backward/grad call." in text


def test_a_summary_banner_and_cpp_stack_are_dropped():
    long = RuntimeError(
        "\n\n--------------------------------------\nC++ Traceback (most recent call last):\n"
        "--------------------------------------\n0   paddle::framework::Executor::Run(...)\n"
        "1   phi::enforce::EnforceNotMet::EnforceNotMet(...)\n\n"
        "----------------------\nError Message Summary:\n----------------------\n"
        "NotFoundError: Cannot find linear_0.b_0 in scope.\n  [Hint: var should not be null.] "
        "(at /paddle/paddle/fluid/framework/new_executor/pir_adaptor/pir_adaptor_util.cc:68)\n")
    assert error_message(long) == "RuntimeError: Cannot find linear_0.b_0 in scope."


def test_never_cut_mid_word_and_long_texts_stop_at_a_sentence_end():
    sentence = "This sentence is about forty-five characters. "
    text = error_message(ValueError(sentence * 20))
    body = text.split(": ", 1)[1]
    assert body.endswith("characters.") and len(body) < 400
    one_long = "word " * 120 + "end."
    assert error_message(ValueError(one_long)).endswith("end.")


@pytest.mark.parametrize("error, expected", [
    (KeyError("inputs"), "KeyError: 'inputs' was looked up and not found."),
    (ZeroDivisionError("division by zero"), "ZeroDivisionError: division by zero"),
    (RuntimeError(), "RuntimeError"),
])
def test_plain_python_errors(error, expected):
    assert error_message(error) == expected


def test_first_sentence_and_show_error(capsys):
    error = ValueError("(InvalidArgument) First part. Second part.\n  [Hint: Expected a == b.] (at /x/y/z.cc:1)")
    assert first_sentence(error) == "ValueError: First part."
    show_error(error)
    assert capsys.readouterr().out == "ValueError: First part. Second part.\n"
    show_error(KeyError("features"))   # as Paddle raises it (lesson 01): the course's words are for checks
    assert capsys.readouterr().out == "KeyError: 'features'\n"


def test_a_numbered_suggestion_is_never_left_as_a_dangling_number():
    """Value.numpy() in static mode: "Suggestions: 1. If ... 2. If ..." must not end on "2."."""
    paddle.enable_static()
    try:
        x = paddle.static.data("x", [None, 2], "float32")
        text = error_message(raised(x.numpy))
    finally:
        paddle.disable_static()
    assert text.startswith("AssertionError: 'numpy' only can be called by `paddle.Tensor` in dynamic graph mode.")
    assert not text.rstrip().endswith(("1.", "2.")) and text.endswith(".")


def test_a_static_run_error_skips_the_user_code_stack():
    """Executor.run errors start with "In user code:" and the Python stack of the op; the error comes after."""
    import numpy as np

    paddle.enable_static()
    try:
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 4], "float32")
            y = paddle.static.nn.fc(x, 3)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        error = raised(lambda: exe.run(main, feed={"x": np.ones((6, 3), "float32")}, fetch_list=[y]))
    finally:
        paddle.disable_static()
    text = error_message(error)
    assert text.startswith("ValueError: In operator matmul, the [1] dimension of Input(X) must be equal"), text
    assert "In user code" not in text and "<paddle source>" not in text


def test_a_hint_with_brackets_inside_and_plain_parentheses_survive_correctly():
    error = raised(lambda: paddle.to_tensor([1.0, 2.0]) + paddle.to_tensor([1.0, 2.0, 3.0]))
    text = error_message(error)
    assert text.startswith("ValueError: Broadcast dimension mismatch.")
    assert "x_dims_array" not in text and "common_shape.h" not in text and text.endswith(".")
    assert error_message(ValueError("The input needs (at least 2) dimensions.")) == \
        "ValueError: The input needs (at least 2) dimensions."


def test_a_numbered_suggestion_stays_with_its_number():
    error = AssertionError(
        "'numpy' only can be called by `paddle.Tensor` in dynamic graph mode. Suggestions:\n  1. If you are in "
        "static graph mode, you can switch to dynamic graph mode by calling `paddle.disable_static()`.\n  2. If you "
        "are using `@paddle.jit.to_static`, you can call `paddle.jit.enable_to_static(False)`.")
    text = error_message(error)
    assert text.endswith("by calling `paddle.disable_static()`. 2. If you are using `@paddle.jit.to_static`, "
                         "you can call `paddle.jit.enable_to_static(False)`."), "the suggestions are kept whole"
    assert first_sentence(error) == "AssertionError: 'numpy' only can be called by `paddle.Tensor` in dynamic graph mode."
