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
]
