"""Lesson 05: the wrong answers a learner is likely to give are rejected, each with a message that points at the fix.

One real course kernel runs the solution notebook; each wrong answer replaces the answer cell, then the
visible part of the check cell runs, as it does for a learner (see tests/lesson_runner.py).
"""
from lesson_runner import LessonKernel
from wrong_answers import SOLUTIONS, rejected_with

LESSON = SOLUTIONS / "05_dual_mode_mlp.ipynb"

EX1_STUB = "ex1_logits = None\n"
EX1_RUN = 'exe.run(ex1_infer, feed={{"x": probe}}, fetch_list=[ex1_handles["infer_logits"]]{scope})\n'

# Exercise 2: the solution's program, with one thing changed by each wrong answer.
EX2 = '''
static_hidden_mean = None
with static_mode():
    ex2_main, ex2_startup = paddle.static.Program(), paddle.static.Program()
    with paddle.static.program_guard(ex2_main, ex2_startup):
        x_in = paddle.static.data(name="x", shape=[None, 64], dtype="float32")
        ex2_model = DigitsMLP()
        ex2_hidden = {hidden}
    ex2_scope = paddle.static.Scope()
    exe.run(ex2_startup, scope=ex2_scope)
    {load}
    hidden_values, = exe.run(ex2_main, feed={{"x": probe}}, fetch_list=[ex2_hidden], scope=ex2_scope)
    static_hidden_mean = {answer}
'''
LOAD = "load_weights(ex2_model, start_weights, ex2_scope)"


def test_wrong_answers_are_rejected_with_a_pointing_message_and_the_solution_passes():
    with LessonKernel(LESSON) as lesson:
        # ---- Exercise 1: ex1_logits
        lesson.run_until("l05-ex1-answer")
        rejected_with(lesson.try_answer("l05-ex1", EX1_STUB), "`ex1_logits` has no answer yet")
        # ran the program without loading the weights: random numbers
        no_weights = EX1_STUB + "with static_mode():\n    ex1_logits, = " + EX1_RUN.format(scope=", scope=ex1_scope")
        rejected_with(lesson.try_answer("l05-ex1", no_weights), "load_weights(ex1_model, start_weights, ex1_scope)")
        # forgot the comma: exe.run returns a list
        no_comma = (EX1_STUB + "with static_mode():\n    load_weights(ex1_model, start_weights, ex1_scope)\n"
                    "    ex1_logits = " + EX1_RUN.format(scope=", scope=ex1_scope"))
        rejected_with(lesson.try_answer("l05-ex1", no_comma), "comma")
        # forgot scope=ex1_scope: Paddle says "Cannot find ... in scope"; the check names the answer as missing
        no_scope = (EX1_STUB + "with static_mode():\n    load_weights(ex1_model, start_weights, ex1_scope)\n"
                    "    ex1_logits, = " + EX1_RUN.format(scope=""))
        result = lesson.try_answer("l05-ex1", no_scope)
        assert "Cannot find" in result.answer_error and "in scope" in result.answer_error, result
        rejected_with(result, "`ex1_logits` has no answer yet", "scope=ex1_scope")
        # fetched the training program's logits from the inference copy: exe.run returns an empty list
        train_handle = (EX1_STUB + "with static_mode():\n    load_weights(ex1_model, start_weights, ex1_scope)\n"
                        "    ex1_logits, = " + EX1_RUN.format(scope=", scope=ex1_scope").replace("infer_logits", "logits"))
        result = lesson.try_answer("l05-ex1", train_handle)
        assert "not enough values to unpack" in result.answer_error, result
        rejected_with(result, "`ex1_logits` has no answer yet", "infer_logits (not logits)", "scope=ex1_scope")
        rejected_with(lesson.try_answer("l05-ex1", "ex1_logits = {'logits': eager_logits}"), "is a dict", "array of shape [8, 10]")
        assert lesson.run_cell_of("l05-ex1-answer").passed
        right = lesson.run_cell_of("l05-ex1")
        assert right.passed and "✓ ex1_logits" in right.output, right

        # ---- Exercise 2: static_hidden_mean
        lesson.run_until("l05-ex2-answer")
        rejected_with(lesson.try_answer("l05-ex2", "static_hidden_mean = None"), "`static_hidden_mean` has no answer yet")
        relu = "F.relu(ex2_model.fc1(x_in))"
        mean = "float(hidden_values.mean())"
        for wrong in (EX2.format(hidden="ex2_model.fc1(x_in)", load=LOAD, answer=mean),     # before ReLU
                      EX2.format(hidden="ex2_model(x_in)", load=LOAD, answer=mean),         # the logits
                      EX2.format(hidden=relu, load="pass", answer=mean)):                   # random weights
            rejected_with(lesson.try_answer("l05-ex2", wrong), "F.relu(ex2_model.fc1(x))", "load_weights")
        rejected_with(lesson.try_answer("l05-ex2", EX2.format(hidden=relu, load=LOAD, answer="hidden_values")),
                 "float(fetched.mean())")                                                   # the array, not its mean
        # the program run without scope=: Paddle says "Cannot find ... in scope", the check says where to look
        no_scope = EX2.format(hidden=relu, load=LOAD, answer=mean).replace("[ex2_hidden], scope=ex2_scope)", "[ex2_hidden])")
        result = lesson.try_answer("l05-ex2", no_scope)
        assert "Cannot find" in result.answer_error, result
        rejected_with(result, "`static_hidden_mean` has no answer yet", "scope=", "F.relu(ex2_model.fc1(x))")
        # the run's list not unpacked: 'list' object has no attribute 'mean', the check says how to unpack it
        no_comma = EX2.format(hidden=relu, load=LOAD, answer=mean).replace("hidden_values, = exe.run", "hidden_values = exe.run")
        result = lesson.try_answer("l05-ex2", no_comma)
        assert "'list' object has no attribute" in result.answer_error, result
        rejected_with(result, "`static_hidden_mean` has no answer yet", "fetched, = exe.run(...)")
        # last: ex2_hidden.mean() outside program_guard puts an op in the default program that points into ex2_main,
        # and Paddle aborts the kernel when a later answer frees that program (lesson 04, section 5)
        rejected_with(lesson.try_answer("l05-ex2", EX2.format(hidden=relu, load=LOAD, answer="ex2_hidden.mean()")),
                 "symbolic")                                                                # a graph value
        assert lesson.run_cell_of("l05-ex2-answer").passed
        right = lesson.run_cell_of("l05-ex2")
        assert right.passed and "✓ static_hidden_mean" in right.output, right

        # ---- Exercise 3: mismatch_cause
        lesson.run_until("l05-ex3-answer")
        rejected_with(lesson.try_answer("l05-ex3", "mismatch_cause = None"), "`mismatch_cause` has no answer yet")
        for letter in ("A", "C", "D"):
            rejected_with(lesson.try_answer("l05-ex3", f"mismatch_cause = {letter!r}"), "train_program")
        rejected_with(lesson.try_answer("l05-ex3", "mismatch_cause = 'E'"), "not one of the options")
        # the letter without quotes: a NameError in the answer cell, and the check says to add the quotes
        result = lesson.try_answer("l05-ex3", "mismatch_cause = None\nmismatch_cause = B")
        assert "NameError" in result.answer_error, result
        rejected_with(result, "`mismatch_cause` has no answer yet", 'mismatch_cause = "A"', "in quotes")
        assert lesson.try_answer("l05-ex3", "mismatch_cause = ' b '").passed      # case and spaces do not matter
        assert lesson.run_cell_of("l05-ex3-answer").passed
        assert lesson.run_cell_of("l05-ex3").passed
