"""Function and class answers judged by what they did: recorded where the student's code ran (``recording.py``),
replayed by the judge (``replaying.py``). This module holds what both halves compute alike: fingerprints,
layer states, files, random state.

A function answer that the tests hand lesson objects (a model, a loader, an export path) cannot be
called with data alone. It is judged in two steps:

1. **The answer run** (sandboxed, untrusted). The instructor's notebook runs with the student's cell
   for the exercise; right after it, ``record`` wraps every function and class that cell defines in
   a recorder. Each outermost call appends one line to the records file: the arguments' fingerprint
   (types, tensor shapes and dtypes, literals), what the call returned (plain data as
   ``answers.encode`` takes it; a returned Layer as its state and its sublayers' ``training`` flags),
   what it raised (the exception's type only: a message could carry text the run can see), and its
   effects: for every ``paddle.nn.Layer`` argument its state_dict and ``training`` flags afterwards,
   for every path argument the files created, changed or removed under that prefix, and the global
   state a later line of the lesson reads (dynamic or static mode, NumPy's, Python's and Paddle's
   random generators). A Dataset class is recorded by its instances: the arguments, ``len`` and every
   item. Nothing else of that run is kept: not its outputs, not its verdicts.
2. **The judge's run** (trusted). ``bind`` replaces those names by stand-ins. The k-th call of a
   stand-in checks the arguments against the k-th record's fingerprint, applies the recorded
   effects to the judge's own objects (``set_state_dict``, ``train()``/``eval()``, files written),
   and returns the recorded value rebuilt from data; a returned Layer is built by the instructor's
   own function called with the same arguments, then given the recorded state. A missing or
   mismatched record raises inside the test, which then scores 0.

A record is a claim, like every line of an untrusted run: a forged one can only claim outputs, and
the lesson's own checks, run by the judge, decide whether those outputs are right.
"""
import hashlib
import os

from .answers import _array, encode

RECORDS = "paddlecourse-records.jsonl"
MAX_FILE_BYTES = 16 << 20      # files one call may leave under a path argument (an exported model)
MAX_ITEMS_RECORDED = 20_000    # items of one Dataset instance
MAX_ARRAY_ITEMS = 4 << 20      # one parameter of a recorded Layer
MAX_TEXT = 64                  # a string the answer run returns (a verdict word, not a paragraph)
_ERRORS = {"IndexError": IndexError, "KeyError": KeyError, "TypeError": TypeError, "ValueError": ValueError,
           "NotImplementedError": NotImplementedError, "AssertionError": AssertionError,
           "ZeroDivisionError": ZeroDivisionError, "AttributeError": AttributeError, "NameError": NameError,
           "RuntimeError": RuntimeError, "StopIteration": StopIteration}


class NotRecorded(AssertionError):
    """The judge asked for a call the answer run did not make (or made with other arguments)."""


def _paddle():
    import paddle

    return paddle


def _qualname(kind):
    return f"{getattr(kind, '__module__', '')}.{getattr(kind, '__qualname__', getattr(kind, '__name__', '?'))}"


def _is_layer(value):
    return isinstance(value, _paddle().nn.Layer)


# ---------------------------------------------------------------- fingerprints (both runs compute them alike)

def fingerprint(value, depth=0):
    """What a call's argument is, without its numbers: types, shapes, dtypes and small literals."""
    import numpy as np

    paddle = _paddle()
    kind = type(value)
    if value is None or kind in (bool, int, float):
        return encode(value)
    if kind is str:
        return {"t": "path"} if ("/" in value or os.sep in value) else {"t": "str", "v": value[:200]}
    if kind in (list, tuple):
        if depth < 3 and len(value) <= 64:
            return {"t": kind.__name__, "v": [fingerprint(v, depth + 1) for v in value]}
        return {"t": kind.__name__, "len": len(value)}
    if kind is dict:
        if depth < 3 and len(value) <= 64:
            return {"t": "dict", "v": sorted([[str(k), fingerprint(v, depth + 1)] for k, v in value.items()])}
        return {"t": "dict", "len": len(value)}
    if isinstance(value, np.ndarray):
        return {"t": "array", "dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, np.generic):
        return {"t": "npscalar", "dtype": str(value.dtype)}
    if isinstance(value, paddle.Tensor):
        return {"t": "tensor", "dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, paddle.nn.Layer):
        return {"t": "layer", "type": _qualname(kind),
                "state": [[k, list(v.shape)] for k, v in value.state_dict().items()]}
    if isinstance(value, type):
        return {"t": "class", "name": _qualname(value)}
    if callable(value) and hasattr(value, "__code__"):
        return {"t": "function", "name": getattr(value, "__qualname__", "?")}
    return {"t": "object", "type": _qualname(kind)}


def _arguments(args, kwargs):
    return {"args": [fingerprint(a) for a in args], "kwargs": {str(k): fingerprint(v) for k, v in kwargs.items()}}


# ---------------------------------------------------------------- what a call did

def layer_state(layer):
    state = {}
    for key, tensor in layer.state_dict().items():
        state[str(key)] = _array(tensor.numpy(), MAX_ARRAY_ITEMS)
    return {"state": state, "training": training_flags(layer)}


def training_flags(layer):
    return [[name, bool(sub.training)] for name, sub in layer.named_sublayers(include_self=True)]


def _digest_state(layer):
    h = hashlib.sha256()
    for key, tensor in layer.state_dict().items():
        h.update(str(key).encode())
        h.update(tensor.numpy().tobytes())
    h.update(repr([bool(s.training) for s in layer.sublayers(include_self=True)]).encode())
    return h.hexdigest()


def _files_of(path):
    """{relative name: sha256} of the regular files a path argument names: under the folder it is, or
    beside it starting with its last part (``prefix`` -> ``prefix.json``, ``prefix.pdiparams``)."""
    found = {}
    if os.path.isdir(path):
        for root, _, names in os.walk(path):
            for name in names:
                full = os.path.join(root, name)
                if os.path.isfile(full) and not os.path.islink(full):
                    found[os.path.relpath(full, path)] = full
    else:
        folder, stem = os.path.split(path)
        if stem and os.path.isdir(folder or "."):
            for name in os.listdir(folder or "."):
                full = os.path.join(folder or ".", name)
                if name.startswith(stem) and os.path.isfile(full) and not os.path.islink(full):
                    found[name] = full
    return {rel: hashlib.sha256(open(full, "rb").read()).hexdigest() for rel, full in found.items()}


def _global_state():
    import random

    import numpy as np

    paddle = _paddle()
    return {"dynamic": bool(paddle.in_dynamic_mode()), "np_random": encode(np.random.get_state()),
            "random": encode(random.getstate()),
            "paddle_random": [encode(tuple(s.__getstate__())) for s in paddle.get_rng_state()]}


def random_state():
    """The random generators as they are (the judge's run keeps them across a hidden test)."""
    import random

    import numpy as np

    return np.random.get_state(), random.getstate(), _paddle().get_rng_state()


def restore_random_state(state):
    import random

    import numpy as np

    np.random.set_state(state[0])
    random.setstate(state[1])
    _paddle().set_rng_state(state[2])


def encode_result(value, args, depth=0):
    """A call's result as data: plain values, an argument given back, or a Layer as its state."""
    for index, arg in enumerate(args):
        if value is arg and not isinstance(value, (bool, int, float, str, type(None))):
            return {"t": "arg", "index": index}
    if type(value) in (list, tuple) and depth < 4 and any(_is_layer(v) for v in value):
        return {"t": type(value).__name__, "v": [encode_result(v, args, depth + 1) for v in value]}
    if _is_layer(value):
        return {"t": "layer", "type": _qualname(type(value)), **layer_state(value)}
    return encode(value, max_text=MAX_TEXT)
