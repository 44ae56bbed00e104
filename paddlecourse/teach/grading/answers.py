"""Answers as plain data: what a sandboxed submission reports, and how the judge rebuilds it.

``encode`` runs inside the student's kernel (after each answer cell) and turns the names
that answer defines into JSON: numbers, strings, lists, tuples, sets, dicts, numpy arrays
and Paddle tensors (values, dtype, shape, stop_gradient and grad). Only these exact types
are taken (``type(x) is float``, not isinstance): a subclass, an object that "equals
everything", a function or a module is reported as unsupported and never leaves the
kernel. What the kernel prints is untrusted: a forged report can only claim answers, and
the judge checks every claim with the lesson's hidden tests.

``decode`` runs in the judge's kernel, where no student code ever ran, and builds fresh
objects of exactly those types from the data.
"""
import base64
import collections
import json
import os

MARKER = "PADDLECOURSE-REPORT "
MAX_DEPTH = 12
MAX_ITEMS = 100_000
MAX_TEXT = 200_000
MAX_RECORDED_CALLS = 500

_NUMERIC_KINDS = "biufc"  # bool, int, unsigned, float, complex
_DICTS = {"Counter": collections.Counter, "OrderedDict": collections.OrderedDict}


class Unsupported(Exception):
    pass


def _array(array, limit=MAX_ITEMS):
    import numpy as np

    if array.dtype.kind not in _NUMERIC_KINDS or array.size > limit:
        raise Unsupported(f"an array of {array.dtype} with {array.size} items")
    little = np.ascontiguousarray(array, dtype=array.dtype.newbyteorder("<"))
    return {"dtype": array.dtype.newbyteorder("<").str, "shape": list(array.shape),
            "data": base64.b64encode(little.tobytes()).decode("ascii")}


def encode(value, depth=0, budget=None, max_text=MAX_TEXT):
    """One value as tagged JSON; raises Unsupported for anything but plain data."""
    budget = budget if budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if depth > MAX_DEPTH or budget[0] < 0:
        raise Unsupported("too deep or too large")
    kind = type(value)
    if value is None:
        return {"t": "none"}
    if kind is bool:
        return {"t": "bool", "v": bool(value)}
    if kind is int:
        return {"t": "int", "v": int.__repr__(value)}
    if kind is float:
        return {"t": "float", "v": float.__repr__(value)}
    if kind is str:
        if len(value) > max_text:
            raise Unsupported("a very long string" if max_text == MAX_TEXT else f"text over {max_text} characters")
        return {"t": "str", "v": str.__str__(value)}
    if kind in (list, tuple):
        return {"t": kind.__name__, "v": [encode(item, depth + 1, budget, max_text) for item in kind.__iter__(value)]}
    if kind in (set, frozenset):
        items = [encode(item, depth + 1, budget, max_text) for item in kind.__iter__(value)]
        return {"t": kind.__name__, "v": sorted(items, key=lambda item: json.dumps(item, sort_keys=True))}
    if kind is dict or kind in _DICTS.values():
        tag = next((name for name, known in _DICTS.items() if known is kind), "dict")
        return {"t": tag, "v": [[encode(k, depth + 1, budget, max_text), encode(v, depth + 1, budget, max_text)]
                                for k, v in dict.items(value)]}
    module = getattr(kind, "__module__", "") or ""
    if module == "numpy":
        import numpy as np

        if kind is np.ndarray:
            return {"t": "ndarray", **_array(value)}
        if kind in set(np.sctypeDict.values()) and issubclass(kind, np.generic):
            return {"t": "npscalar", **_array(np.asarray(value))}
    if module.startswith("paddle"):
        import paddle

        if kind is paddle.static.InputSpec:
            shape = [None if d is None else int(d) for d in value.shape]
            return {"t": "inputspec", "shape": shape, "dtype": str(value.dtype).replace("paddle.", ""),
                    "name": None if value.name is None else str.__str__(value.name)[:200],
                    "stop_gradient": bool(value.stop_gradient)}
        if kind is _pir("Program"):
            return {"t": "program", "json": _program_json(value)}
        parameter = getattr(getattr(paddle, "base", None), "framework", None)
        parameter = getattr(parameter, "EagerParamBase", None)
        if kind is paddle.Tensor or (parameter is not None and kind is parameter):
            grad = paddle.Tensor.grad.__get__(value)
            return {"t": "tensor", **_array(paddle.Tensor.numpy(value)),
                    "stop_gradient": bool(paddle.Tensor.stop_gradient.__get__(value)),
                    "grad": None if grad is None else _array(paddle.Tensor.numpy(grad))}
    raise Unsupported(f"a {kind.__module__}.{kind.__qualname__}")


def _pir(name):
    import paddle

    return getattr(paddle.base.libpaddle.pir, name, None)


MAX_PROGRAM = 8 << 20


def _program_json(program):
    """A static (PIR) Program as the JSON text paddle.jit.save writes (Paddle's own serialisation)."""
    import tempfile

    import paddle

    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "program.json")
        paddle.base.core.serialize_pir_program(program, path, True, False, True)
        with open(path, encoding="utf-8") as handle:
            text = handle.read(MAX_PROGRAM + 1)
    if len(text) > MAX_PROGRAM:
        raise Unsupported("a program over 8 MB")
    return text


def _load_program(text):
    import tempfile

    import paddle

    if not isinstance(text, str) or len(text) > MAX_PROGRAM:
        raise ValueError("not a program")
    json.loads(text)  # JSON first: Paddle's reader is handed nothing else
    program = paddle.static.Program()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "program.json")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        if not paddle.base.core.deserialize_pir_program(path, program, -1):
            raise ValueError("the program does not load")
    return program


def value_reference(value, namespace, names):
    """A static Value (the output of a program) as the name of the reported Program that holds it,
    the index of the op that makes it and which of its results it is; raises Unsupported otherwise."""
    op = value.get_defining_op()
    for name in names:
        program = namespace.get(name)
        if type(program) is _pir("Program") and op is not None and op.get_parent_block().program == program:
            for index, candidate in enumerate(program.global_block().ops):
                if candidate == op:
                    results = [i for i, r in enumerate(op.results()) if r.is_same(value)]
                    if results:
                        return {"t": "value", "program": name, "op": index, "result": results[0]}
    raise Unsupported("a static Value of a program that is not one of the answers")


def _rebuild_array(data):
    import numpy as np

    dtype = np.dtype(data["dtype"])
    if dtype.kind not in _NUMERIC_KINDS:
        raise ValueError("not a numeric array")
    raw = base64.b64decode(data["data"])
    shape = tuple(int(n) for n in data["shape"])
    return np.frombuffer(raw, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))


def decode(data, namespace=None):
    """Fresh objects of exactly the reported types (run by the judge, never in a student's kernel).
    A static Value is found in the program ``namespace`` already holds under its reported name."""
    tag = data["t"]
    if tag == "none":
        return None
    if tag == "bool":
        return bool(data["v"])
    if tag == "int":
        return int(data["v"])
    if tag == "float":
        return float(data["v"])
    if tag == "str":
        return str(data["v"])
    if tag in ("list", "tuple", "set", "frozenset"):
        return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[tag](decode(x) for x in data["v"])
    if tag == "dict" or tag in _DICTS:
        return _DICTS.get(tag, dict)({decode(k): decode(v) for k, v in data["v"]})
    if tag == "ndarray":
        return _rebuild_array(data)
    if tag == "npscalar":
        return _rebuild_array(data).reshape(())[()]
    if tag == "tensor":
        import paddle

        tensor = paddle.to_tensor(_rebuild_array(data), stop_gradient=bool(data["stop_gradient"]))
        if data.get("grad") is not None and not tensor.stop_gradient:
            # d/dt sum(t * g) is exactly g: the rebuilt tensor gets the reported gradient
            (tensor * paddle.to_tensor(_rebuild_array(data["grad"]))).sum().backward()
        return tensor
    if tag == "inputspec":
        import paddle

        shape = [None if d is None else int(d) for d in data["shape"]]
        name = None if data["name"] is None else str(data["name"])
        return paddle.static.InputSpec(shape, str(data["dtype"]), name, bool(data["stop_gradient"]))
    if tag == "program":
        return _load_program(data["json"])
    if tag == "value":
        program = (namespace or {}).get(str(data["program"]))
        if type(program) is not _pir("Program"):
            raise ValueError("the program of this value is not there")
        return program.global_block().ops[int(data["op"])].results()[int(data["result"])]
    raise ValueError(f"unknown answer type {tag!r}")


def record_calls(namespace, names, path="paddlecourse-records.jsonl"):
    """Wrap the functions ``names`` so that every later call with plain-data arguments appends its
    arguments and result to ``path`` (the student's run: the visible checks' calls, replayed by the judge
    by their arguments; that run holds no hidden test)."""
    written, path = {}, os.path.abspath(path)   # where the runner looks, whatever the kernel's cwd becomes

    def wrap(name, function):
        def recorded(*args, **kwargs):
            if written.get(name, 0) >= MAX_RECORDED_CALLS:   # a loop of calls in a scratch cell: enough
                return function(*args, **kwargs)
            try:
                key = {"args": [encode(a) for a in args], "kwargs": {str(k): encode(v) for k, v in kwargs.items()}}
            except Unsupported:
                key = None
            entry = {"name": name, "args": key}
            try:
                value = function(*args, **kwargs)
            except BaseException as error:  # noqa: B902 - recorded, then raised on
                entry["raised"] = type(error).__name__[:80]
                raise
            else:
                try:
                    entry["value"] = encode(value)
                except Unsupported as why:
                    entry["unsupported"] = str(why)[:200]
                return value
            finally:
                if key is not None:
                    written[name] = written.get(name, 0) + 1
                    with open(path, "a", encoding="utf-8") as handle:
                        handle.write(json.dumps(entry) + "\n")
        recorded.__name__ = recorded.__qualname__ = name
        return recorded

    for name in names:
        if callable(namespace.get(name)) and not isinstance(namespace.get(name), type):
            namespace[name] = wrap(name, namespace[name])


def replay(recorded, name, args, kwargs):
    """The judge's stand-in for a function answer: the result the submission reported for these arguments."""
    key = json.dumps({"args": [encode(a) for a in args], "kwargs": {k: encode(v) for k, v in kwargs.items()}},
                     sort_keys=True)
    for entry in recorded.get(name, []):
        if isinstance(entry, dict) and json.dumps(entry.get("args"), sort_keys=True) == key:
            if "value" in entry:
                return decode(entry["value"])
            raise AssertionError(f"{name}{tuple(args)} raised {entry.get('raised') or entry.get('unsupported')} "
                                 "when the submission ran it")
    raise AssertionError(f"{name} was not run with these arguments when the submission ran")
