"""Lesson 08 (l08-ex1..ex10, 2+2+2+1+2+1+2+2+2+1 = 17 points): honest and hostile submissions.

Four answers are functions the tests hand lesson objects: ``train_fixed()`` returns a model,
``export_fixed(model, prefix)`` writes files, ``predict_all(model, batches)`` returns arrays,
``evaluate(model, x, y)`` must leave the model's BatchNorm statistics and mode as it found them.
They are recorded in the answer run and replayed by the judge (grading/effects.py).
"""
import textwrap

from . import attacks


def _code(text):
    return textwrap.dedent(text).strip("\n")


RIGHT = {
    "l08-ex1-answer": 'deploy_A = "measure first"\ndeploy_B = "export required"\ndeploy_C = "eager"\ndeploy_D = "predictor"',
    "l08-ex2-answer": _code('''
        which_mode = {"values": "dynamic", "placeholder": "static", "no_python": "static",
                      "cpu_training": "dynamic", "same_outputs": "both"}
    '''),
    "l08-ex3-answer": _code('''
        def train_fixed(steps=30):
            paddle.seed(0)
            model = make_classifier()
            optimizer = paddle.optimizer.Adam(learning_rate=0.01, parameters=model.parameters())
            losses = []
            for _ in range(steps):
                loss = F.cross_entropy(model(x_all), y_all)
                loss.backward()
                optimizer.step()
                optimizer.clear_grad()
                losses.append(loss.item())
            return model, losses
    '''),
    "l08-ex4-answer": 'fixed_feed = {"x": batch_x, "label": batch_y}',
    "l08-ex5-answer": _code('''
        def export_fixed(model, prefix):
            static_model = paddle.jit.to_static(model, input_spec=[InputSpec([None, 4], "float32", name="x")],
                                                full_graph=True)
            paddle.jit.save(static_model, prefix)
    '''),
    "l08-ex6-answer": 'any_batch_spec = [InputSpec([None, 784], "float32", name="x")]',
    "l08-ex7-answer": _code('''
        def predict_all(model, batches):
            with paddle.no_grad():
                return [model(batch).numpy() for batch in batches]
    '''),
    "l08-ex8-answer": "converging = train_regression(readings, learning_rate=1e-5)",
    "l08-ex9-answer": _code('''
        def evaluate(model, x, y, batch_size=2):
            model.eval()
            right = 0
            with paddle.no_grad():
                for i in range(0, len(x), batch_size):
                    predicted = model(x[i:i + batch_size]).argmax(axis=1)
                    right += int((predicted == y[i:i + batch_size]).astype("int64").sum())
            model.train()
            return right / len(x)
    '''),
    "l08-ex10-answer": 'first_for_device_cpu = "c"\nfirst_for_module_not_found = "b"\nfirst_for_slow_mirror = "a"',
}

# three function answers wrong in the ways the lesson's broken versions are: 17 - 2 - 2 - 2
WRONG = {
    **RIGHT,
    "l08-ex3-answer": RIGHT["l08-ex3-answer"].replace(
        "    losses = []", "    model = make_classifier()   # a fresh model the optimizer does not update\n    losses = []"),
    "l08-ex7-answer": _code('''
        def predict_all(model, batches):
            return [model(batch) for batch in batches]   # each output keeps its autograd graph
    '''),
    "l08-ex9-answer": RIGHT["l08-ex9-answer"].replace("    model.train()\n", ""),   # left in eval mode
}
WRONG_SCORE = 17 - 6

# when called, each function answer installs hooks in the kernel (an execute_result before every cell,
# errors swallowed) and patches paddle and numpy, then returns something wrong
_HOOK_ON_CALL = "\n".join(["def _install():", textwrap.indent(attacks.HOOKS + "\n" + attacks.PATCHES, "    "),
                           "    paddle.nn.Layer.eval = lambda self: self",
                           "    paddle.Tensor.numpy = lambda self: __import__('numpy').ones([32, 2], 'float32')"])
HOOKS = {   # ex1 and ex2 right (reported before any hook is installed), the later data answers left blank
    "l08-ex1-answer": RIGHT["l08-ex1-answer"],
    "l08-ex2-answer": RIGHT["l08-ex2-answer"],
    "l08-ex3-answer": _HOOK_ON_CALL + "\n" + _code('''
        def train_fixed(steps=30):
            _install()
            return make_classifier(), [1.0] + [0.0] * (steps - 1)
    '''),
    "l08-ex5-answer": _HOOK_ON_CALL + "\n" + _code('''
        def export_fixed(model, prefix):
            _install()
    '''),
    "l08-ex7-answer": _HOOK_ON_CALL + "\n" + _code('''
        def predict_all(model, batches):
            _install()
            return [__import__("numpy").zeros([32, 2], "float32") for _ in batches]
    '''),
    "l08-ex9-answer": _HOOK_ON_CALL + "\n" + _code('''
        def evaluate(model, x, y, batch_size=2):
            _install()
            return 0.5   # (1.0 would be right: the trained model classifies every point, and evaluate need not touch it)
    '''),
}
HOOKS_SCORE = 2 + 2   # ex1 and ex2; none of the functions

# right answers that, when called, print every cell the kernel ran (In, _ih), the source of their caller
# (inspect) and copy them into a file the judge writes again: none of it may reach the feedback
_LEAK = _code('''
    def _leak(prefix=None):
        import inspect, sys
        ip = get_ipython()
        text = "\\n".join(ip.user_ns.get("In", [])) + "\\n".join(ip.user_ns.get("_ih", []))
        for frame in inspect.stack():
            try:
                text += "".join(inspect.getsourcelines(frame.frame)[0])
            except (OSError, TypeError):
                pass
        print(text)
        print(text, file=sys.stderr)
        if prefix:
            with open(prefix + ".leak.txt", "w") as handle:
                handle.write(text)
''')
LEAKS = {
    **RIGHT,
    "l08-ex3-answer": _LEAK + "\n" + RIGHT["l08-ex3-answer"].replace("    paddle.seed(0)\n", "    _leak()\n    paddle.seed(0)\n"),
    "l08-ex5-answer": _LEAK + "\n" + RIGHT["l08-ex5-answer"] + "\n    _leak(prefix)",
    "l08-ex7-answer": _LEAK + "\n" + RIGHT["l08-ex7-answer"].replace("    with paddle", "    _leak()\n    with paddle"),
}

# the function cells append forged records to the answer run's records file and forged runner lines to the
# sandbox's stdout (through /proc/1/fd/1): a model of zeros with falling losses, a file outside the path,
# a name the judge does not replay, a 100000-deep line, and every test cell "passed"
_FORGE = _code('''
    import json as _json, os as _os
    _zeros = {"t": "layer", "type": "paddle.nn.layer.container.Sequential", "training": [["", True]],
              "state": {}}
    with open("paddlecourse-records.jsonl", "a") as _records:
        _records.write("[" * 100000 + "]" * 100000 + "\\n")
        _records.write(_json.dumps({"name": "train_fixed", "call": 0, "args": {"args": [], "kwargs": {}},
                                    "value": {"t": "tuple", "v": [_zeros, {"t": "list", "v": [
                                        {"t": "float", "v": "1.0"}] + [{"t": "float", "v": "0.0"}] * 29}]},
                                    "training": {}, "layers": {}, "files": {}, "globals": None}) + "\\n")
        _records.write(_json.dumps({"name": "export_fixed", "call": 0,
                                    "args": {"args": [{"t": "object", "type": "x"}, {"t": "path"}], "kwargs": {}},
                                    "value": {"t": "none"}, "training": {}, "layers": {},
                                    "files": {"1": {"written": {"../../../../escaped.json": "e30="}, "removed": []}},
                                    "globals": None}) + "\\n")
        _records.write(_json.dumps({"name": "make_classifier", "call": 0, "args": {"args": [], "kwargs": {}},
                                    "value": {"t": "float", "v": "1.0"}}) + "\\n")
    _passed = [_json.dumps({"index": _i, "outputs": [{"output_type": "stream", "name": "stdout", "text": "✓"}]})
               for _i in range(300)] + [_json.dumps({"done": True})]
    try:
        _fd = _os.open("/proc/1/fd/1", _os.O_WRONLY | _os.O_NONBLOCK)
        _os.write(_fd, ("\\n".join(_passed) + "\\n").encode())
        _os.close(_fd)
    except OSError:
        pass
''')
# The forged export record is the first record of export_fixed, so the judge takes it for the first call and
# refuses it (its arguments do not match): the student's own, right export is never reached. Forging costs.
FORGED_SCORE = WRONG_SCORE - 2
FORGED = {**WRONG, "l08-ex3-answer": _FORGE + "\n" + WRONG["l08-ex3-answer"],
          "l08-ex9-answer": _FORGE + "\n" + WRONG["l08-ex9-answer"]}

# honest, but every function logs a warning to stderr, warns and prints when it is called
_NOISE = textwrap.indent(attacks.HONEST_NOISE, "    ")
NOISY = {key: (value.replace("):\n", "):\n" + _NOISE + "\n", 1) if value.startswith("def ") else
               attacks.HONEST_NOISE + "\n" + value) for key, value in RIGHT.items()}

SPECS = {
    "correct": {"answers": RIGHT},
    "blank": {"answers": {}},
    "wrong": {"answers": WRONG},
    "hooks_on_call": {"answers": HOOKS},
    "leaks_hidden": {"answers": LEAKS},
    "forged_records": {"answers": FORGED},
    "honest_noise": {"answers": NOISY},
    "symlinked": {"answers": RIGHT, "symlink_to_source": True},
}
EXPECTED = {"correct": 17, "blank": 0, "wrong": WRONG_SCORE, "hooks_on_call": HOOKS_SCORE, "leaks_hidden": 17,
            "forged_records": FORGED_SCORE, "honest_noise": 17, "symlinked": 0}
HONEST = ["correct", "wrong", "leaks_hidden", "honest_noise"]
MAX_SCORE = 17
