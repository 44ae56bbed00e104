"""Lesson 02 (grade ids l02-ex1..ex4, 1+3+2+3 = 9 points): honest and hostile submissions.

ex4 is a function answer (`train_fixed`): the judge never runs it; it replays what the
sandboxed run of the student's function returned for the calls the test cells make.
"""
import textwrap

from . import attacks


def _code(text):
    return textwrap.dedent(text).strip("\n")


RIGHT = {
    "l02-ex1-answer": 'tracked = {"b", "d", "e"}',
    "l02-ex2-answer": "dz_dw = 8\ndz_dx = -4\ndz_db = 4",
    "l02-ex3-answer": "w_grad_at_end = 7 * 42\nb_grad_at_end = 2 * 14",
    "l02-ex4-answer": _code("""
        def train_fixed(steps):
            model, optimizer = fresh_regression()
            losses = []
            for step in range(steps):
                optimizer.clear_grad()
                loss = ((model(features) - targets) ** 2).mean()
                loss.backward()
                optimizer.step()
                losses.append(loss.item())
            return losses
    """),
}

# right in other forms: a list in another case and order, numpy and tensor numbers, numpy losses
OTHER_FORM = {
    "l02-ex1-answer": 'tracked = ["E", "b", "d"]',
    "l02-ex2-answer": "import numpy as np\ndz_dw = 8.0\ndz_dx = np.float32(-4)\ndz_db = paddle.to_tensor([4.0])",
    "l02-ex3-answer": "w_grad_at_end = paddle.to_tensor([294.0])\nb_grad_at_end = 28.0",
    "l02-ex4-answer": RIGHT["l02-ex4-answer"].replace("losses.append(loss.item())", "losses.append(loss.numpy())"),
}

WRONG = {
    "l02-ex1-answer": 'tracked = {"b", "c", "d", "e"}',
    "l02-ex2-answer": "dz_dw = 8\ndz_dx = 4\ndz_db = 2",
    "l02-ex3-answer": "w_grad_at_end = 42\nb_grad_at_end = 14",
    "l02-ex4-answer": RIGHT["l02-ex4-answer"].replace("optimizer.clear_grad()\n", "pass\n"),  # forgets it
}


# Markup, script and terminal escapes a right submission carries where formgrader and the feedback render
# it: in an answer's outputs, in a markdown cell of its own, in a grade id of its own (quoted in the notes).
# ACTIVE lists what must never appear active in either; the pasted picture is honest and must survive.
INJECTING_ANSWER = _code("""
    from IPython.display import HTML, Javascript, display
    display(HTML("<script>alert('pc-injected-1')</script><b onmouseover=\\"alert('pc-injected-2')\\">bold</b>"))
    display(Javascript("alert('pc-injected-3')"))
    print("\\x1b[2J\\x1b[Hterminal escape")
""") + "\n"
PIXEL = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
INJECTING_CELLS = [
    {"cell_type": "markdown", "metadata": {}, "id": "pc-injected-md",
     "source": "A note <img src=x onerror=\"alert('pc-injected-4')\"> <script>alert('pc-injected-5')</script>"},
    {"cell_type": "markdown", "metadata": {}, "id": "pc-pasted-picture", "source": "My sketch: ![sketch](attachment:sketch.png)",
     "attachments": {"sketch.png": {"image/png": PIXEL}}},
    {"cell_type": "code", "metadata": {"nbgrader": {"grade_id": "<img src=x onerror=alert('pc-injected-6')>\x1b[2J",
                                                  "grade": False, "solution": False}},
     "id": "pc-injected-id", "execution_count": None, "outputs": [], "source": "print('scratch')"},
]
ACTIVE = ("pc-injected",)


def hostile(course, exchange, canary):
    hooks = {
        "l02-ex1-answer": "\n".join([attacks.HOOKS, attacks.PATCHES, attacks.LIAR_CLASSES,
                                     "tracked = _SetOfEverything()"]),
        "l02-ex2-answer": "dz_dw = _EqualsEverything(0)\ndz_dx = _EqualsEverything(0)\ndz_db = _EqualsEverything(0)",
        "l02-ex3-answer": "w_grad_at_end = _EqualsEverything(0)\nb_grad_at_end = 0",
        # lesson globals the hidden test reuses, redefined so a do-nothing loop "matches" them
        "l02-ex4-answer": _code("""
            features = paddle.zeros([32, 1])
            targets = paddle.zeros([32, 1])
            def train_fixed(steps):
                return [0.0] * steps
        """),
    }
    reach = dict(WRONG)
    reach["l02-ex1-answer"] = attacks.reach(course, exchange, "correct", canary) + "\n" + WRONG["l02-ex1-answer"]
    reach["l02-ex4-answer"] = WRONG["l02-ex4-answer"] + "\n" + attacks.BUILTINS
    forged = dict(WRONG)
    forged["l02-ex1-answer"] = attacks.forged_report({
        "tracked": {"value": {"t": "set", "v": [{"t": "str", "v": "b"}, {"t": "evil", "v": "x"}]}},
        "dz_dw": {"value": {"t": "float", "v": "__import__('os').system('id')"}}}) + "\n" + WRONG["l02-ex1-answer"]
    noisy = {k: attacks.HONEST_NOISE + "\n" + v for k, v in RIGHT.items()}
    specs = {
        "injects_markup": {"answers": {**RIGHT, "l02-ex1-answer": INJECTING_ANSWER + RIGHT["l02-ex1-answer"]},
                           "extra": INJECTING_CELLS},
        # four spinning children from its first answer on, beside the honest ones graded at the same time
        # (students are graded in name order, two at a time: "a_cpu_hog" starts with "correct")
        "a_cpu_hog": {"answers": {**WRONG, "l02-ex1-answer": attacks.cpu_hog() + "\n" + WRONG["l02-ex1-answer"]}},
        "correct": {"answers": RIGHT},
        "other_form": {"answers": OTHER_FORM},
        "wrong": {"answers": WRONG},
        "hooks_and_liars": {"answers": hooks, "tags": {f"l02-ex{k}": ["skip-execution", "raises-exception"]
                                                                   for k in range(1, 5)}},
        "reaches_out": {"answers": reach},
        "forged_report": {"answers": forged},
        # every print after the first answer goes nowhere: the grader's reports too
        "replaces_stdout": {"answers": {**RIGHT, "l02-ex1-answer": "import io, sys\nsys.stdout = io.StringIO()\n"
                                        + RIGHT["l02-ex1-answer"]}},
        "honest_noise_and_copies": {"answers": noisy, "duplicate": {"l02-ex2-answer": WRONG["l02-ex2-answer"],
                                                                   "l02-ex4": None},
                                    "extra": ["print('scratch')"]},
    }
    expected = {"a_cpu_hog": 0, "correct": 9, "other_form": 9, "wrong": 0, "hooks_and_liars": 0, "reaches_out": 0,
                "forged_report": 0, "replaces_stdout": 0, "honest_noise_and_copies": 9, "injects_markup": 9}
    return specs, expected


MAX_SCORE = 9
