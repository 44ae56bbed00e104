"""error_message() on Paddle's messages with numbered suggestions or code examples (lessons 01, 02)."""
import pytest

from paddlecourse import error_message


def test_a_numbered_suggestion_stays_whole_and_no_bare_number_ends_the_message():
    error = AssertionError(
        "'numpy' only can be called by `paddle.Tensor` in dynamic graph mode. Suggestions:\n"
        "  1. If you are in static graph mode, you can switch to dynamic graph mode by turning off "
        "`paddle.enable_static()` or calling `paddle.disable_static()`.\n"
        "  2. If you are using `@paddle.jit.to_static`, you can call `paddle.jit.enable_to_static(False)`.")
    text = error_message(error)
    assert text.startswith("AssertionError: 'numpy' only can be called by `paddle.Tensor` in dynamic graph mode.")
    assert "Suggestions: 1. If you are in static graph mode" in text
    assert text.endswith("`paddle.disable_static()`.") or text.endswith("`paddle.jit.enable_to_static(False)`.")
    assert not text.endswith(" 2.")


def test_a_code_example_is_not_part_of_the_message():
    error = TypeError(
        "bool(Tensor) is not supported in static graph mode. Because it's value is not available during the static "
        "mode.\nIf you haven't call bool(Tensor) explicitly, it's usually triggered by the control flow implicitly, "
        "for example:\n    >>> if x > 0:\n           ^ `x` is Tensor\n    ...     y = y + 1\n")
    text = error_message(error)
    assert text == ("TypeError: bool(Tensor) is not supported in static graph mode. "
                    "Because it's value is not available during the static mode.")


@pytest.mark.parametrize("real", ["numpy", "bool"])
def test_the_real_paddle_messages(real):
    import paddle

    from paddlecourse import static_mode

    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            value = paddle.static.data(name="v", shape=[None, 2], dtype="float32")
            with pytest.raises((AssertionError, TypeError)) as caught:
                value.numpy() if real == "numpy" else bool(value.sum() > 0)
    text = error_message(caught.value)
    assert ">>>" not in text and not text.rstrip().endswith((":", " 2."))
