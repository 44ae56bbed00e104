"""Lesson 06: the wrong answers a learner is likely to give are rejected, each with a message that points at the fix.

One real course kernel runs the solution notebook; each wrong answer replaces the answer cell, then the
visible part of the check cell runs, as it does for a learner (see tests/lesson_runner.py). The order of
exercise 1's answers matters: they write files at the same prefix.
"""
from pathlib import Path

from lesson_runner import LessonKernel

LESSON = Path(__file__).resolve().parent.parent / "solutions" / "06_export.ipynb"

SAVE = "reloaded = None\npaddle.jit.save(model, {prefix}{spec})\nreloaded = paddle.jit.load({prefix})\n"

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


def rejected(result, *words):
    assert not result.passed and result.ename == "CheckFailed", result
    for word in words:
        assert word in result.message, (word, result)


def test_wrong_answers_are_rejected_with_a_pointing_message_and_the_solution_passes():
    with LessonKernel(LESSON) as lesson:
        # ---- Exercise 1: export model to ex1_prefix, load it into reloaded
        lesson.run_until("l06-ex1-answer")
        rejected(lesson.try_answer("l06-ex1", "reloaded = None"),
                 "✗ the two Paddle 3 files exist", "paddle.jit.save(model, ex1_prefix", "`reloaded` has no answer yet")
        no_spec = lesson.try_answer("l06-ex1", SAVE.format(prefix="ex1_prefix", spec=""))
        assert no_spec.answer_error.startswith("ValueError: No valid transformed program"), no_spec
        rejected(no_spec, "✗ the two Paddle 3 files exist")
        other_place = SAVE.format(prefix='where("elsewhere", "model")',
                                  spec=', input_spec=[InputSpec([None, 784], "float32", "x")]')
        rejected(lesson.try_answer("l06-ex1", other_place), "✗ the two Paddle 3 files exist", "exactly ex1_prefix")
        fixed_batch = SAVE.format(prefix="ex1_prefix", spec=', input_spec=[InputSpec([1, 784], "float32", "x")]')
        rejected(lesson.try_answer("l06-ex1", fixed_batch),
                 "✗ the saved program accepts any batch size", "[[1, 784]]", "None for the batch dimension")
        path_not_layer = ('reloaded = None\npaddle.jit.save(model, ex1_prefix, '
                          'input_spec=[InputSpec([None, 784], "float32", "x")])\nreloaded = ex1_prefix\n')
        rejected(lesson.try_answer("l06-ex1", path_not_layer), "is a str, not a function")
        assert lesson.run_cell_of("l06-ex1-answer").passed
        right = lesson.run_cell_of("l06-ex1")
        assert right.passed and "✓ the saved program accepts any batch size" in right.output, right

        # ---- Exercise 2: silent
        lesson.run_until("l06-ex2-answer")
        rejected(lesson.try_answer("l06-ex2", "silent = None"), "`silent` has no answer yet")
        for wrong in ('{"B"}', '{"C"}', '{"B", "C", "E"}', '{"A", "B", "C"}', '{"B", "C", "D"}'):
            rejected(lesson.try_answer("l06-ex2", f"silent = {wrong}"), "matches eager: False", "E is not a mistake")
        rejected(lesson.try_answer("l06-ex2", "silent = {'B', 'F'}"), "not one of the options")
        assert lesson.try_answer("l06-ex2", 'silent = ["c", "b"]').passed       # a list, any case, works too
        assert lesson.run_cell_of("l06-ex2-answer").passed

        # ---- Exercise 3: row_mixer_spec
        lesson.run_until("l06-ex3-answer")
        rejected(lesson.try_answer("l06-ex3", "row_mixer_spec = None"), "`row_mixer_spec` has no answer yet")
        rejected(lesson.try_answer("l06-ex3", 'row_mixer_spec = [InputSpec([1, 784], "float32", "x")]'),
                 "fixes the batch size at 1", "Write None for the batch dimension")
        rejected(lesson.try_answer("l06-ex3", 'row_mixer_spec = [InputSpec([None, 784], "float64", "x")]'),
                 "the layer's weights are float32", "Declare the input as float32")
        rejected(lesson.try_answer("l06-ex3", 'row_mixer_spec = InputSpec.from_numpy(as_float64, name="x")'),
                 "float32")
        rejected(lesson.try_answer("l06-ex3", 'row_mixer_spec = [InputSpec([None, 28, 28], "float32", "x")]'),
                 "[batch, 784]")
        rejected(lesson.try_answer("l06-ex3", 'row_mixer_spec = "x"'), "a list with one InputSpec")
        assert lesson.try_answer("l06-ex3", 'row_mixer_spec = InputSpec([None, 784], "float32", "x")').passed
        assert lesson.run_cell_of("l06-ex3-answer").passed

        # ---- Exercise 4: FixedScorer
        lesson.run_until("l06-ex4-answer")
        rejected(lesson.try_answer("l06-ex4", "FixedScorer = None"), "`FixedScorer` has no answer yet")
        rejected(lesson.try_answer("l06-ex4", SCORER_AS_IS), "✗ FixedScorer passes check_export", "training=self.training")
        rejected(lesson.try_answer("l06-ex4", NO_DROPOUT), "✗ dropout still acts in train() mode")
        rejected(lesson.try_answer("l06-ex4", RENAMED), "✗ FixedScorer has Scorer's layers", "Subclass Scorer")
        assert lesson.try_answer("l06-ex4", DROPOUT_LAYER).passed                # nn.Dropout is right too
        assert lesson.run_cell_of("l06-ex4-answer").passed
        right = lesson.run_cell_of("l06-ex4")
        assert right.passed and "✓ FixedScorer passes check_export" in right.output, right
