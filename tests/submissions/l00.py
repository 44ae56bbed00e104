"""Adversarial class for lesson 00 (grade ids l00-ex1..ex4, 2+1+2+1 = 6 points).

Each submission is the student version with some answer cells filled in (keyed by
the answer cell's grade id) and, for a few, a cell deleted or a locked cell edited.
``EXPECTED`` is the score each must get; ``FAILS`` are the ones nbgrader has to give
up on (reported FAILED, scored 0). tests/test_nbgrader_e2e.py grades them all in
one command.
"""
import textwrap


def _code(text):
    return textwrap.dedent(text).strip("\n")


RIGHT = {
    "l00-ex1-answer": _code("""
        a = paddle.randn([4, 3])
        a.stop_gradient = False
        b = paddle.randn([3, 5])
        paddle.matmul(a, b).sum().backward()
    """),
    "l00-ex2-answer": 'one_off_install = "pip install paddlepaddle==3.3.1 -i https://mirror.example.invalid/simple"',
    "l00-ex3-answer": _code("""
        fits_the_server = [
            "paddlepaddle-3.3.1-cp311-cp311-linux_x86_64.whl",
            "numpy-2.4.6-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl",
        ]
    """),
    "l00-ex4-answer": (
        'run_line = "RUN pip config set global.index-url https://mirror.example.invalid/simple'
        ' && pip install --no-cache-dir paddlepaddle==3.3.1"'
    ),
}

# Right, but written another way: numpy-made float64 tensor and the @ operator,
# `python -m pip` with the long option, a tuple in another order and case, extra spaces.
OTHER_FORM = {
    "l00-ex1-answer": _code("""
        import numpy as np
        a = paddle.to_tensor(np.arange(12, dtype="float64").reshape(4, 3) / 10, stop_gradient=False)
        b = paddle.to_tensor(np.ones((3, 5)) * 0.5)
        loss = (a @ b).sum()
        loss.backward()
    """),
    "l00-ex2-answer": 'one_off_install = "python -m pip install --index-url https://mirror.example.invalid/simple paddlepaddle==3.3.1"',
    "l00-ex3-answer": _code("""
        fits_the_server = (
            "NUMPY-2.4.6-cp311-cp311-manylinux_2_27_x86_64.manylinux_2_28_x86_64.whl",
            "paddlepaddle-3.3.1-cp311-cp311-linux_x86_64.whl",
        )
    """),
    "l00-ex4-answer": (
        'run_line = "RUN  pip config set global.index-url https://mirror.example.invalid/simple   &&'
        '   pip install --no-cache-dir paddlepaddle==3.3.1 "'
    ),
}

WRONG = {
    # tracked but backward() never called: a.grad stays None
    "l00-ex1-answer": "a = paddle.randn([4, 3])\na.stop_gradient = False\nb = paddle.randn([3, 5])",
    # changes the config file instead of one command
    "l00-ex2-answer": 'one_off_install = "pip config set global.index-url https://mirror.example.invalid/simple"',
    # every cp311 wheel, the Mac and Windows ones too
    "l00-ex3-answer": "fits_the_server = [w for w in downloaded if 'cp311' in w]",
    # the broken line from the lesson
    "l00-ex4-answer": (
        'run_line = "RUN pip config set global.index-url https://mirror.example.invalid/simple'
        ' pip install --no-cache-dir paddlepaddle==3.3.1"'
    ),
}

# Replaces every check, in the package and in its checks module, by one that always
# passes - then answers wrongly. The hidden tests recompute each answer.
FAKE_CHECKS = dict(WRONG)
FAKE_CHECKS["l00-ex1-answer"] = _code("""
    import paddlecourse
    import paddlecourse.checks

    def _always_passes(*args, **kwargs):
        print("✓ (faked)")

    for _name in ["check_value", "check_shape", "check_dtype", "check_grad", "check_answer", "check_true"]:
        setattr(paddlecourse, _name, _always_passes)
        setattr(paddlecourse.checks, _name, _always_passes)
""") + "\n" + WRONG["l00-ex1-answer"]


def _with(base, **answers):
    merged = dict(base)
    merged.update({f"l00-{k}-answer": _code(v) for k, v in answers.items()})
    return merged


SUBMISSIONS = {
    "correct": {"answers": RIGHT},
    "other_form": {"answers": OTHER_FORM},
    "blank": {"answers": {}},
    "wrong": {"answers": WRONG},
    # ex1 interrupted after the per-cell timeout, the rest of the notebook still graded; and ex4 raises
    # SystemExit, which IPython catches: that exercise scores 0, the others count (one submission for both:
    # each costs two sandboxed runs of the lesson)
    "infinite_loop_and_system_exit": {"answers": _with(RIGHT, ex1="while True:\n    pass",
                                                       ex4="raise SystemExit('bye')")},
    # ignores the interrupt: nbgrader kills the kernel and gives up on this one
    "swallows_interrupt": {"answers": _with(RIGHT, ex1="""
        import time
        while True:
            try:
                time.sleep(0.1)
            except KeyboardInterrupt:
                pass
    """)},
    # the ex1 test cell deleted (and ex1 wrong): it is put back and graded; the ex2 test cell edited to pass
    # (and ex2 wrong): the instructor's version is graded
    "tampered_test_cells": {
        "answers": _with(RIGHT, ex1=WRONG["l00-ex1-answer"], ex2=WRONG["l00-ex2-answer"]),
        "delete": ["l00-ex1"],
        "replace": {"l00-ex2": "one_off_install = 'pip install paddlepaddle==3.3.1 -i https://mirror.example.invalid/simple'\nprint('all good')"},
    },
    "fake_checks": {"answers": FAKE_CHECKS},
    # the kernel process exits: nbgrader cannot finish this one
    "kernel_exit": {"answers": _with(RIGHT, ex2="import os\nos._exit(0)")},
}

EXPECTED = {
    "correct": 6,
    "other_form": 6,
    "blank": 0,
    "wrong": 0,
    "infinite_loop_and_system_exit": 3,
    "swallows_interrupt": 0,
    "tampered_test_cells": 3,
    "fake_checks": 0,
    "kernel_exit": 0,
}
FAILS = {"swallows_interrupt", "kernel_exit"}
MAX_SCORE = 6

# Asks catch-up for every solution (and to run it): catch-up is off while nbgrader grades.
SUBMISSIONS["uses_catchup"] = {"answers": {
    f"l00-ex{k}-answer": f"from paddlecourse.catchup import catchup\ncatchup('l00-ex{k}', run=True)" for k in range(1, 5)
}}
EXPECTED["uses_catchup"] = 0

# ---------------------------------------------------------------- issue 13: determined students
# The grade is decided outside the student's kernel and every submission is sandboxed, so the
# old expectation for a kernel that exits (FAILED, 0) is now the points earned before it
# exited, and the submission is listed "needs a look".
EXPECTED["kernel_exit"] = 2
FAILS = set()
NEEDS_LOOK = {"swallows_interrupt", "kernel_exit"}


def hostile():
    """More submissions, each a way an honest or careless class member differs from the plain ones. The attacks
    (hooks and lying objects, a forged report, reaching for the course, other students, the exchange and the
    network) are lesson 02's class (submissions/l02.py, the same attacks.py), not repeated here."""
    from . import attacks

    right_noisy = {k: attacks.HONEST_NOISE + "\n" + v for k, v in RIGHT.items()}
    specs = {
        # honest, but noisy on stderr, with a copy-pasted answer (first copy wrong), a copy-pasted
        # test cell and scratch cells: full marks, and notes in the feedback
        "honest_noise_and_copies": {"answers": right_noisy,
                                    "duplicate": {"l00-ex2-answer": WRONG["l00-ex2-answer"], "l00-ex3": None},
                                    "extra": ["print('scratch work')", "x = 1 / 0  # a failing scratch cell"]},
        # right answers, then 200 MiB printed in 1 MiB lines
        "floods_output": {"answers": {**RIGHT, "l00-ex4-answer": RIGHT["l00-ex4-answer"] + "\n" + attacks.flood()}},
        # not a notebook at all
        "unreadable": {"raw": b"\x89PNG\r\n\x1a\n not a notebook"},
    }
    expected = {"honest_noise_and_copies": 6, "floods_output": 6, "unreadable": 0}
    return specs, expected
