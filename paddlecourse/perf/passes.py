"""What the inference predictor's passes did to a program: its log, and the ops before and after."""
import os
import tempfile

from .contenders import _in_features, _static_copy


def _readable_op_name(name):
    if name == "p":
        return "parameter"
    dialect, _dot, op = name.partition(".")
    return {"0": "builtin.", "1": "pd_op."}.get(dialect, dialect + ".") + op if op else name


def program_op_counts(json_path):
    """How many of each op a saved Paddle 3 program (.json) holds, parameters and data included."""
    import json
    from collections import Counter

    with open(json_path, encoding="utf-8") as f:
        program = json.load(f)["program"]
    counts = Counter()

    def walk(region):
        for block in region.get("blocks", []):
            for op in block.get("ops", []):
                counts[_readable_op_name(op["#"])] += 1
                for inner in op.get("regions", []):
                    walk(inner)

    for region in program["regions"]:
        walk(region)
    return dict(sorted(counts.items()))


def _captured_fd_output(action):
    """Run ``action()`` and return what it wrote to the process's stdout and stderr file descriptors.

    Paddle's C++ side writes its pass log straight to file descriptor 2, past Python's
    ``sys.stderr``; only redirecting the descriptor itself catches it.
    """
    import re
    import sys

    with tempfile.TemporaryFile(mode="w+b") as sink:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        saved = {fd: os.dup(fd) for fd in (1, 2)}
        try:
            for fd in (1, 2):
                os.dup2(sink.fileno(), fd)
            action()
        finally:
            for fd, copy_of_fd in saved.items():
                os.dup2(copy_of_fd, fd)
                os.close(copy_of_fd)
        sink.seek(0)
        text = sink.read().decode("utf-8", errors="replace")
    return re.sub(r"\x1b\[[0-9;]*m", "", text)  # drop the colour codes


def predictor_pass_log(layer, in_features=None):
    """The names of the IR passes the ``paddle.inference`` predictor runs on ``layer``'s export, in order.

    Exports ``layer`` (``to_static``, ``full_graph=True``, batch ``None``), creates a
    predictor with its log left on, and reads the "--- Running PIR pass [name]" lines
    it prints while it optimises the program.
    """
    import re

    import paddle
    import paddle.inference as inference

    in_features = in_features or _in_features(layer)
    with tempfile.TemporaryDirectory(prefix="paddlecourse-passlog-") as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(_static_copy(layer, in_features, train=False), prefix)
        config = inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        config.switch_ir_optim(True)
        config.set_cpu_math_library_num_threads(1)
        log = _captured_fd_output(lambda: inference.create_predictor(config))
    return re.findall(r"Running PIR pass \[(\w+)\]", log)


def ops_before_and_after_passes(layer, in_features=None):
    """Export ``layer``, let the predictor optimise it, and count the ops in both programs.

    Returns (before, after): {op name: count} for the exported program and for
    the program the predictor runs after its IR passes (with oneDNN on).
    """
    import paddle
    import paddle.inference as inference

    in_features = in_features or _in_features(layer)
    with tempfile.TemporaryDirectory(prefix="paddlecourse-passes-") as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(_static_copy(layer, in_features, train=False), prefix)
        optimized = os.path.join(folder, "optimized")
        config = inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        config.switch_ir_optim(True)
        config.set_cpu_math_library_num_threads(1)
        config.disable_glog_info()
        config.enable_save_optim_model(True)
        config.set_optim_cache_dir(optimized)
        predictor = inference.create_predictor(config)
        del predictor
        before = program_op_counts(prefix + ".json")
        after = program_op_counts(os.path.join(optimized, "_optimized.json"))
    return before, after
