"""A Layer class whose forward() is the answer (lesson 06 ex4), observed as data and rebuilt by the judge.

A class cannot travel as data, and its methods must never run in the judge's kernel. So, in the student's
run, right after the answer cell, ``observe`` makes one instance and writes down what the tests need:

- the names, shapes and dtypes of its state_dict;
- its forward in eval mode **as a program**: the instance gets distinct weights, is exported with
  ``paddle.jit.save``, and each of the program's weights is matched to its name by value;
- its forward on the exercise's input with the weights of the lesson layer the tests load into it
  (``weights``): once in eval mode, and ``calls`` times in train mode after ``paddle.seed(seed)``; with the
  digests of input and weights.

The judge's stand-in (``stand_in``) is a Layer with those names. For the exercise's input and weights it
gives the student's own recorded outputs (an eval forward that still drops out is caught there, though
Paddle's export turns dropout off); for any other input in eval mode it runs the student's program, so
``set_state_dict`` and ``check_export`` work (the export of a stand-in compares the program with itself:
the outputs the tests compare are the class's own). Any other train-mode call raises ``NotRecorded``
inside the test. Which lesson layer, input and seed an exercise uses is written by
the author in the answer cell's metadata: ``{"paddlecourse": {"observe": {"FixedScorer": {"weights":
"scorer", "input_shape": [4, 784], "input_seed": 4, "seed": 11, "calls": 2}}}}``.

An observation is a claim, like every line of the student's run: forging one means supplying a program
that computes the right outputs, which is answering the exercise.
"""
import hashlib
import os
import re
import tempfile

from . import models
from .answers import _array, _rebuild_array, encode
from .effects import NotRecorded, random_state, restore_random_state

_ERRORS = {"TypeError": TypeError, "ValueError": ValueError, "AttributeError": AttributeError,
           "NotImplementedError": NotImplementedError, "RuntimeError": RuntimeError, "NameError": NameError}


def _digest(tensors):
    h = hashlib.sha256()
    for key, tensor in tensors:
        h.update(str(key).encode())
        h.update(tensor.numpy().tobytes())
    return h.hexdigest()


def _input(how):
    import numpy as np
    import paddle

    shape = [int(n) for n in how["input_shape"]]
    return paddle.to_tensor(np.random.RandomState(int(how["input_seed"])).randn(*shape).astype("float32"))


def _failed(error):
    return {"raised": type(error).__name__}


def observe(cls, namespace, how, name):
    """What the tests need of ``cls`` (run in the student's kernel); random generators left as found."""
    import paddle

    if cls is None:
        return encode(None)
    if not (isinstance(cls, type) and issubclass(cls, paddle.nn.Layer)):
        return encode(cls)   # Unsupported: the judge takes a Layer class or None here
    saved = random_state()
    try:
        return {"t": "layer_class", "name": str(name)[:100], **_observed(cls, namespace, how)}
    finally:
        restore_random_state(saved)


def _observed(cls, namespace, how):
    import numpy as np
    import paddle

    try:
        layer = cls()
    except (Exception, SystemExit) as error:   # noqa: B902 - the student's __init__ may raise anything
        return _failed(error)
    state = layer.state_dict()
    entries = [[str(k), [int(n) for n in v.shape], str(v.dtype).replace("paddle.", "")] for k, v in state.items()]
    found = {"entries": entries}
    x = _input(how)
    try:   # eval mode, as a program whose weights are matched to their names by value
        rng = np.random.RandomState(0)
        distinct = {k: rng.standard_normal(v.shape).astype(v.numpy().dtype) for k, v in state.items()
                    if v.numpy().dtype.kind == "f"}
        layer.set_state_dict(distinct)
        layer.eval()
        spec = [paddle.static.InputSpec([None, *x.shape[1:]], "float32", "x")]
        found["program"], loaded = models.export_of(layer, spec)
        found["names"] = {}
        for weight_name, weight in loaded.state_dict().items():
            matches = [k for k, v in distinct.items() if v.shape == tuple(weight.shape)
                       and np.array_equal(v, weight.numpy())]
            if len(matches) == 1:
                found["names"][weight_name] = matches[0]
    except (Exception, SystemExit) as error:   # noqa: B902
        found["program"] = _failed(error)
    for mode, calls in (("eval", 1), ("train", int(how["calls"]))):   # with the weights the tests load
        try:
            layer.set_state_dict(namespace[how["weights"]].state_dict())
            layer.train() if mode == "train" else layer.eval()
            weights = _digest(sorted(layer.state_dict().items()))
            paddle.seed(int(how["seed"]))
            outputs = [_array(paddle.Tensor.numpy(layer(x)), limit=1 << 20) for _ in range(calls)]
            found[mode] = {"input": _digest([("x", x)]), "weights": weights, "outputs": outputs}
        except (Exception, SystemExit) as error:   # noqa: B902
            found[mode] = _failed(error)
    return found


def _word(text):
    """A reported name as the judge may print it (a forged report could carry any text)."""
    return re.sub(r"\W", "", str(text))[:60] or "?"


def _error(data, what):
    raised = _word(data.get("raised"))
    return _ERRORS.get(raised, RuntimeError)(f"{what} raised {raised} in the sandboxed run where your class ran")


def stand_in(data):
    """A fresh Layer class standing for the student's (run in the judge's kernel)."""
    import paddle

    program, recorded = data.get("program") or {}, {mode: data.get(mode) or {} for mode in ("eval", "train")}
    folder = tempfile.mkdtemp(prefix="paddlecourse-class-")
    if program.get("t") == "loaded_model":
        models.write_export(program, os.path.join(folder, "model"))   # each instance loads its own copy
    name = _word(data.get("name") or "StandIn")
    entries = [(str(k), [int(n) for n in shape], str(dtype)) for k, shape, dtype in data.get("entries", [])]
    names = {str(k): str(v) for k, v in (data.get("names") or {}).items()}

    class StandIn(paddle.nn.Layer):
        def __init__(self, *args, **kwargs):
            if "raised" in data:
                raise _error(data, f"{name}()")
            if args or kwargs:
                raise NotRecorded("the class was observed when made with no arguments")
            super().__init__()
            loaded = paddle.jit.load(os.path.join(folder, "model")) if program.get("t") == "loaded_model" else None
            self.__dict__["_pc_program"] = loaded   # not a sublayer: its weights appear under the student's names
            by_name = {names[k]: w for k, w in (dict(loaded.named_parameters()) if loaded else {}).items()
                       if k in names}
            for key, shape, dtype in entries:
                *path, leaf = key.split(".")
                owner = self
                for part in path:
                    if part not in owner._sub_layers:
                        owner.add_sublayer(part, paddle.nn.Layer())
                    owner = owner._sub_layers[part]
                weight = by_name.get(key)
                if weight is None:
                    weight = owner.create_parameter(shape, dtype=dtype)
                owner.add_parameter(leaf, weight)
            self.__dict__["_pc_train_calls"] = 0

        def forward(self, x):
            mode = "train" if self.training else "eval"
            seen = recorded[mode]
            observed = paddle.in_dynamic_mode() and type(x) is paddle.Tensor and "raised" not in seen and \
                _digest([("x", x)]) == seen.get("input") and _digest(sorted(self.state_dict().items())) == seen.get("weights")
            if "raised" in seen:
                raise _error(seen, f"{name}'s forward in {mode} mode")
            if mode == "eval":
                if observed:
                    return paddle.to_tensor(_rebuild_array(seen["outputs"][0]))
                if self._pc_program is None:
                    raise _error(program, f"exporting {name} in eval mode")
                return self._pc_program(x)
            if not observed:
                raise NotRecorded("in train mode, only the exercise's input with the lesson's weights was observed")
            calls = self.__dict__["_pc_train_calls"]
            if calls >= len(seen.get("outputs", [])):
                raise NotRecorded(f"the answer was observed for {calls} train-mode calls")
            self.__dict__["_pc_train_calls"] = calls + 1
            return paddle.to_tensor(_rebuild_array(seen["outputs"][calls]))

    StandIn.__name__ = StandIn.__qualname__ = name
    return StandIn
