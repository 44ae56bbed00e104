"""Lesson 08: the answers a learner is likely to get wrong are rejected, each with a message that points at the fix.

One real course kernel runs the solution notebook exercise by exercise; each wrong answer runs in place of the
answer cell, then the visible part of the check cell (what a learner runs). The real solution must pass too.
"""
from lesson_runner import LessonKernel
from wrong_answers import SOLUTIONS, rejected_with, solution_passes

LESSON = SOLUTIONS / "08_choosing_and_fixing.ipynb"


PROJECTS = 'deploy_A = "{}"\ndeploy_B = "{}"\ndeploy_C = "{}"\ndeploy_D = "{}"'

TRAIN_BODY = """
def train_fixed(steps=30):
    paddle.seed(0)
    model = make_classifier()
    optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
    {refresh}
    losses = []
    for _ in range(steps):
        loss = F.cross_entropy(model(x_all), y_all)
        loss.backward()
        optimizer.step()
        optimizer.clear_grad()
        losses.append(loss.item())
    {result}
"""

EVALUATE = """
def evaluate(model, x, y, batch_size=2):
    {before}
    right = 0
    with paddle.no_grad():
        for i in range(0, len(x), batch_size):
            predicted = model(x[i:i + batch_size]).argmax(axis=1)
            right += int((predicted == y[i:i + batch_size]).astype("int64").sum())
    {after}
    return right / len(x)
"""


def test_wrong_answers_of_lesson_08_are_rejected_with_a_pointing_message():
    with LessonKernel(LESSON) as lesson:
        # Exercise 1: four projects, every part reported in one message
        lesson.run_until("l08-ex1-answer")
        untouched = lesson.try_answer("l08-ex1", "deploy_A = deploy_B = deploy_C = deploy_D = None")
        rejected_with(untouched, "`deploy_A`, `deploy_B`, `deploy_C` and `deploy_D` have no answer yet")
        assert "\n" not in untouched.message  # one sentence, not four identical lines
        slogan = lesson.try_answer("l08-ex1", PROJECTS.format("eager", "predictor", "predictor", "predictor"))
        rejected_with(slogan, "3 of 4 parts", "nobody has timed", "Python on the phone", "no mode change speeds up")
        assert "✓ deploy_D" in slogan.message
        rejected_with(lesson.try_answer("l08-ex1", PROJECTS.format("measure first", "export required", "eager",
                                                              "export required")),
                 "1 of 4 parts", "deploy_D", "faster kernels")
        rejected_with(lesson.try_answer("l08-ex1", PROJECTS.format("measure first", "export", "eager", "predictor")),
                 "deploy_B", "not one of the options")
        assert lesson.try_answer("l08-ex1", PROJECTS.format("Measure First", "export required", " eager",
                                                            "predictor")).passed  # the learner's own form
        solution_passes(lesson, "l08-ex1")

        # Exercise 2: which mode
        lesson.run_until("l08-ex2-answer")
        rejected_with(lesson.try_answer("l08-ex2", "which_mode = None"), "`which_mode` has no answer yet")
        rejected_with(lesson.try_answer("l08-ex2", 'which_mode = ["dynamic", "static"]'), "which_mode is a dict", "Write a dict")
        speed_myth = lesson.try_answer("l08-ex2", 'which_mode = {"values": "dynamic", "placeholder": "static", '
                                                  '"no_python": "static", "cpu_training": "static", "same_outputs": "both"}')
        rejected_with(speed_myth, "1 of 6 parts", "which_mode['cpu_training']")
        rejected_with(lesson.try_answer("l08-ex2", 'which_mode = {"values": "dynamic"}'), "one answer per statement",
                 "placeholder")
        solution_passes(lesson, "l08-ex2")

        # Exercise 3: make it learn
        lesson.run_until("l08-ex3-answer")
        rejected_with(lesson.try_answer("l08-ex3", "def train_fixed(steps=30):\n    raise NotImplementedError()"),
                 "`train_fixed` still has its placeholder")
        second_model = lesson.try_answer("l08-ex3", TRAIN_BODY.format(refresh="model = make_classifier()",
                                                                        result="return model, losses"))
        rejected_with(second_model, "the loss went down", "the optimizer must update the model the loop calls")
        assert "classifies" not in second_model.message  # a consequence of the frozen loss: not a second line
        no_return = lesson.try_answer("l08-ex3", TRAIN_BODY.format(refresh="", result="pass"))
        rejected_with(no_return, "returns (model, losses)", "it returned None", "return model, losses")
        losses_only = lesson.try_answer("l08-ex3", TRAIN_BODY.format(refresh="", result="return losses"))
        rejected_with(losses_only, "it returned a list", "return model, losses")
        assert "went down" not in losses_only.message
        # forgetting clear_grad still learns (Adam): the losses, compared step by step, tell it apart
        piles_up = lesson.try_answer("l08-ex3", TRAIN_BODY.replace("optimizer.clear_grad()", "pass").format(
            refresh="", result="return model, losses"))
        rejected_with(piles_up, "the losses follow a correct run's", "optimizer.clear_grad()")
        unseeded = lesson.try_answer("l08-ex3", TRAIN_BODY.replace("paddle.seed(0)", "paddle.seed(1)").format(
            refresh="", result="return model, losses"))
        rejected_with(unseeded, "the losses follow a correct run's", "paddle.seed(0)")
        solution_passes(lesson, "l08-ex3")

        # Exercise 4: the feed
        lesson.run_until("l08-ex4-answer")
        rejected_with(lesson.try_answer("l08-ex4", "fixed_feed = None"), "`fixed_feed` has no answer yet")
        rejected_with(lesson.try_answer("l08-ex4", 'fixed_feed = {"x": batch_x, "lable": batch_y}'),
                 "feed names match", "`name=` arguments")
        float_label = lesson.try_answer("l08-ex4", 'fixed_feed = {"x": batch_x, "label": batch_y.astype("float32")}')
        rejected_with(float_label, "fixed_feed['label'] has dtype float32; expected int64", "batch_y is int64 already")
        float64_x = lesson.try_answer("l08-ex4", 'fixed_feed = {"x": batch_x.astype("float64"), "label": batch_y}')
        rejected_with(float64_x, "fixed_feed['x'] has dtype float64; expected float32", "without .astype")
        tensors = lesson.try_answer("l08-ex4", 'fixed_feed = {"x": paddle.to_tensor(batch_x), '
                                               '"label": paddle.to_tensor(batch_y)}')
        rejected_with(tensors, "fixed_feed['x'] is a numpy array", "it is a Tensor", "numpy array itself (batch_x)")
        rejected_with(lesson.try_answer("l08-ex4", "fixed_feed = [batch_x, batch_y]"), "it is a list", "Write a dict")
        for result in (float_label, float64_x, tensors):
            assert "in a cell of its own" not in result.message and "raised" not in result.message
        solution_passes(lesson, "l08-ex4")

        # Exercise 5: an export you can trust
        lesson.run_until("l08-ex5-answer")
        sot_export = lesson.try_answer("l08-ex5", """
def export_fixed(model, prefix):
    static_model = paddle.jit.to_static(model)
    static_model(paddle.randn([5, 4]))
    paddle.jit.save(static_model, prefix, input_spec=[InputSpec([None, 4], "float32", name="x")])
""")
        rejected_with(sot_export, "✗ jit.save used your input_spec does not hold: it warned 'The tensor `x` does not exists.'",
                 "full_graph=True",
                 "it declares [[5, 4]]", "jit.save ignored your spec", "different numbers at batch 3, 7")
        assert "batch dimension is None: InputSpec" not in sot_export.message   # the learner already wrote None
        # the spec given to the default to_static, never called: jit.save uses it (lesson 06, 3b) - right on 3.3.1
        assert lesson.try_answer("l08-ex5", """
def export_fixed(model, prefix):
    paddle.jit.save(paddle.jit.to_static(model, input_spec=[InputSpec([None, 4], "float32", name="x")]), prefix)
""").passed
        fixed_batch = lesson.try_answer("l08-ex5", """
def export_fixed(model, prefix):
    paddle.jit.save(paddle.jit.to_static(model, input_spec=[InputSpec([5, 4], "float32", name="x")],
                                         full_graph=True), prefix)
""")
        rejected_with(fixed_batch, "it declares [[5, 4]]", "batch dimension is None")
        # an earlier try's files are deleted first: a function that writes nothing now fails
        assert lesson.run_cell_of("l08-ex5-answer").passed and lesson.run_cell_of("l08-ex5").passed
        rejected_with(lesson.try_answer("l08-ex5", "def export_fixed(model, prefix):\n    pass"),
                 "export_fixed wrote centred_fixed.json and .pdiparams does not hold", "the files are not there")
        no_spec = lesson.try_answer("l08-ex5", "def export_fixed(model, prefix):\n    paddle.jit.save(model, prefix)")
        rejected_with(no_spec, "`export_fixed(to_export, ex5_prefix)` raised ValueError: No valid transformed program")
        rejected_with(lesson.try_answer("l08-ex5", "def export_fixed(model, prefix):\n    raise NotImplementedError()"),
                 "`export_fixed` still has its placeholder")
        solution_passes(lesson, "l08-ex5")

        # Exercise 6: any batch size
        lesson.run_until("l08-ex6-answer")
        rejected_with(lesson.try_answer("l08-ex6", "any_batch_spec = None"), "`any_batch_spec` has no answer yet")
        one = lesson.try_answer("l08-ex6", 'any_batch_spec = [InputSpec([1, 784], "float32", name="x")]')
        rejected_with(one, "fixes the batch size at 1 ([1, 784])", "write None for the batch dimension")
        bare = lesson.try_answer("l08-ex6", 'any_batch_spec = InputSpec([None, 784], "float32", name="x")')
        rejected_with(bare, "is one InputSpec", "put it in square brackets")
        for wrong, words in [("InputSpec", "the class InputSpec itself"), ("[InputSpec]", "the class InputSpec itself"),
                             ("[None, 784]", "is a shape ([None, 784]), not an InputSpec"),
                             ('[InputSpec([None, 28, 28], "float32", name="x")]', "the model takes [batch, 784]"),
                             ('[InputSpec([None, 784], "float64", name="x")]', "its dtype is float64")]:
            result = lesson.try_answer("l08-ex6", f"any_batch_spec = {wrong}")
            rejected_with(result, words)
            assert "\n" not in result.message and "raised" not in result.message, result.message
        assert lesson.try_answer("l08-ex6", 'any_batch_spec = [InputSpec([-1, 784], "float32", name="x")]').passed
        solution_passes(lesson, "l08-ex6")

        # Exercise 7: predict without holding on
        lesson.run_until("l08-ex7-answer")
        holding = lesson.try_answer("l08-ex7", "def predict_all(model, batches):\n"
                                               "    return [model(batch) for batch in batches]")
        rejected_with(holding, "no prediction holds an autograd graph", "paddle.no_grad()")
        joined = lesson.try_answer("l08-ex7", "def predict_all(model, batches):\n    with paddle.no_grad():\n"
                                              "        return paddle.concat([model(b) for b in batches]).numpy()")
        rejected_with(joined, "one prediction per batch", "it returned a ndarray", "one entry per batch")
        assert lesson.try_answer("l08-ex7", "def predict_all(model, batches):\n"
                                            "    return [model(b).detach() for b in batches]").passed
        solution_passes(lesson, "l08-ex7")

        # Exercise 8: make it converge
        lesson.run_until("l08-ex8-answer")
        rejected_with(lesson.try_answer("l08-ex8", "converging = None"), "`converging` has no answer yet")
        overflow = lesson.try_answer("l08-ex8", "converging = train_regression(readings, learning_rate=0.01)")
        rejected_with(overflow, "every loss is finite", "lower it")
        assert "raise the learning rate" not in overflow.message  # never both directions at once
        rejected_with(lesson.try_answer("l08-ex8", "converging = train_regression(readings, learning_rate=1e-4)"),
                 "The loss grew", "Lower it")
        rejected_with(lesson.try_answer("l08-ex8", "converging = train_regression(readings, learning_rate=1e-8)"),
                 "below 1/100 of the first", "fell, but too slowly: raise the learning rate")
        scaled = "(readings - readings.mean(axis=0)) / readings.std(axis=0)"
        rejected_with(lesson.try_answer("l08-ex8", f"converging = train_regression({scaled}, learning_rate=0.01)"),
                 "fell, but too slowly: raise the learning rate")
        assert lesson.try_answer("l08-ex8", f"converging = train_regression({scaled}, learning_rate=0.1)").passed
        assert lesson.try_answer("l08-ex8", "converging = train_regression(readings, learning_rate=1e-5)").passed
        rejected_with(lesson.try_answer("l08-ex8", "converging = train_regression"), "converging is a list of losses",
                 "converging = train_regression(...)")
        solution_passes(lesson, "l08-ex8")

        # Exercise 9: evaluate in eval() mode, and give the model back in train() mode
        lesson.run_until("l08-ex9-answer")
        train_mode = lesson.try_answer("l08-ex9", EVALUATE.format(before="pass", after="pass"))
        rejected_with(train_mode, "accuracy in evaluation mode", "model.eval()")
        left_in_eval = lesson.try_answer("l08-ex9", EVALUATE.format(before="model.eval()", after="pass"))
        rejected_with(left_in_eval, "1 of 5 parts", "back in training mode", "model.train()")
        # the trained model is right on every point, so a function that only says 1.0 must still fail
        constant = lesson.try_answer("l08-ex9", "def evaluate(model, x, y, batch_size=2):\n    return 1.0")
        rejected_with(constant, "1 of 5 parts", "labels that are all flipped", "labels you are given")
        # the broken loop fed the whole set as one batch: right and repeatable, but BatchNorm learned from it
        one_batch = lesson.try_answer("l08-ex9", "def evaluate(model, x, y, batch_size=2):\n"
                                                 "    return evaluate_broken(model, x, y, batch_size=len(x))")
        rejected_with(one_batch, "running statistics as they were", "model.eval()")
        solution_passes(lesson, "l08-ex9")

        # Exercise 10: the first command
        lesson.run_until("l08-ex10-answer")
        run_check = lesson.try_answer("l08-ex10", 'first_for_device_cpu = "d"\nfirst_for_module_not_found = "b"\n'
                                                  'first_for_slow_mirror = "a"')
        rejected_with(run_check, "1 of 3 parts", "first_for_device_cpu", "WHICH Paddle packages")
        rejected_with(lesson.try_answer("l08-ex10", 'first_for_device_cpu = "c"\nfirst_for_module_not_found = "c"\n'
                                               'first_for_slow_mirror = "b"'),
                 "2 of 3 parts", "which one runs your code", "pip really using")
        untouched = lesson.try_answer("l08-ex10", "first_for_device_cpu = first_for_module_not_found = "
                                                  "first_for_slow_mirror = None")
        rejected_with(untouched, "`first_for_device_cpu`, `first_for_module_not_found` and `first_for_slow_mirror` have no "
                            "answer yet")
        solution_passes(lesson, "l08-ex10")
