"""Lesson 04's statements about what an Executor says when a feed is wrong, and how `cond` is printed."""
from ..language import N_
from .fact import Fact

# one small program with inputs "x" [-1, 4] and "label", as in lesson 04
PROGRAM = '''
import warnings
import numpy as np
import paddle
from paddlecourse import static_mode
from paddlecourse.errors import error_message

with static_mode():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data(name="x", shape=[-1, 4], dtype="float32")
        label = paddle.static.data(name="label", shape=[-1, 1], dtype="int64")
        logits = paddle.static.nn.fc(x, size=8)
        loss = paddle.nn.functional.cross_entropy(logits, label).mean()
    exe = paddle.static.Executor(paddle.CPUPlace())
    exe.run(startup)
xs = np.ones((6, 4), dtype="float32")
labels = np.zeros((6, 1), dtype="int64")

def run(feed):
    with static_mode(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exe.run(main, feed=feed, fetch_list=[loss])
            error = "no error"
        except Exception as failure:
            error = error_message(failure)
    return [str(w.message) for w in caught], error
'''

WRONG_FEED = PROGRAM + '''
try:
    with static_mode():
        exe.run(main, feed={"x": xs, "lable": labels}, fetch_list=[loss])
    observed = "no error"
except Exception as error:   # Python's own words, as lesson 04 prints them
    observed = "%s: %s" % (type(error).__name__, error)
'''

EXTRA_FEED = PROGRAM + '''
feed = {"x": xs, "label": labels, "weights": np.ones(6, dtype="float32")}
said, error = run(feed)
observed = {"warning": [w for w in said if "not found in program" in w], "error": error, "keys after": sorted(feed)}
'''

SHAPE_ERROR = PROGRAM + '''
observed = run({"x": xs[:, :3], "label": labels})[1]
'''

COND = '''
import paddle
from paddlecourse import static_mode
with static_mode():
    main, startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        a = paddle.static.data(name="a", shape=[-1, 1], dtype="float32")
        out = paddle.static.nn.cond(paddle.mean(a) > 0, lambda: a * 2, lambda: a * 3)
text = str(main)
observed = {'"pd_op.if" printed': '"pd_op.if"' in text, "num_blocks": main.num_blocks,
            "branches end in cf.yield": text.count('"cf.yield"') == 2}
'''

# section 5's script: minimize outside the guard while the default program holds something; then the programs are
# freed by the script itself (as the lesson's does), or only by the interpreter's exit
OUTSIDE_THE_GUARD = '''
import os, subprocess, sys, textwrap
SCRIPT = textwrap.dedent("""
    import numpy as np
    import paddlecourse
    paddle = paddlecourse.setup(seed=0)
    rng = np.random.default_rng(0)
    batch = {"x": rng.normal(size=(16, 3)).astype("float32"), "y": rng.normal(size=(16, 1)).astype("float32")}

    def build():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            y = paddle.static.data("y", [None, 1], "float32")
            loss = paddle.mean((paddle.static.nn.fc(x, 1, name="fc") - y) ** 2)
        return main, startup, loss

    with paddlecourse.static_mode():
        print("Case 1: the default main program is empty")
        main, startup, loss = build()
        try:
            paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)      # outside the guard
        except IndexError as error:
            print("  minimize raised IndexError:", error)

        print("Case 2: the default main program already holds something")
        leftover = paddle.static.data("leftover", [1], "float32")      # lands in the default program
        main, startup, loss = build()
        ops_before = main.num_ops()
        paddle.optimizer.SGD(learning_rate=0.1).minimize(loss)          # outside the guard
        in_main = [op.name() for op in main.global_block().ops]
        in_default = [op.name() for op in paddle.static.default_main_program().global_block().ops]
        print("  minimize returned without an error")
        print("  ops added to main:", main.num_ops() - ops_before, "| sgd ops in main:", in_main.count("pd_op.sgd_"),
              "| sgd ops in the default program:", in_default.count("pd_op.sgd_"))
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        for step in range(3):
            loss_value, = exe.run(main, feed=batch, fetch_list=[loss])
            print(f"  step {step}: loss {float(loss_value):.6f}")
    if FREE:
        del main, startup, loss, leftover, exe
        import gc; gc.collect()
""")

def ending(free):
    done = subprocess.run([sys.executable, "-W", "ignore", "-c", SCRIPT.replace("FREE", str(free))], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "GLOG_minloglevel": "2"})
    aborted = done.returncode == -6 and "Destroyed a op_result that is still in use" in done.stderr
    return "SIGABRT, Destroyed a op_result ..." if aborted else "exit status %d" % done.returncode

observed = {"freed by the script": ending(True), "at exit": ending(False)}
'''

FACTS = [
    Fact("04", N_("section 3, blocks and control flow"),
         N_("cond writes one pd_op.if op that holds both branches (the program keeps one block)"),
         COND, {'"pd_op.if" printed': True, "num_blocks": 1, "branches end in cf.yield": True}),
    Fact("04", N_("section 6, a wrong feed name"), N_("a feed name the program does not declare: KeyError naming the missing input"),
         WRONG_FEED, "KeyError: 'label'"),
    Fact("04", N_("section 6, an extra feed key"),
         N_("an extra feed key: no error, a warning, and the key is removed from your dict"),
         EXTRA_FEED, {"warning": ["The value weights is not found in program. It is not declared or is pruned."],
                      "error": "no error", "keys after": ["label", "x"]}),
    Fact("04", N_("section 6, the wrong number of features"),
         N_("3 features instead of 4: `ValueError: In operator matmul, …` names the op"),
         SHAPE_ERROR, "ValueError: In operator matmul, the [1] dimension of Input(X) must be equal to the [0] dimension of "
                      "Input(Y). But receiving the [1]dimension of Input(X) is [3], and the [0] dimension of Input(Y) is [4]."),
    Fact("04", N_("section 5, minimize belongs inside the guard"),
         N_("freeing a program whose optimizer ops landed in the default program aborts the process (SIGABRT); "
            "the interpreter's exit frees it on CPython 3.11 and 3.12, not on 3.10 and 3.13"),
         OUTSIDE_THE_GUARD, {"freed by the script": "SIGABRT, Destroyed a op_result ...",
                             "at exit": "SIGABRT, Destroyed a op_result ..."},
         also_fine=({"freed by the script": "SIGABRT, Destroyed a op_result ...", "at exit": "exit status 0"},)),
]
