"""Lesson 02: the answers a learner is likely to get wrong are rejected with a sentence that points at the fix.

One real course kernel runs the solution notebook; each wrong answer replaces the answer cell and the
visible part of the check cell runs, as a learner would run it. The real solution passes at the end of
each exercise (its whole test cell, hidden tests included).
"""
from wrong_answers import accepted, lesson_kernel, rejected, solution_passes


lesson = lesson_kernel("02_autograd_by_hand.ipynb")


def test_ex1_who_is_tracked(lesson):
    lesson.run_until("l02-ex1-answer")
    rejected(lesson, "l02-ex1", "tracked = None", "`tracked` has no answer yet")
    # the older tutorials' claim: every tensor starts tracked
    rejected(lesson, "l02-ex1", "tracked = ['a', 'b', 'c', 'd', 'e']", "is not right", "a was made by to_tensor")
    rejected(lesson, "l02-ex1", "tracked = ['b', 'c', 'd', 'e']", "is not right", "c = a * 2 has only untracked inputs")
    rejected(lesson, "l02-ex1", "tracked = ['b', 'd']", "is not right", "parameters start tracked")
    rejected(lesson, "l02-ex1", "tracked = ['b', 'e']", "is not right", "d = a + b has the tracked b")
    rejected(lesson, "l02-ex1", "tracked = 'bde'", "each in its own quotes")
    # the tensors instead of their letters: the hint is about the form, not about e
    objects = rejected(lesson, "l02-ex1", "tracked = [b, d, e]", "the tensors themselves", "in quotes")
    assert "bias" not in objects.message
    rejected(lesson, "l02-ex1", "tracked = ['b', 'd', 'e', 'x']", "only the letters a to e")
    rejected(lesson, "l02-ex1", "tracked = 3", "a list of letters")
    accepted(lesson, "l02-ex1", "tracked = ('e', 'D', 'b')")
    solution_passes(lesson, "l02-ex1")


def test_ex2_chain_rule(lesson):
    lesson.run_until("l02-ex2-answer")
    untouched = rejected(lesson, "l02-ex2", "dz_dw = None\ndz_dx = None\ndz_db = None", "`dz_dw` has no answer yet",
                         "`dz_dx` has no answer yet", "`dz_db` has no answer yet")
    assert "3 of 3 parts" in untouched.message
    # dz/dy = y instead of 2y: every gradient half the right size, and every part says where the 2 comes from
    half = rejected(lesson, "l02-ex2", "dz_dw = 4\ndz_dx = -2\ndz_db = 2", "✗ dz_dw", "✗ dz_dx", "✗ dz_db",
                    "the 2 comes from the square")
    assert "8" not in half.message                       # the expected values stay hidden
    # the sign of w dropped
    sign = rejected(lesson, "l02-ex2", "dz_dw = 8\ndz_dx = 4\ndz_db = 4", "✓ dz_dw", "✗ dz_dx", "mind the sign")
    assert "1 of 3 parts" in sign.message
    # the lesson's own point copied (w = 2, x = 3, b = 1)
    rejected(lesson, "l02-ex2", "dz_dw = 42\ndz_dx = 28\ndz_db = 14", "3 of 3 parts", "at the new point")
    rejected(lesson, "l02-ex2", "dz_dw = '8'\ndz_dx = -4\ndz_db = 4", "✗ dz_dw", "not a number")
    listed = rejected(lesson, "l02-ex2", "dz_dw = [8, -4, 4]\ndz_dx = -4\ndz_db = 4", "a list of 3 values",
                      "the answer is a single number")
    assert "tensor" not in listed.message
    accepted(lesson, "l02-ex2", "dz_dw = paddle.to_tensor([8.0])\ndz_dx = -4.0\ndz_db = np.float32(4)")
    solution_passes(lesson, "l02-ex2")


def test_ex3_accumulated_gradient(lesson):
    lesson.run_until("l02-ex3-answer")
    rejected(lesson, "l02-ex3", "w_grad_at_end = None\nb_grad_at_end = None", "`w_grad_at_end` has no answer yet",
             "`b_grad_at_end` has no answer yet")
    # only the first five calls counted for w
    rejected(lesson, "l02-ex3", "w_grad_at_end = 5 * 42\nb_grad_at_end = 2 * 14", "✗ w_grad_at_end", "all seven calls",
             "✓ b_grad_at_end")
    # b.clear_grad() ignored, or read as clearing w too
    rejected(lesson, "l02-ex3", "w_grad_at_end = 7 * 42\nb_grad_at_end = 7 * 14", "✗ b_grad_at_end",
             "only the calls after it count")
    rejected(lesson, "l02-ex3", "w_grad_at_end = 2 * 42\nb_grad_at_end = 2 * 14", "✗ w_grad_at_end", "only b is cleared after the start")
    rejected(lesson, "l02-ex3", "w_grad_at_end = 7 * 42\nb_grad_at_end = 0", "✗ b_grad_at_end", "b.clear_grad()")
    accepted(lesson, "l02-ex3", "w_grad_at_end = 294.0\nb_grad_at_end = paddle.to_tensor([28.0])")
    solution_passes(lesson, "l02-ex3")


EX4 = '''
def train_fixed(steps):
    model, optimizer = fresh_regression()
    losses = []
    for step in range(steps):
{top}        prediction = model(features)
        loss = ((prediction - targets) ** 2).mean()
        loss.backward()
{between}        optimizer.step()
{after}        losses.append({value})
{end}'''
CLEAR = "        optimizer.clear_grad()\n"


def ex4(top="", between="", after="", value="loss.item()", end="    return losses\n"):
    return EX4.format(top=top, between=between, after=after, value=value, end=end)


def test_ex4_fix_the_loop(lesson):
    lesson.run_until("l02-ex4-answer")
    rejected(lesson, "l02-ex4", "def train_fixed(steps):\n    # YOUR CODE HERE\n    raise NotImplementedError()",
             "`train_fixed` still has its placeholder")
    # the broken loop copied unchanged
    rejected(lesson, "l02-ex4", ex4(), "✗ the loss settles below 0.01", "the last of the 60 losses is",
             "Clear the gradients once per step")
    # cleared between backward() and step(): the step sees zeros
    rejected(lesson, "l02-ex4", ex4(between=CLEAR), "✗ the loss settles below 0.01", "between backward() and step()")
    # cleared once, before the loop
    rejected(lesson, "l02-ex4", ex4().replace("    losses = []\n", "    losses = []\n    optimizer.clear_grad()\n"),
             "✗ the loss settles below 0.01", "once per step")
    # no return
    rejected(lesson, "l02-ex4", ex4(top=CLEAR, end=""), "✗ it returns a list of 60 losses", "return losses")
    # returned the last loss only
    rejected(lesson, "l02-ex4", ex4(top=CLEAR, end="    return losses[-1]\n"), "✗ it returns a list of 60 losses")
    # a model of its own, not the lesson's
    rejected(lesson, "l02-ex4", ex4(top=CLEAR).replace("fresh_regression()", "(lambda m: (m, paddle.optimizer.SGD("
             "learning_rate=0.1, parameters=m.parameters())))(paddle.nn.Linear(1, 1))"), "✗ first loss", "model, data")
    # clear_grad named but not called
    rejected(lesson, "l02-ex4", ex4(after="        optimizer.clear_grad\n"), "✗ the loss settles below 0.01",
             "brackets included")
    # the append (or the return) inside the wrong block: the count is said
    rejected(lesson, "l02-ex4", ex4(top=CLEAR, end="    return losses\n").replace(
        "        losses.append(loss.item())", "    losses.append(loss.item())"),
        "it returned a list of 1", "inside the loop")
    rejected(lesson, "l02-ex4", ex4(top=CLEAR, end="        return losses\n"), "it returned a list of 1")
    # the learner's own form: tensors appended instead of .item(), cleared after step()
    accepted(lesson, "l02-ex4", ex4(after=CLEAR, value="loss"))
    solution_passes(lesson, "l02-ex4")
