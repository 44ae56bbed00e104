"""Lesson 06 (grade ids l06-ex1..ex4, 2+1+2+3 = 8 points): honest and hostile submissions.

ex1's answer is a model loaded from files and the files the cell wrote at `ex1_prefix`: both travel as
their contents. ex4's is a class (`class FixedScorer(Scorer)`, a Layer whose forward is the answer): it
travels as what its test needs of it (its eval forward exported as a program, its outputs on the
exercise's input). ex2 and ex3 are data.
"""
import textwrap

from . import attacks


def _code(text):
    return textwrap.dedent(text).strip("\n")


RIGHT = {
    "l06-ex1-answer": _code("""
        remove_export(ex1_prefix)
        ex1_spec = [InputSpec([None, 784], "float32", "x")]
        paddle.jit.save(model, ex1_prefix, input_spec=ex1_spec)
        reloaded = paddle.jit.load(ex1_prefix)
    """),
    "l06-ex2-answer": 'silent = {"B", "C"}',
    "l06-ex3-answer": 'row_mixer_spec = [InputSpec([None, 784], "float32", "x")]',
    "l06-ex4-answer": _code("""
        class FixedScorer(Scorer):
            def forward(self, x):
                h = F.relu(self.hidden(x))
                h = F.dropout(h, p=0.2, training=self.training)
                return self.out(h)
    """),
}

# right in other forms: keywords and -1 for the batch, a list in another case, one spec not in a list,
# the forward in one expression with the layers' functional names spelled out
OTHER_FORM = {
    "l06-ex1-answer": _code("""
        remove_export(ex1_prefix)
        ex1_spec = [paddle.static.InputSpec(shape=[-1, 784], dtype="float32", name="x")]
        paddle.jit.save(layer=model, path=ex1_prefix, input_spec=ex1_spec)
        reloaded = paddle.jit.load(path=ex1_prefix)
    """),
    "l06-ex2-answer": 'silent = ["c", "b"]',
    "l06-ex3-answer": 'row_mixer_spec = InputSpec(shape=[None, 784], dtype="float32")',
    "l06-ex4-answer": _code("""
        class FixedScorer(Scorer):
            def forward(self, x):
                return self.out(paddle.nn.functional.dropout(paddle.nn.functional.relu(self.hidden(x)),
                                                             p=0.2, training=self.training))
    """),
}

WRONG = {
    # a fixed batch of one, baked into the saved program
    "l06-ex1-answer": RIGHT["l06-ex1-answer"].replace("[None, 784]", "[1, 784]"),
    "l06-ex2-answer": 'silent = {"A", "B"}',
    "l06-ex3-answer": 'row_mixer_spec = [InputSpec([None, 28, 28], "float32", "x")]',
    # dropout always on: training=True in eval mode too
    "l06-ex4-answer": RIGHT["l06-ex4-answer"].replace("training=self.training", "training=True"),
}

# the right InputSpec and a model loaded back, but saved elsewhere: nothing is at ex1_prefix, where the test
# reads (the judge's run wrote the solution's files there; they must go before the test runs)
SPEC_NOT_SAVED = _code("""
    remove_export(ex1_prefix)
    ex1_spec = [InputSpec([None, 784], "float32", "x")]
    _elsewhere = os.path.join(os.path.dirname(ex1_prefix), "elsewhere")
    paddle.jit.save(model, _elsewhere, input_spec=ex1_spec)
    reloaded = paddle.jit.load(_elsewhere)
""")

# the old hole (issue 22): no class at all, and hooks that print what a passing check prints and clear the
# error of every cell; nothing of a verdict comes from the student's kernel any more, so nothing to forge
NO_CLASS_BEHIND_HOOKS = "\n".join([attacks.HOOKS, _code("""
    _ip.events.register("pre_run_cell", lambda *args: print("✓ Passed."))
    FixedScorer = None
""")])

# no dropout at all (the test's "dropout still acts in train() mode" fails), behind hooks that swallow every
# error, patched numpy, paddle and checks, and a print of every cell run so far
HOOKS_CLASS = "\n".join([attacks.HOOKS, attacks.PATCHES, "print('\\n'.join(In))", _code("""
    class FixedScorer(Scorer):
        def forward(self, x):
            return self.out(F.relu(self.hidden(x)))
""")])

SUBMISSIONS = {
    "correct": {"answers": RIGHT},
    "other_form": {"answers": OTHER_FORM},
    "wrong": {"answers": WRONG},
    "blank": {"answers": {}},
    "hooks_and_liars": {"answers": {"l06-ex1-answer": SPEC_NOT_SAVED, "l06-ex4-answer": HOOKS_CLASS}},
    "no_class_behind_hooks": {"answers": {**RIGHT, "l06-ex4-answer": NO_CLASS_BEHIND_HOOKS}},
    # the right class, but the kernel exits in ex1: ex4 is never reported, and the judge's run (which held the
    # solution's class) must not grade it
    "exits_first": {"answers": {**RIGHT, "l06-ex1-answer": "import os\nos._exit(0)"}},
}
EXPECTED = {"correct": 8, "other_form": 8, "wrong": 0, "blank": 0, "hooks_and_liars": 0, "no_class_behind_hooks": 5,
            "exits_first": 0}
NEEDS_LOOK = {"exits_first"}
MAX_SCORE = 8
