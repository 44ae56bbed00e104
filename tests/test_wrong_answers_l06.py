"""Lesson 06: the wrong answers a learner is likely to give are rejected, each with a message that points at the fix.

One real course kernel runs the solution notebook; each wrong answer replaces the answer cell, then the
visible part of the check cell runs, as it does for a learner (see tests/lesson_runner.py). The order of
exercise 1's answers matters: they write files at the same prefix.
"""
from lesson_runner import LessonKernel
from wrong_answers import SOLUTIONS, rejected_with

LESSON = SOLUTIONS / "06_export.ipynb"

SAVE = ("remove_export(ex1_prefix)\nex1_spec = {spec}\nreloaded = None\n"
        "paddle.jit.save(model, {prefix}, input_spec=ex1_spec)\nreloaded = paddle.jit.load({prefix})\n")
RIGHT_SPEC = '[InputSpec([None, 784], "float32", "x")]'

SCORER_AS_IS = '''
FixedScorer = None
class FixedScorer(Scorer):
    def forward(self, x):
        return self.out(F.dropout(F.relu(self.hidden(x)), p=0.2))
'''
NO_DROPOUT = '''
FixedScorer = None
class FixedScorer(Scorer):
    def forward(self, x):
        return self.out(F.relu(self.hidden(x)))
'''
RENAMED = '''
FixedScorer = None
class FixedScorer(nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(784, 32), nn.Linear(32, 10)
    def forward(self, x):
        return self.fc2(F.dropout(F.relu(self.fc1(x)), p=0.2, training=self.training))
'''
DROPOUT_LAYER = '''
FixedScorer = None
class FixedScorer(Scorer):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.2)
    def forward(self, x):
        return self.out(self.drop(F.relu(self.hidden(x))))
'''


def test_wrong_answers_are_rejected_with_a_pointing_message_and_the_solution_passes():
    with LessonKernel(LESSON) as lesson:
        # ---- Exercise 1: ex1_spec, export model to ex1_prefix, load it into reloaded
        lesson.run_until("l06-ex1-answer")
        untouched = lesson.try_answer("l06-ex1", "remove_export(ex1_prefix)\nex1_spec = None\nreloaded = None")
        rejected_with(untouched, "`ex1_spec` and `reloaded` have no answer yet")
        assert "\n" not in untouched.message, untouched.message
        other_place = SAVE.format(prefix='where("elsewhere", "model")', spec=RIGHT_SPEC)
        rejected_with(lesson.try_answer("l06-ex1", other_place), "✗ the two Paddle 3 files exist", "exactly ex1_prefix")
        fixed_batch = SAVE.format(prefix="ex1_prefix", spec='[InputSpec([1, 784], "float32", "x")]')
        rejected_with(lesson.try_answer("l06-ex1", fixed_batch), "fixes the batch size at 1 ([1, 784])",
                 "✗ the saved program accepts any batch size", "[[1, 784]]", "None for the batch dimension")
        no_dtype = SAVE.format(prefix="ex1_prefix", spec="[InputSpec([1, 784])]")   # the spec the lesson warns about
        rejected_with(lesson.try_answer("l06-ex1", no_dtype), "fixes the batch size at 1", "[[1, 784]]")
        for wrong, words in [("[InputSpec]", "the class InputSpec itself"), ("InputSpec", "the class InputSpec itself"),
                             ('InputSpec([None, 784], "float32", "x")', "put it in square brackets"),
                             ("[None, 784]", "is a shape ([None, 784]), not an InputSpec")]:
            result = lesson.try_answer("l06-ex1", SAVE.format(prefix="ex1_prefix", spec=wrong))
            rejected_with(result, words, "the two Paddle 3 files exist at ex1_prefix does not hold")
        path_not_layer = (f"remove_export(ex1_prefix)\nex1_spec = {RIGHT_SPEC}\n"
                          "paddle.jit.save(model, ex1_prefix, input_spec=ex1_spec)\nreloaded = ex1_prefix\n")
        rejected_with(lesson.try_answer("l06-ex1", path_not_layer), "reloaded is the layer paddle.jit.load returned",
                 "it is a str")
        rejected_with(lesson.try_answer("l06-ex1", path_not_layer.replace("reloaded = ex1_prefix", "reloaded = model")),
                 "it is a DigitMLP", "not the model you exported")
        float64 = SAVE.format(prefix="ex1_prefix", spec='[InputSpec([None, 784], "float64", "x")]')
        rejected_with(lesson.try_answer("l06-ex1", float64), "its dtype is float64")
        assert lesson.try_answer("l06-ex1", SAVE.format(prefix="ex1_prefix", spec=RIGHT_SPEC)).passed
        # files from that earlier run are deleted by the answer cell: loading alone no longer passes
        only_load = f"remove_export(ex1_prefix)\nex1_spec = {RIGHT_SPEC}\nreloaded = paddle.jit.load(ex1_prefix)\n"
        stale = lesson.try_answer("l06-ex1", only_load)
        rejected_with(stale, "the two Paddle 3 files exist at ex1_prefix does not hold")
        assert lesson.run_cell_of("l06-ex1-answer").passed
        right = lesson.run_cell_of("l06-ex1")
        assert right.passed and "✓ the saved program accepts any batch size" in right.output, right

        # ---- Exercise 2: silent
        lesson.run_until("l06-ex2-answer")
        rejected_with(lesson.try_answer("l06-ex2", "silent = None"), "`silent` has no answer yet")
        for wrong in ('{"B"}', '{"C"}', '{"B", "C", "E"}', '{"A", "B", "C"}', '{"B", "C", "D"}'):
            rejected_with(lesson.try_answer("l06-ex2", f"silent = {wrong}"), "matches eager: False", "E is not a mistake")
        rejected_with(lesson.try_answer("l06-ex2", "silent = {'B', 'F'}"), "not one of the options")
        assert lesson.try_answer("l06-ex2", 'silent = ["c", "b"]').passed       # a list, any case, works too
        assert lesson.run_cell_of("l06-ex2-answer").passed

        # ---- Exercise 3: row_mixer_spec
        lesson.run_until("l06-ex3-answer")
        rejected_with(lesson.try_answer("l06-ex3", "row_mixer_spec = None"), "`row_mixer_spec` has no answer yet")
        rejected_with(lesson.try_answer("l06-ex3", 'row_mixer_spec = [InputSpec([1, 784], "float32", "x")]'),
                 "fixes the batch size at 1", "write None for the batch dimension")
        rejected_with(lesson.try_answer("l06-ex3", 'row_mixer_spec = [InputSpec([None, 784], "float64", "x")]'),
                 "its dtype is float64 but the model's weights are float32")
        from_numpy = lesson.try_answer("l06-ex3", 'row_mixer_spec = InputSpec.from_numpy(as_float64, name="x")')
        rejected_with(from_numpy, "fixes the batch size at 3", "its dtype is float64")   # both problems, one sentence
        rejected_with(lesson.try_answer("l06-ex3", 'row_mixer_spec = [InputSpec([None, 28, 28], "float32", "x")]'),
                 "[batch, 784]")
        rejected_with(lesson.try_answer("l06-ex3", 'row_mixer_spec = "x"'), "a list with one InputSpec")
        for wrong in ("InputSpec", "[InputSpec]"):
            rejected_with(lesson.try_answer("l06-ex3", f"row_mixer_spec = {wrong}"), "the class InputSpec itself")
        rejected_with(lesson.try_answer("l06-ex3", "row_mixer_spec = [None, 784]"), "is a shape ([None, 784])")
        assert lesson.try_answer("l06-ex3", 'row_mixer_spec = InputSpec([None, 784], "float32", "x")').passed
        assert lesson.run_cell_of("l06-ex3-answer").passed

        # ---- Exercise 4: FixedScorer
        lesson.run_until("l06-ex4-answer")
        rejected_with(lesson.try_answer("l06-ex4", "FixedScorer = None"), "`FixedScorer` has no answer yet")
        as_is = rejected_with(lesson.try_answer("l06-ex4", SCORER_AS_IS), "✗ FixedScorer in eval mode", "training=self.training")
        assert "check_export" not in as_is.message     # the export part waits until the forward is right
        positional = rejected_with(lesson.try_answer("l06-ex4", "class FixedScorer(Scorer):\n    def forward(self, x):\n"
                                                "        h = F.dropout(F.relu(self.hidden(x)), 0.2, self.training)\n"
                                                "        return self.out(h)"),
                              "✗ FixedScorer in eval mode", "third positional argument of F.dropout is axis")
        assert "ReshapeOp" not in positional.message and "check_export" not in positional.message
        rejected_with(lesson.try_answer("l06-ex4", NO_DROPOUT), "✗ dropout still acts in train() mode")
        rejected_with(lesson.try_answer("l06-ex4", RENAMED), "✗ FixedScorer has Scorer's layers", "Subclass Scorer")
        rejected_with(lesson.try_answer("l06-ex4", "FixedScorer = Scorer()"), "FixedScorer is a class does not hold",
                 "it is a Scorer object", "class FixedScorer(Scorer):")
        typo = lesson.try_answer("l06-ex4", "class FixedScorer(Scorer):\n    def forward(self, x):\n"
                                            "        return self.out(F.relu(self.hiden(x)))")
        rejected_with(typo, "`fixed(x4)` raised AttributeError", "This also stops: `fixed(x4) in train mode`")
        assert "no answer yet" not in typo.message and typo.message.count("raised AttributeError") == 1, typo.message
        assert lesson.try_answer("l06-ex4", DROPOUT_LAYER).passed                # nn.Dropout is right too
        assert lesson.run_cell_of("l06-ex4-answer").passed
        right = lesson.run_cell_of("l06-ex4")
        assert right.passed and "✓ FixedScorer passes check_export" in right.output, right
