"""setup() and static_mode(): the kernel always ends up quiet, seeded and in dynamic mode."""
import logging

import paddle
import pytest

import paddlecourse
from paddlecourse import static_mode


def test_static_mode_switches_and_restores():
    assert paddle.in_dynamic_mode()
    with static_mode():
        assert not paddle.in_dynamic_mode()
    assert paddle.in_dynamic_mode()


def test_static_mode_restores_dynamic_mode_when_the_body_raises():
    with pytest.raises(ZeroDivisionError):
        with static_mode():
            1 / 0
    assert paddle.in_dynamic_mode()


def test_nested_static_mode_stays_static_until_the_outer_block_ends():
    with static_mode():
        with static_mode():
            pass
        assert not paddle.in_dynamic_mode()
    assert paddle.in_dynamic_mode()


def test_setup_recovers_a_kernel_left_in_static_mode():
    paddle.enable_static()  # what a cell that bypassed static_mode() and then failed leaves behind
    paddlecourse.setup()
    assert paddle.in_dynamic_mode()


def test_setup_seeds_paddle_and_numpy_the_same_way_every_time():
    import numpy as np

    paddlecourse.setup(seed=7)
    first = paddle.randn([3]).numpy(), np.random.rand(3)
    paddlecourse.setup(seed=7)
    second = paddle.randn([3]).numpy(), np.random.rand(3)
    assert (first[0] == second[0]).all() and (first[1] == second[1]).all()


def test_setup_removes_the_root_handler_paddle_adds():
    logging.getLogger().addHandler(logging.StreamHandler())  # as `import paddle` does
    paddlecourse.setup()
    assert not [h for h in logging.getLogger().handlers if type(h) is logging.StreamHandler]


def test_setup_shows_a_failed_check_as_its_message_only_in_ipython():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import paddlecourse; paddlecourse.setup()")
        with capture_output() as shown:
            result = shell.run_cell("paddlecourse.check_value('dz/dw', 84, 42, hint='Clear the gradient.')")
        assert isinstance(result.error_in_exec, paddlecourse.CheckFailed)  # still an error: nbgrader gives 0
        assert "CheckFailed: dz/dw: expected 42, found 84.\nHint: Clear the gradient." in shown.stdout
        assert "Traceback" not in shown.stdout and "paddlecourse/checks" not in shown.stdout
    finally:
        InteractiveShell.clear_instance()


def test_setup_shows_an_undefined_name_as_one_sentence_and_other_errors_as_usual():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import paddlecourse; paddlecourse.setup()")
        with capture_output() as shown:
            result = shell.run_cell("hidden_shape")
        assert type(result.error_in_exec) is NameError  # still an error: nbgrader gives 0
        assert shown.stdout.strip() == (
            "NameError: `hidden_shape` is not defined yet: run the cell that defines it — usually the answer cell "
            "above (if you ran it, it stopped with an error before defining it: its last line says why), "
            "or the lesson's earlier cells after a kernel restart.")
        with capture_output() as shown:
            shell.run_cell('mismatch_cause = B')          # a multiple-choice letter without its quotes
        assert 'write it in quotes, "B"' in shown.stdout and "Traceback" not in shown.stdout
        with capture_output() as shown:
            shell.run_cell("def f():\n    y = y + 1\n    return y\nf()")
        assert "UnboundLocalError" in shown.stdout and "Traceback" in shown.stdout  # a bug in a function keeps it
        with capture_output() as shown:
            shell.run_cell("import json\njson.loads('{')")
        assert "JSONDecodeError" in shown.stdout and "Traceback" in shown.stdout
    finally:
        InteractiveShell.clear_instance()


def test_setup_shows_an_untouched_answer_cell_as_one_sentence_and_paddles_own_error_as_usual():
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import paddlecourse; paddlecourse.setup()")
        with capture_output() as shown:
            result = shell.run_cell("a = None\n# YOUR CODE HERE\nraise NotImplementedError()")
        assert type(result.error_in_exec) is NotImplementedError  # still an error: progress() and nbgrader see it
        assert shown.stdout.strip() == (
            "NotImplementedError: this answer cell still waits for you: write your answer where it says "
            "# YOUR CODE HERE, in place of `raise NotImplementedError()`, and run it again. An exercise marked "
            "Deeper may wait for a second pass: its check then says only that it has no answer yet.")
        with capture_output() as shown:  # the stub inside a function the learner calls from a cell of their own
            shell.run_cell("def train_fixed(steps=30):\n    # YOUR CODE HERE\n    raise NotImplementedError()\n"
                           "train_fixed()")
        assert shown.stdout.strip().startswith("NotImplementedError: `train_fixed` still has its placeholder")
        assert "Traceback" not in shown.stdout
        with capture_output() as shown:  # an error with a message is Paddle's or Python's own: its traceback stays
            shell.run_cell("raise NotImplementedError('this op has no CPU kernel')")
        assert "Traceback" in shown.stdout and "this op has no CPU kernel" in shown.stdout
    finally:
        InteractiveShell.clear_instance()


def _plain(text):
    import re

    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_setup_shortens_an_error_raised_inside_paddle_to_the_learners_lines_and_whole_sentences():
    """An Executor error is ten frames deep in executor.py: the learner sees their own line, one line for the
    rest (%tb still shows it) and Paddle's message without its [Hint: ...] and C++ source location."""
    from IPython.core.interactiveshell import InteractiveShell
    from IPython.utils.capture import capture_output

    shell = InteractiveShell.instance()
    try:
        shell.run_cell("import paddlecourse; paddle = paddlecourse.setup()")
        shell.run_cell(
            "with paddlecourse.static_mode():\n"
            "    main, startup = paddle.static.Program(), paddle.static.Program()\n"
            "    with paddle.static.program_guard(main, startup):\n"
            "        x = paddle.static.data('x', [None, 3], 'float32')\n"
            "        y = paddle.static.nn.fc(x, 2, name='shorten_fc')\n"
            "    exe = paddle.static.Executor(paddle.CPUPlace())")
        with capture_output() as shown:   # the startup program never ran: the weight is in no scope
            result = shell.run_cell(
                "import numpy as np\n"
                "with paddlecourse.static_mode():\n"
                "    exe.run(main, feed={'x': np.ones((1, 3), 'float32')}, fetch_list=[y])")
        assert type(result.error_in_exec) is RuntimeError   # still an error: nbgrader and progress() see it
        text = _plain(shown.stdout)
        assert "exe.run(main" in text and "calls inside Paddle, left out: %tb shows the whole traceback" in text
        assert "RuntimeError: Cannot find shorten_fc" in text and "in scope." in text
        assert "executor.py" not in text and "[Hint:" not in text and "pir_adaptor" not in text, text
        with capture_output() as shown:   # the whole traceback on request
            shell.run_line_magic("tb", "")
        assert "executor.py" in _plain(shown.stdout)
        with capture_output() as shown:   # a KeyError at the feed stays bare, as the lessons teach to read it
            shell.run_cell("with paddlecourse.static_mode():\n    exe.run(startup)\n"
                           "    exe.run(main, feed={'z': np.ones((1, 3), 'float32')}, fetch_list=[y])")
        text = _plain(shown.stdout)
        assert "inside Paddle, left out" in text and text.rstrip().endswith("KeyError: 'x'"), text
        with capture_output() as shown:   # an error in the learner's own code keeps its whole traceback
            shell.run_cell("def f():\n    return {}['k']\nf()")
        text = _plain(shown.stdout)
        assert "Traceback" in text and "return {}['k']" in text and "inside Paddle" not in text, text
    finally:
        InteractiveShell.clear_instance()


def test_a_warning_from_inside_paddle_is_one_line_and_any_other_keeps_its_form():
    import warnings

    from paddlecourse.errors import short_paddle_warnings

    plain = warnings.formatwarning
    short = short_paddle_warnings(plain)
    assert short_paddle_warnings(short) is short       # setup() run twice wraps once
    inside = paddle.base.executor.__file__
    assert short("The data type of fed Variable 'a' must be 'float64'", UserWarning, inside, 334,
                 "    warnings.warn(") == "UserWarning (from Paddle): The data type of fed Variable 'a' must be 'float64'\n"
    assert short("mine", UserWarning, "/home/ana/train.py", 3, "warn('mine')") == \
        plain("mine", UserWarning, "/home/ana/train.py", 3, "warn('mine')")
