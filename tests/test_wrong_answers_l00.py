"""Lesson 00: the answers a learner is likely to get wrong are rejected with a sentence that points at the fix.

One real course kernel runs the solution notebook; each wrong answer replaces the answer cell and the
visible part of the check cell runs, as a learner would run it. The real solution passes at the end of
each exercise (its whole test cell, hidden tests included).
"""
from wrong_answers import accepted, lesson_kernel, rejected, solution_passes

MIRROR = "https://mirror.example.invalid/simple"

lesson = lesson_kernel("00_setup_and_first_run.ipynb")


def test_ex1_gradient_check(lesson):
    lesson.run_until("l00-ex1-answer")
    rejected(lesson, "l00-ex1", "a = None\nb = None", "`a` has no answer yet", "# YOUR CODE HERE")
    # the lesson's own mistake: tensors made by randn are not tracked
    rejected(lesson, "l00-ex1", "a = paddle.randn([4, 3])\nb = paddle.randn([3, 5])\npaddle.matmul(a, b).sum().backward()",
             "stop_gradient is True", "stop_gradient=False")
    # tracking switched on after the forward pass
    rejected(lesson, "l00-ex1", "a = paddle.randn([4, 3])\nb = paddle.randn([3, 5])\nloss = paddle.matmul(a, b).sum()\n"
             "a.stop_gradient = False\nloss.backward()", "a.grad is None", "before the forward pass")
    # b tracked instead of a
    rejected(lesson, "l00-ex1", "a = paddle.randn([4, 3])\nb = paddle.randn([3, 5])\nb.stop_gradient = False\n"
             "paddle.matmul(a, b).sum().backward()", "a.grad is None", "stop_gradient=False")
    # the snippet's 32 x 32 shapes kept
    rejected(lesson, "l00-ex1", "a = paddle.randn([32, 32])\na.stop_gradient = False\nb = paddle.randn([32, 32])\n"
             "paddle.matmul(a, b).sum().backward()", "a has shape [32, 32]", "[4, 3]")
    # backward() twice: the gradient adds up
    rejected(lesson, "l00-ex1", "a = paddle.randn([4, 3])\na.stop_gradient = False\nb = paddle.randn([3, 5])\n"
             "for _ in range(2):\n    paddle.matmul(a, b).sum().backward()", "a.grad", "backward() once")
    # .mean() instead of .sum(): the gradient is 1/20 of the right one, and the hint says why (a newcomer's walk)
    rejected(lesson, "l00-ex1", "a = paddle.randn([4, 3])\na.stop_gradient = False\nb = paddle.randn([3, 5])\n"
             "paddle.matmul(a, b).mean().backward()", "a.grad", "1/20", ".mean()")
    # NumPy's float64 mixed with randn's float32: Paddle refuses in the answer cell, the check says what to use
    rejected(lesson, "l00-ex1", "import numpy as np\na = paddle.to_tensor(np.random.rand(4, 3), stop_gradient=False)\n"
             "b = paddle.randn([3, 5])\npaddle.matmul(a, b).sum().backward()",
             "a has dtype float64; expected float32", "np.float32 / dtype='float32'")
    rejected(lesson, "l00-ex1", "import numpy as np\na = paddle.randn([4, 3])\na.stop_gradient = False\n"
             "b = paddle.to_tensor(np.ones((3, 5)))\npaddle.matmul(a, b).sum().backward()", "b has dtype float64", "Use float32")
    # both float64: matmul works and the gradient is right, another form of a right answer
    accepted(lesson, "l00-ex1", "import numpy as np\na = paddle.to_tensor(np.ones((4, 3)), stop_gradient=False)\n"
             "b = paddle.to_tensor(np.ones((3, 5)))\npaddle.matmul(a, b).sum().backward()")
    accepted(lesson, "l00-ex1", "a = paddle.to_tensor(np.ones((4, 3), 'float32'), stop_gradient=False)\n"
             "b = paddle.randn([3, 5])\npaddle.matmul(a, b).sum().backward()")
    solution_passes(lesson, "l00-ex1")


def test_ex2_one_off_mirror(lesson):
    lesson.run_until("l00-ex2-answer")
    rejected(lesson, "l00-ex2", "one_off_install = None", "`one_off_install` has no answer yet")
    rejected(lesson, "l00-ex2", f"one_off_install = 'pip config set global.index-url {MIRROR}'",
             "✗ it is a pip install", "every later install")
    rejected(lesson, "l00-ex2", f"one_off_install = 'pip install paddlepaddle -i {MIRROR}'",
             "✗ it installs paddlepaddle==3.3.1", "with its version")
    rejected(lesson, "l00-ex2", f"one_off_install = 'pip install paddlepaddle-gpu==3.3.1 -i {MIRROR}'",
             "✗ it installs paddlepaddle==3.3.1", "CPU package")
    rejected(lesson, "l00-ex2", f"one_off_install = 'pip install paddlepaddle==3.3.1 --extra-index-url {MIRROR}'",
             "✗ it uses the mirror for this command only", "--extra-index-url")
    rejected(lesson, "l00-ex2", "one_off_install = 'pip install paddlepaddle==3.3.1 -i https://mirror.example.invalid'",
             "✗ it uses the mirror for this command only", "/simple included")
    rejected(lesson, "l00-ex2", f"one_off_install = ['pip', 'install', 'paddlepaddle==3.3.1', '-i', '{MIRROR}']",
             "✗ it is one string", "in quotes")
    # a quote inside the command that has no partner: one part says so, the others still read the command
    unpaired = rejected(lesson, "l00-ex2", f"one_off_install = 'pip install paddlepaddle==3.3.1 -i \"{MIRROR}'",
                        "✗ its quotes pair up", "no partner")
    assert "1 of 5 parts" in unpaired.message
    not_text = rejected(lesson, "l00-ex2", "one_off_install = 42", "✗ it is one string", "in quotes")
    assert "its one part is not right yet" in not_text.message
    accepted(lesson, "l00-ex2", f"one_off_install = 'pip install paddlepaddle==3.3.1 -i {MIRROR}/'")   # pip takes it
    accepted(lesson, "l00-ex2", f"one_off_install = 'python -m pip install --index-url={MIRROR} paddlepaddle==3.3.1'")
    solution_passes(lesson, "l00-ex2")


def test_ex3_wheel_tags(lesson):
    lesson.run_until("l00-ex3-answer")
    linux311 = "paddlepaddle-3.3.1-cp311-cp311-linux_x86_64.whl"
    numpy311 = "numpy-2.4.6-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl"
    rejected(lesson, "l00-ex3", "fits_the_server = None", "`fits_the_server` has no answer yet")
    cp310 = rejected(lesson, "l00-ex3", f"fits_the_server = ['{linux311}', '{numpy311}', "
                     "'paddlepaddle-3.3.1-cp310-cp310-linux_x86_64.whl']", "1 of your 3 file(s) do not install", "cp311")
    assert "..." not in cp310.message and "numpy-2.4.6" not in cp310.message   # no cut echo, no answer listed
    rejected(lesson, "l00-ex3", f"fits_the_server = ['{linux311}', '{numpy311}', "
             "'paddlepaddle-3.3.1-cp311-cp311-macosx_11_0_arm64.whl']", "do not install on the server", "macosx")
    rejected(lesson, "l00-ex3", f"fits_the_server = ['{linux311}']", "1 more file(s) in `downloaded` would install too", "manylinux")
    rejected(lesson, "l00-ex3", f"fits_the_server = '{linux311}'", "in a list")
    indexes = rejected(lesson, "l00-ex3", "fits_the_server = [0, 4]", "a list of file names (strings)",
                       "the file names themselves")
    assert "one of the options" not in indexes.message
    rejected(lesson, "l00-ex3", "fits_the_server = ['paddlepaddle-3.3.1-cp311-cp311-linux_x86_64']",
             "not in `downloaded`", "from its first letter to .whl")
    rejected(lesson, "l00-ex3", "fits_the_server = 5", "a list of file names")
    accepted(lesson, "l00-ex3", f"fits_the_server = ('{numpy311}', '{linux311}')")
    solution_passes(lesson, "l00-ex3")


def test_ex4_dockerfile_line(lesson):
    lesson.run_until("l00-ex4-answer")
    config = f"pip config set global.index-url {MIRROR}"
    install = "pip install --no-cache-dir paddlepaddle==3.3.1"
    rejected(lesson, "l00-ex4", "run_line = None", "`run_line` has no answer yet")
    # the broken line itself: a backslash, no &&
    rejected(lesson, "l00-ex4", f"run_line = 'RUN {config} \\\\ {install}'", "✗ two commands joined by &&", "one long")
    semicolon = rejected(lesson, "l00-ex4", f"run_line = 'RUN {config} ; {install}'", "✗ two commands joined by &&",
                         "only after a success")
    assert "1 of 6 parts" in semicolon.message          # each command itself is right, and is told so
    rejected(lesson, "l00-ex4", f"run_line = 'RUN {config} && pip install paddlepaddle==3.3.1'",
             "✗ second: pip install of paddlepaddle==3.3.1 with --no-cache-dir", "download cache")
    no_run = rejected(lesson, "l00-ex4", f"run_line = '{config} && {install}'", "✗ it is a RUN instruction", "RUN ")
    assert "1 of 6 parts" in no_run.message             # the commands after it are still read right
    rejected(lesson, "l00-ex4", f"run_line = 'RUN pip install --no-cache-dir -i {MIRROR} paddlepaddle==3.3.1'",
             "✗ two commands joined by &&")
    # the backslash kept on one line: only that part fails, and it names the backslash
    stray = rejected(lesson, "l00-ex4", f"run_line = 'RUN {config} \\\\ && {install}'", "✗ no stray backslash",
                     "Take the backslash")
    assert "1 of 6 parts" in stray.message
    rejected(lesson, "l00-ex4", f"run_line = 'RUN {config} && \\\\ {install}'", "✗ no stray backslash")
    rejected(lesson, "l00-ex4", f"run_line = 'RUN {config} \\\\\\n && {install}'", "✗ no stray backslash")
    rejected(lesson, "l00-ex4", f"run_line = 'RUN pip config set global.index-url \"{MIRROR} && {install}'",
             "✗ its quotes pair up")
    rejected(lesson, "l00-ex4", f"run_line = ['RUN {config}', '{install}']", "✗ it is one string", "its one part is not right yet")
    accepted(lesson, "l00-ex4", f"run_line = 'RUN {config} && pip install paddlepaddle==3.3.1 --no-cache-dir'")
    accepted(lesson, "l00-ex4", f"run_line = 'RUN python -m {config} && python -m {install}'")   # the lesson's own form
    solution_passes(lesson, "l00-ex4")
