"""The steps check_export takes, each on its own: save, load back, predict, compare, read the saved shapes;
and the error text of a conversion, cut to what a learner needs."""
import contextlib
import io
import json
import os
import re
import sys
import warnings

import numpy as np

from ..language import _
from .report import _dims_text, _dtype_text, _is_dynamic


# A converted function's error wraps Paddle's own: "In transformed code:" (or "In user code:"), the source
# with a "<--- HERE" marker, Paddle's frames, and only then "AssertionError: 'numpy' only can ...".
_INNER_ERROR = re.compile(r"^\s*(?:[a-z_][\w]*\.)*([A-Z]\w*(?:Error|Exception)): (.*)", re.M)


def error_summary(error, limit=None):
    """The Paddle error as a learner should read it: whole sentences, no paths or C++ frames.

    Uses ``paddlecourse.error_message``; for an error raised inside a converted
    function it first unwraps the "In transformed code:" report down to the
    error Paddle raised, so the sentence that matters comes first.
    ``limit`` (characters) is kept for old callers: a longer text is cut at the
    last sentence end before it, never mid-word.
    """
    from ..errors import error_message

    text = str(error)
    if text.lstrip().startswith(("In transformed code:", "In user code:")):
        inner = list(_INNER_ERROR.finditer(text))
        if inner:
            last = inner[-1]
            error = type(error)(last.group(2) + text[last.end():])
    message = error_message(error)
    message = re.sub(r"(?<=[.:])\s+\d+\.$", "", message)  # a numbered list cut after its number (". 2."), not "is 784."
    if limit and len(message) > limit:
        cut = message.rfind(". ", 0, limit)  # a sentence end; never a dangling "Suggestions:"
        message = message[: cut + 1] if cut > 0 else message
    return message


def saved_input_shapes(prefix):
    """{input name: shape} as written in the saved program ``prefix + ".json"`` (-1 = decided at run time).

    This reads the ``data`` ops of the PIR program file that ``paddle.jit.save``
    writes. (A predictor's input handle is no substitute before a run: for an
    input with any unknown dimension its ``shape()`` is ``[0]``.)
    """
    path = prefix + ".json"
    if not os.path.exists(path):
        raise FileNotFoundError(_("{file} does not exist: save the model with paddle.jit.save "
                                  "first (a legacy export writes .pdmodel instead, which this does not read).").format(
            file=os.path.basename(path)))
    with open(path, encoding="utf-8") as saved:
        program = json.load(saved)
    shapes = {}

    def visit(node):
        if isinstance(node, dict):
            if str(node.get("#", "")).endswith(".data") and isinstance(node.get("A"), list):
                attrs = {a.get("N"): (a.get("AT") or {}).get("D") for a in node["A"] if isinstance(a, dict)}
                if attrs.get("name") is not None and attrs.get("shape") is not None:
                    shapes[attrs["name"]] = [int(d) for d in attrs["shape"]]
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(program)
    return shapes


def _conversion_of(layer):
    kind = type(getattr(layer, "forward", None)).__name__
    if kind == "SymbolicStaticFunction":
        return "sot", _("paddle.jit.to_static(layer) in the default mode (SOT), then paddle.jit.save")
    if kind == "ASTStaticFunction":
        return "ast", _("paddle.jit.to_static(layer, full_graph=True) (AST), then paddle.jit.save")
    return "plain", _("paddle.jit.save(layer, path, input_spec=...) (converts with full_graph=True, AST)")


def _float_param_dtype(layer):
    for param in layer.parameters():
        name = _dtype_text(param.dtype)
        if name.startswith(("float", "bfloat")):
            return name
    return None


def _as_arrays(outputs):
    if isinstance(outputs, (list, tuple)):
        return [a for o in outputs for a in _as_arrays(o)]
    if isinstance(outputs, dict):
        return [a for k in sorted(outputs) for a in _as_arrays(outputs[k])]
    if hasattr(outputs, "numpy"):
        return [np.asarray(outputs.numpy())]
    return [np.asarray(outputs)]


def _compare(found, expected, rtol, atol):
    """('same' | 'differs', detail) for two lists of arrays."""
    if len(found) != len(expected):
        return "differs", _("{found} outputs, eager gives {expected}").format(found=len(found), expected=len(expected))
    for f, e in zip(found, expected):
        if f.shape != e.shape:
            return "differs", _("shape {found}, eager {expected}").format(found=list(f.shape), expected=list(e.shape))
    worst = max((float(np.max(np.abs(f.astype(np.float64) - e.astype(np.float64)))) if f.size else 0.0)
                for f, e in zip(found, expected))
    if all(np.allclose(f, e, rtol=rtol, atol=atol) for f, e in zip(found, expected)):
        return "same", ""
    return "differs", _("max |diff| {difference}").format(difference=f"{worst:.2g}")


def default_inputs(input_spec, batch, seed=0):
    """Random inputs that fit ``input_spec`` with the first dimension set to ``batch``.

    Floats are standard normal, integers are in [0, 10), booleans random. Other
    unknown (None) dimensions need your own ``make_inputs``.
    """
    rng = np.random.RandomState(seed + batch)
    arrays = []
    for spec in input_spec:
        shape = list(spec.shape)
        if shape:
            shape[0] = batch
        if any(_is_dynamic(d) for d in shape[1:]):
            raise ValueError(_("{shape} has an unknown dimension after the batch: "
                               "pass make_inputs=lambda batch: [...] to say what inputs look like").format(
                shape=_dims_text(spec.shape)))
        dtype = _dtype_text(spec.dtype)
        if dtype.startswith("float"):
            arrays.append(rng.standard_normal(shape).astype(dtype))
        elif dtype.startswith(("int", "uint")):
            arrays.append(rng.randint(0, 10, size=shape).astype(dtype))
        elif dtype == "bool":
            arrays.append(rng.rand(*shape) > 0.5)
        else:
            arrays.append(rng.standard_normal(shape).astype("float32"))
    return arrays


@contextlib.contextmanager
def _eval_mode_restored(layer):
    was_training = layer.training
    layer.eval()
    try:
        yield was_training
    finally:
        if was_training:
            layer.train()


@contextlib.contextmanager
def _eager_only():
    """Run converted layers as plain Python (dygraph) for the eager reference."""
    import paddle
    from paddle.jit.dy2static.program_translator import ProgramTranslator

    before = bool(getattr(ProgramTranslator(), "enable_to_static", True))
    paddle.jit.enable_to_static(False)
    try:
        yield
    finally:
        paddle.jit.enable_to_static(before)


def _make_predictor(prefix):
    import paddle.inference as inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.set_cpu_math_library_num_threads(1)
    config.disable_glog_info()  # else it prints coloured "--- Running PIR pass" lines
    return inference.create_predictor(config)


def _predict(predictor, arrays):
    for name, array in zip(predictor.get_input_names(), arrays):
        handle = predictor.get_input_handle(name)
        handle.reshape(list(array.shape))
        handle.copy_from_cpu(np.ascontiguousarray(array))
    predictor.run()
    return [predictor.get_output_handle(n).copy_to_cpu() for n in predictor.get_output_names()]


@contextlib.contextmanager
def _native_output_silenced():
    """Send what C++ code writes to file descriptors 1 and 2 to /dev/null for a moment.

    The inference predictor prints lines such as "ReduceMeanCheckIfOneDNNSupport"
    straight from C++, past Python's sys.stdout.
    """
    import ctypes

    libc = ctypes.CDLL(None)
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    saved = []
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        for fd in (1, 2):
            saved.append((fd, os.dup(fd)))
            os.dup2(devnull, fd)
        yield
    finally:
        with contextlib.suppress(Exception):
            libc.fflush(None)
        for fd, copy in saved:
            os.dup2(copy, fd)
            os.close(copy)
        os.close(devnull)


def _quietly(call, *args, warned=None):
    """Call and swallow what it prints (temp paths, addresses, C++ chatter). Its warnings go into the
    list ``warned`` when one is given, so the report can say what they mean instead of hiding them."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            with _native_output_silenced():
                result = call(*args)
    if warned is not None:
        warned.extend(str(w.message) for w in caught)
    return result
