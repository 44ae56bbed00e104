"""Lesson 04: every likely wrong answer is rejected with a message that points at the fix.

One real course kernel runs solutions/04 top to bottom; each exercise's wrong answers are tried in
place of its answer cell (then the visible part of its check cell, as a learner runs it), and the
real solution is put back before the next exercise.
"""
from pathlib import Path

from wrong_answers import lesson_kernel, rejections, try_all

ROOT = Path(__file__).resolve().parent.parent

EX1_STUB = "formula_main = None\nformula_z = None\nformula_result = None\n"


def formula(names=("a", "b"), shape="[None, 3]", z="paddle.mean(2 * fa + fb * fb, axis=1)",
            fetch="formula_result, = exe.run(formula_main, feed=feed, fetch_list=[formula_z])", feed="formula_feed",
            static=True):
    body = (
        "formula_main, formula_startup = paddle.static.Program(), paddle.static.Program()\n"
        "with paddle.static.program_guard(formula_main, formula_startup):\n"
        f"    fa = paddle.static.data(name='{names[0]}', shape={shape}, dtype='float32')\n"
        f"    fb = paddle.static.data(name='{names[1]}', shape={shape}, dtype='float32')\n"
        f"    formula_z = {z}\n"
        "exe = paddle.static.Executor(paddle.CPUPlace())\n"
        "exe.run(formula_startup)\n"
        f"feed = {feed}\n"
        f"{fetch}\n"
    )
    if not static:
        return EX1_STUB + body
    return EX1_STUB + "with paddlecourse.static_mode():\n" + "".join("    " + line + "\n" for line in body.splitlines())


RENAMED_FEED = "{'x': formula_feed['a'], 'y': formula_feed['b']}"
EX1_WRONG = {
    "the untouched stub": (EX1_STUB, ["`formula_main` has no answer yet", "# YOUR CODE HERE"]),
    "built outside static_mode()": (formula(static=False), ["formula_main is a static Program with ops", "static_mode()"]),
    "the sum instead of the mean": (formula(z="paddle.sum(2 * fa + fb * fb, axis=1)"), ["formula_result", "mean over axis 1"]),
    "the mean over everything": (formula(z="paddle.mean(2 * fa + fb * fb)"), ["formula_result", "mean over axis 1"]),
    "b * 2 instead of b squared": (formula(z="paddle.mean(2 * fa + fb * 2, axis=1)"), ["formula_result", "2*a + b*b"]),
    "inputs named x and y": (formula(names=("x", "y"), feed=RENAMED_FEED), ["its inputs are named a and b"]),
    "a batch size baked in": (formula(shape="[3, 3]"), ["batch size is left to run time", "shape=[None, 3]"]),
    "the Value instead of the fetched array": (formula(fetch="formula_result = formula_z"),
                                               ["formula_result is a NumPy array", "exe.run"]),
    "the list exe.run returns": (formula(fetch="formula_result = exe.run(formula_main, feed=feed, fetch_list=[formula_z])"),
                                 ["formula_result is a NumPy array", "returns a list"]),
}
# A newcomer's walk: a result kept from a wrong try (the answer cell's `= None` lines deleted), then a fixed formula
# whose run stopped with an error before exe.run. The check must judge the program, not the old array.
EX1_WRONG["a result left from an earlier try"] = (
    "formula_result = np.full(3, 4.1, dtype='float32')   # from the earlier try\n"
    + formula(fetch="raise TypeError('The item in fetch_list should be str, variable or optimize_op')")[len(EX1_STUB):],
    ["formula_result comes from this formula_main", "left from an earlier try"])
EX1_RIGHT = {
    "keepdim=True and paddle.pow": formula(z="paddle.mean(2 * fa + paddle.pow(fb, 2), axis=1, keepdim=True)"),
}

EX2_WRONG = {
    "the untouched stub": ("quiz_matmuls = None\nquiz_parameters = None\nquiz_activation = None\n",
                           ["`quiz_matmuls` has no answer yet", "`quiz_activation` has no answer yet"]),
    "a bias counted on the last layer": ("quiz_matmuls = 3\nquiz_parameters = 6\nquiz_activation = 'pd_op.tanh'\n",
                                         ["quiz_parameters", "bias_attr=False"]),
    "two matmuls": ("quiz_matmuls = 2\nquiz_parameters = 5\nquiz_activation = 'pd_op.tanh'\n",
                    ["quiz_matmuls", "One matmul per fc layer"]),
    "the short activation name": ("quiz_matmuls = 3\nquiz_parameters = 5\nquiz_activation = 'tanh'\n",
                                  ["quiz_activation", "full name"]),
    "the lesson's relu": ("quiz_matmuls = 3\nquiz_parameters = 5\nquiz_activation = 'pd_op.relu'\n",
                          ["quiz_activation", "full name"]),
    "everything wrong at once": ("quiz_matmuls = 2\nquiz_parameters = 6\nquiz_activation = 'tanh'\n",
                                 ["3 of 3 parts", "quiz_matmuls", "quiz_parameters", "quiz_activation"]),
}
EX2_RIGHT = {"counted with Counter, any case": (
    "from collections import Counter\ncounts = Counter(op_names(quiz_main))\n"
    "quiz_matmuls = counts['pd_op.matmul']\nquiz_parameters = counts['builtin.parameter']\n"
    "quiz_activation = ' PD_OP.TANH '\n")}

EX3_STUB = "fixed_feed = None\nfixed_loss = None\n"


def feed_fix(feed, static=True, fetch="fixed_loss, = fit_exe.run(fit_main, feed=fixed_feed, fetch_list=[fit_loss])"):
    run = f"fixed_feed = {feed}\n" + (f"with paddlecourse.static_mode():\n    {fetch}\n" if static else f"{fetch}\n")
    return EX3_STUB + run


EX3_WRONG = {
    "the untouched stub": (EX3_STUB, ["`fixed_feed` has no answer yet", "# YOUR CODE HERE"]),
    "only one key fixed": (feed_fix("{'features': inputs_2d, 'label': targets}"),
                           ["the keys of fixed_feed", "input_names(fit_main)", "fixed_loss was fetched"]),
    "run outside static_mode()": (feed_fix("{'features': inputs_2d, 'target': targets}", static=False),
                                  ["fixed_loss was fetched", "static_mode()"]),
    "the arrays swapped": (feed_fix("{'features': targets, 'target': inputs_2d}"),
                           ["fixed_loss was fetched", "right names"]),
    "the loss Value, not fetched": (feed_fix("{'features': inputs_2d, 'target': targets}", fetch="fixed_loss = fit_loss"),
                                    ["fixed_loss"]),
}
EX3_RIGHT = {"a float": feed_fix(
    "{'target': targets, 'features': inputs_2d}",
    fetch="fixed_loss = float(fit_exe.run(fit_main, feed=fixed_feed, fetch_list=[fit_loss])[0])")}

EX4_STUB = "line_main = line_startup = None\nline_loss = None\nline_losses = None\n"


def line_fit(steps=100, learning_rate=0.1, inside=True, startup=True, keep="float(value)"):
    minimize = f"paddle.optimizer.SGD(learning_rate={learning_rate}).minimize(line_loss)"
    return EX4_STUB + (
        "with paddlecourse.static_mode(), unique_name.guard():\n"
        "    line_main, line_startup = paddle.static.Program(), paddle.static.Program()\n"
        "    with paddle.static.program_guard(line_main, line_startup):\n"
        "        lx = paddle.static.data(name='x', shape=[None, 1], dtype='float32')\n"
        "        ly = paddle.static.data(name='y', shape=[None, 1], dtype='float32')\n"
        "        line_loss = paddle.mean((paddle.static.nn.fc(lx, size=1, name='line') - ly) ** 2)\n"
        + (f"        {minimize}\n" if inside else f"    {minimize}\n")
        + "    line_exe = paddle.static.Executor(paddle.CPUPlace())\n"
        + ("    line_exe.run(line_startup)\n" if startup else "")
        + "    line_losses = []\n"
        f"    for step in range({steps}):\n"
        "        value, = line_exe.run(line_main, feed=line_feed, fetch_list=[line_loss])\n"
        f"        line_losses.append({keep})\n"
    )


EX4_WRONG = {
    # first, while no `line.*` parameter exists yet in the global scope
    "the startup program never run": (line_fit(startup=False), ["line_losses is a list", "exe.run(line_startup)` once"]),
    "the untouched stub": (EX4_STUB, ["`line_main` has no answer yet", "# YOUR CODE HERE"]),
    "only 10 steps": (line_fit(steps=10), ["line_losses is a list with one loss per step", "100 steps"]),
    "a learning rate 100 times too small": (line_fit(learning_rate=0.001), ["fell below 1%", "learning_rate=0.1"]),
    # the programs built inside static_mode(), the training loop outside it: exe.run raises a fetch_list TypeError
    "the training loop outside static_mode()": (
        line_fit().replace("\n    line_losses = []\n    for step in range(100):\n        value, =",
                           "\nline_losses = []\nfor step in range(100):\n    value, =")
        .replace("        line_losses.append(", "    line_losses.append("),
        ["it is a list of 0", "inside `with paddlecourse.static_mode():`", "TypeError: The item in fetch_list"]),
}
EX4_RIGHT = {"the fetched arrays kept as they are": line_fit(keep="value")}
# minimize outside the guard is tried last (it can abort the kernel when the programs are freed)
EX4_LAST = ("minimize outside the guard", line_fit(inside=False), ["line_main holds optimizer ops", "inside"])


lesson = lesson_kernel("04_inside_a_static_program.ipynb")


def test_ex1_a_formula_as_a_static_program(lesson):
    try_all(lesson, "l04-ex1", EX1_WRONG, EX1_RIGHT)


def test_ex2_count_and_identify_ops(lesson):
    try_all(lesson, "l04-ex2", EX2_WRONG, EX2_RIGHT)


def test_ex3_fix_a_broken_feed(lesson):
    try_all(lesson, "l04-ex3", EX3_WRONG, EX3_RIGHT)


def test_ex4_put_minimize_where_it_belongs(lesson):
    try_all(lesson, "l04-ex4", EX4_WRONG, EX4_RIGHT)
    label, code, words = EX4_LAST
    assert not rejections(lesson, "l04-ex4", {label: (code, words)})


def test_ex1_without_program_guard_empties_the_feed_and_the_check_says_why(lesson):
    """Tried last: the stray ops go into the kernel's default program. exe.run then removes `a` and `b` from
    formula_feed (they are not in formula_main), and the check must say so instead of a bare KeyError."""
    lesson.run_until("l04-ex1-answer")
    no_guard = EX1_STUB + (
        "with paddlecourse.static_mode():\n"
        "    formula_main, formula_startup = paddle.static.Program(), paddle.static.Program()\n"
        "    fa = paddle.static.data(name='a', shape=[None, 3], dtype='float32')\n"
        "    fb = paddle.static.data(name='b', shape=[None, 3], dtype='float32')\n"
        "    formula_z = paddle.mean(2 * fa + fb * fb, axis=1)\n"
        "    exe = paddle.static.Executor(paddle.CPUPlace())\n"
        "    formula_result, = exe.run(formula_main, feed=formula_feed, fetch_list=[formula_z])\n")
    assert not rejections(lesson, "l04-ex1", {"no program_guard": (
        no_guard, ["formula_feed has lost its inputs", "program_guard(formula_main", "defines formula_feed again"])})
