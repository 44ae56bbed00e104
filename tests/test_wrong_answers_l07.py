"""Lesson 07: the answers a learner is likely to get wrong are rejected, each with a message that points at the fix.

One real course kernel runs the solution notebook exercise by exercise; each wrong answer runs in place of the
answer cell, then the visible part of the check cell (what a learner runs). The real solution must pass too.
Under NBGRADER_EXECUTION (set in the kernel) the lesson's benchmarks run only 2 x 2 calls, so this stays quick.
"""
from lesson_runner import LessonKernel
from wrong_answers import SOLUTIONS, rejected_with, solution_passes

LESSON = SOLUTIONS / "07_where_static_is_faster.ipynb"


EX1_RIGHT = """
median_eager_ms = float(np.median(rounds_ms["eager"]))
spread_eager = (max(rounds_ms["eager"]) - min(rounds_ms["eager"])) / median_eager_ms
speedup = float(np.median([e / p for e, p in zip(rounds_ms["eager"], rounds_ms["predictor"])]))
"""

VERDICT = """
def verdict(speedup_low, speedup_high, claimed):
    if {supported}:
        return {word}
    if {contradicted}:
        return "contradicted"
    return "unclear"
"""


def verdict_code(supported="speedup_low >= claimed", contradicted="speedup_high < claimed", word='"supported"'):
    return VERDICT.format(supported=supported, contradicted=contradicted, word=word)


def test_wrong_answers_of_lesson_07_are_rejected_with_a_pointing_message():
    with LessonKernel(LESSON) as lesson:
        assert lesson.run_code("import os; os.environ['NBGRADER_EXECUTION'] = 'autograde'").passed

        # Exercise 1: reading a benchmark (three numbers, every part reported in one message)
        lesson.run_until("l07-ex1-answer")
        untouched = lesson.try_answer("l07-ex1", "median_eager_ms = None\nspread_eager = None\nspeedup = None")
        rejected_with(untouched, "`median_eager_ms`, `spread_eager` and `speedup` have no answer yet")
        assert "\n" not in untouched.message  # one sentence for the untouched cell
        mean = lesson.try_answer("l07-ex1", EX1_RIGHT.replace('median_eager_ms = float(np.median(rounds_ms["eager"]))',
                                                              'median_eager_ms = float(np.mean(rounds_ms["eager"]))'))
        rejected_with(mean, "median_eager_ms", "not the mean")
        percent = lesson.try_answer("l07-ex1", EX1_RIGHT + "\nspread_eager = spread_eager * 100")
        rejected_with(percent, "1 of 3 parts", "spread_eager", "as a fraction")
        ratio_of_medians = lesson.try_answer(
            "l07-ex1", EX1_RIGHT + '\nspeedup = median_eager_ms / float(np.median(rounds_ms["predictor"]))')
        rejected_with(ratio_of_medians, "1 of 3 parts", "speedup", "median of the ratios")
        assert "2.7727" not in ratio_of_medians.message  # the hidden answer is not printed
        inverted = lesson.try_answer("l07-ex1", EX1_RIGHT + "\nspeedup = 1 / speedup")
        rejected_with(inverted, "speedup", "Divide eager by predictor")
        all_wrong = lesson.try_answer("l07-ex1", "median_eager_ms = 4.54\nspread_eager = 50\nspeedup = 2.8")
        rejected_with(all_wrong, "3 of 3 parts", "not the mean", "as a fraction", "median of the ratios")
        solution_passes(lesson, "l07-ex1")

        # Exercise 2: why interleave (one letter)
        lesson.run_until("l07-ex2-answer")
        for letter in ("a", "c", "d"):
            rejected_with(lesson.try_answer("l07-ex2", f'why_interleave = "{letter}"'), "why_interleave",
                     "another program starting halfway")
        rejected_with(lesson.try_answer("l07-ex2", "why_interleave = 2"), "not one of the options")
        rejected_with(lesson.try_answer("l07-ex2", "why_interleave = None"), "`why_interleave` has no answer yet")
        assert lesson.try_answer("l07-ex2", 'why_interleave = " B "').passed  # the learner's own form
        solution_passes(lesson, "l07-ex2")

        # Exercise 3: verdict(speedup_low, speedup_high, claimed)
        lesson.run_until("l07-ex3-answer")
        stub = lesson.try_answer("l07-ex3", "def verdict(speedup_low, speedup_high, claimed):\n"
                                            "    raise NotImplementedError()")
        rejected_with(stub, "`verdict` still has its placeholder")
        assert "\n" not in stub.message and "not checked" not in stub.message, stub.message  # said once
        no_return = lesson.try_answer("l07-ex3", "def verdict(speedup_low, speedup_high, claimed):\n"
                                                 "    print('supported')")
        rejected_with(no_return, "`verdict(1.2, 1.4, 1.15)` returned None", "The same for: `verdict(0.8, 0.95, 1.15)`")
        assert no_return.message.count("returned None") == 1, no_return.message
        two_args = lesson.try_answer("l07-ex3", "def verdict(speedup, claimed):\n    return 'supported'")
        rejected_with(two_args, "raised TypeError", "in a cell of its own", "This also stops: `verdict(0.8, 0.95, 1.15)`")
        assert two_args.message.count("raised TypeError") == 1 and "not checked" not in two_args.message
        strict = lesson.try_answer("l07-ex3", verdict_code(supported="speedup_low > claimed"))
        rejected_with(strict, "verdict(1.15, 1.2, 1.15)", "speedup_low >= claimed")
        loose = lesson.try_answer("l07-ex3", verdict_code(contradicted="speedup_high <= claimed"))
        rejected_with(loose, "verdict(0.9, 1.15, 1.15)", "reaches exactly the claim counts")
        swapped = lesson.try_answer("l07-ex3", verdict_code(supported="speedup_high >= claimed",
                                                             contradicted="speedup_low < claimed"))
        rejected_with(swapped, "verdict(1.0, 1.3, 1.15)", "unclear")
        booleans = lesson.try_answer("l07-ex3", verdict_code(word="True"))
        rejected_with(booleans, "not one of the options")
        assert lesson.try_answer("l07-ex3", verdict_code(word='"Supported"')).passed  # case does not matter
        solution_passes(lesson, "l07-ex3")
        # the learner's verdict is then applied to the learner's own rows
        own_rows = lesson.run_cell(lesson.index_of("l07-ex3") + 2)
        assert own_rows.passed and "against 4.0x" in own_rows.output and "✓ your verdict" in own_rows.output, own_rows

        # Exercise 4: the 100-300-100-10 model's parameters and training-state bytes
        lesson.run_until("l07-ex4-answer")
        right = "params_ex4 = 61410\nmomentum_bytes = params_ex4 * 4 * 3\nadam_bytes = params_ex4 * 4 * 4\n"
        no_biases = lesson.try_answer("l07-ex4", right.replace("61410", "100 * 300 + 300 * 100 + 100 * 10"))
        rejected_with(no_biases, "params_ex4", "b biases", "fix params_ex4 and this follows")   # bytes follow its count
        sgd_multiplier = lesson.try_answer("l07-ex4", right + "momentum_bytes = params_ex4 * 4 * 2")
        rejected_with(sgd_multiplier, "1 of 3 parts", "momentum_bytes", "3 copies")
        adam_three = lesson.try_answer("l07-ex4", right + "adam_bytes = params_ex4 * 4 * 3")
        rejected_with(adam_three, "adam_bytes", "two moments")
        no_bytes = lesson.try_answer("l07-ex4", right + "momentum_bytes = params_ex4 * 3\nadam_bytes = params_ex4 * 4")
        rejected_with(no_bytes, "2 of 3 parts", "4 bytes (float32)")
        whole_estimate = lesson.try_answer("l07-ex4", "params_ex4 = 61410\n"
                                       "momentum_bytes = memory.estimate_training_memory(61410, 'float32', 'momentum')\n"
                                       "adam_bytes = memory.estimate_training_memory(61410, 'float32', 'adam')")
        rejected_with(whole_estimate, "momentum_bytes is a number does not hold: it is the whole MemoryEstimate", ".total_bytes")
        assert "✓ params_ex4" in whole_estimate.message
        assert "61410" not in no_biases.message and "736920" not in sgd_multiplier.message  # answers stay hidden
        solution_passes(lesson, "l07-ex4")

        # Exercise 5: the batch at which activations outgrow the training state
        lesson.run_until("l07-ex5-answer")
        hint = "next whole number"
        rejected_with(lesson.try_answer("l07-ex5", "crossover_batch = estimate.total_bytes // per_sample"), hint)
        rejected_with(lesson.try_answer("l07-ex5", "crossover_batch = estimate.total_bytes / per_sample"), hint)
        every_output_rule = lesson.try_answer("l07-ex5", "crossover_batch = 8_573_088 // 6184 + 1")  # 1387
        rejected_with(every_output_rule, "not every layer's output")
        weights_only = lesson.try_answer("l07-ex5", "crossover_batch = estimate.weight_bytes // per_sample + 1")
        rejected_with(weights_only, "estimate.total_bytes")
        rejected_with(lesson.try_answer("l07-ex5", "crossover_batch = None"), "`crossover_batch` has no answer yet")
        assert "2755" not in every_output_rule.message
        solution_passes(lesson, "l07-ex5")
