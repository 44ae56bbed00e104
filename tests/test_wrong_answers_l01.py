"""Lesson 01: the answers a learner is likely to get wrong are rejected with a sentence that points at the fix.

One real course kernel runs the solution notebook; each wrong answer replaces the answer cell and the
visible part of the check cell runs, as a learner would run it. The real solution passes at the end of
each exercise (its whole test cell, hidden tests included).
"""
from wrong_answers import accepted, lesson_kernel, rejected, solution_passes


lesson = lesson_kernel("01_two_ways_to_cook.ipynb")


def test_ex1_which_hold_numbers(lesson):
    lesson.run_until("l01-ex1-answer")
    rejected(lesson, "l01-ex1", "holds_numbers_now = None", "`holds_numbers_now` has no answer yet")
    # the lesson's warning: a constant inside program_guard is a recipe step too
    rejected(lesson, "l01-ex1", "holds_numbers_now = ['a', 'c', 'e', 'f']", "is not right", "even the constant c")
    rejected(lesson, "l01-ex1", "holds_numbers_now = ['a', 'd', 'e', 'f']", "is not right", "recipe steps")
    rejected(lesson, "l01-ex1", "holds_numbers_now = ['a', 'f']", "is not right", "e is what the Executor fetched")
    rejected(lesson, "l01-ex1", "holds_numbers_now = ['e']", "is not right", "a and f were computed in dynamic mode")
    rejected(lesson, "l01-ex1", "holds_numbers_now = 'aef'", "each in its own quotes")
    # the objects instead of their letters (they are not hashable: the check must not crash on them)
    objects = rejected(lesson, "l01-ex1", "holds_numbers_now = [a, e, f]", "the objects themselves", "in quotes")
    assert "could not be checked" not in objects.message
    rejected(lesson, "l01-ex1", "holds_numbers_now = ['a', 'e', 'g']", "only the letters a to f")
    rejected(lesson, "l01-ex1", "holds_numbers_now = ['a, e, f']", "each in its own quotes")
    accepted(lesson, "l01-ex1", "holds_numbers_now = {'F', 'e', ' a '}")
    solution_passes(lesson, "l01-ex1")


def test_ex2_shapes(lesson):
    lesson.run_until("l01-ex2-answer")
    untouched = rejected(lesson, "l01-ex2", "hidden_shape = None\nscore_shape = None",
                         "`hidden_shape` has no answer yet", "`score_shape` has no answer yet")
    assert "2 of 2 parts" in untouched.message
    rejected(lesson, "l01-ex2", "hidden_shape = [-1, 6]\nscore_shape = [-1]",
             "✗ hidden_shape = [-1, 6] does not hold: dimension 1 is not right", "turns the 6 features into 16",
             "✓ score_shape = [-1]")
    rejected(lesson, "l01-ex2", "hidden_shape = [16]\nscore_shape = [-1]", "1 dimension(s), the value has 2",
             "keeps the batch dimension")
    rejected(lesson, "l01-ex2", "hidden_shape = [5, 16]\nscore_shape = [-1]", "dimension 0 is not right",
             "it was None in static.data")
    # the complaint of issue 10: [-1, 1] asked as a list, answered in the prompt's terms
    wrong_keepdim = rejected(lesson, "l01-ex2", "hidden_shape = [-1, 16]\nscore_shape = [-1, 1]",
                             "✗ score_shape = [-1, 1] does not hold: it has 2 dimension(s), the value has 1",
                             "removes axis 1 altogether")
    assert "single number" not in wrong_keepdim.message
    rejected(lesson, "l01-ex2", "hidden_shape = [-1, 16]\nscore_shape = -1", "a shape is always a list, even with one dimension")
    rejected(lesson, "l01-ex2", "hidden_shape = '[-1, 16]'\nscore_shape = [-1]", "is not a list of integers")
    both = rejected(lesson, "l01-ex2", "hidden_shape = [-1, 6]\nscore_shape = [-1, 1]", "hidden_shape", "score_shape")
    assert "2 of 2 parts" in both.message
    # right answers in the learner's own form, echoed as written (no floats)
    right = accepted(lesson, "l01-ex2", "hidden_shape = (-1, 16)\nscore_shape = [None]")
    assert "✓ hidden_shape = (-1, 16)" in right.output and "✓ score_shape = [None]" in right.output
    solution_passes(lesson, "l01-ex2")


EX3_OUTLINE = '''
def static_double_mlp(batch):
    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
{recipe}
        executor = paddle.static.Executor(paddle.CPUPlace())
        executor.run(startup)
{run}
    return result
'''
RECIPE = ('            inputs = paddle.static.data(name="inputs", shape=[None, 4], dtype="float32")\n'
          '            doubled = make_mlp()(inputs) * 2')
RUN = '        result, = executor.run(main, feed={"inputs": batch}, fetch_list=[doubled])'


def ex3(recipe=RECIPE, run=RUN):
    return EX3_OUTLINE.format(recipe=recipe, run=run)


def test_ex3_static_double_mlp(lesson):
    lesson.run_until("l01-ex3-answer")
    # the untouched student cell: nbgrader's placeholder inside the outline
    rejected(lesson, "l01-ex3", ex3("            # YOUR CODE HERE\n            raise NotImplementedError()",
                                    "        # YOUR CODE HERE\n        raise NotImplementedError()"),
             "`static_double_mlp` still has its placeholder")
    # fed under another name than static.data's
    rejected(lesson, "l01-ex3", ex3(run=RUN.replace('feed={"inputs"', 'feed={"x"')),
             "`static_double_mlp(batch)` raised KeyError", "'inputs'", "the name your paddle.static.data declares")
    # the recipe without "times 2"
    rejected(lesson, "l01-ex3", ex3(recipe=RECIPE.replace(" * 2", "")), "static_double_mlp(batch)", "multiply by 2")
    # the value fetched by a name (only inputs and parameters have one)
    rejected(lesson, "l01-ex3", ex3(run=RUN.replace("fetch_list=[doubled]", 'fetch_list=["doubled"]')),
             "fetch_list takes the value itself")
    # the symbolic value returned instead of the fetched numbers
    rejected(lesson, "l01-ex3", ex3(run="        result = doubled"), "symbolic value", "fetch")
    # executor.run's list not unpacked
    rejected(lesson, "l01-ex3", ex3(run=RUN.replace("result, =", "result =")), "shape [1, 5, 3]", "unpacks")
    # a wrong input width
    rejected(lesson, "l01-ex3", ex3(recipe=RECIPE.replace("[None, 4]", "[None, 3]")), "`static_double_mlp(batch)` raised")
    # the layers made outside program_guard (Paddle: "Not found key in IRMapping"), or before static_mode()
    inside = "Create the layers inside the program_guard block"
    outside_guard = ex3(recipe=RECIPE.replace("make_mlp()(inputs)", "model(inputs)")).replace(
        "        main, startup =", "        model = make_mlp()\n        main, startup =")
    rejected(lesson, "l01-ex3", outside_guard, "Not found key in IRMapping", "Every line of the recipe goes inside",
             "make_mlp()")
    # the input declared above program_guard, the layers inside it: the same Paddle error, and the hint names both
    data_outside = ex3(recipe=RECIPE.splitlines()[1]).replace(
        "        with paddle.static.program_guard(main, startup):",
        "        " + RECIPE.splitlines()[0].strip() + "\n        with paddle.static.program_guard(main, startup):")
    rejected(lesson, "l01-ex3", data_outside, "paddle.static.data and make_mlp() both")
    before_static = ex3(recipe=RECIPE.replace("make_mlp()(inputs)", "model(inputs)")).replace(
        "    with static_mode():", "    model = make_mlp()\n    with static_mode():")
    rejected(lesson, "l01-ex3", before_static, inside)
    # the recipe written below program_guard, not under it: a hint, and the kernel lives on
    rejected(lesson, "l01-ex3", ex3(recipe=RECIPE.splitlines()[0]).replace(
        "        executor = paddle", "        doubled = make_mlp()(inputs) * 2\n        executor = paddle", 1),
        "indented under it")
    # the startup program never run
    rejected(lesson, "l01-ex3", ex3().replace("        executor.run(startup)\n", ""), "executor.run(startup)")
    # a float64 input slot for the float32 batch
    rejected(lesson, "l01-ex3", ex3(recipe=RECIPE.replace('dtype="float32"', 'dtype="float64"')), 'dtype="float32"')
    # the batch made a tensor inside static_mode()
    rejected(lesson, "l01-ex3", ex3(run=RUN.replace('feed={"inputs": batch}', 'feed={"inputs": paddle.to_tensor(batch)}')),
             "Feed the NumPy batch as it is")
    accepted(lesson, "l01-ex3", ex3(run=RUN.replace("result, =", "result = executor.run(main, feed={'inputs': batch}, "
                                                    "fetch_list=[doubled])[0]\n        _ =")))
    assert lesson.run_code("assert paddle.in_dynamic_mode()").passed
    solution_passes(lesson, "l01-ex3")
