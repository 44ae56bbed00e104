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

MARKER = "PADDLECOURSE-REPORT "
MAX_DEPTH = 12
MAX_ITEMS = 100_000
MAX_TEXT = 200_000

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

        parameter = getattr(getattr(paddle, "base", None), "framework", None)
        parameter = getattr(parameter, "EagerParamBase", None)
        if kind is paddle.Tensor or (parameter is not None and kind is parameter):
            grad = paddle.Tensor.grad.__get__(value)
            return {"t": "tensor", **_array(paddle.Tensor.numpy(value)),
                    "stop_gradient": bool(paddle.Tensor.stop_gradient.__get__(value)),
                    "grad": None if grad is None else _array(paddle.Tensor.numpy(grad))}
    raise Unsupported(f"a {kind.__module__}.{kind.__qualname__}")


def _rebuild_array(data):
    import numpy as np

    dtype = np.dtype(data["dtype"])
    if dtype.kind not in _NUMERIC_KINDS:
        raise ValueError("not a numeric array")
    raw = base64.b64decode(data["data"])
    shape = tuple(int(n) for n in data["shape"])
    return np.frombuffer(raw, dtype=dtype).reshape(shape).astype(dtype.newbyteorder("="))


def decode(data):
    """Fresh objects of exactly the reported types (run by the judge, never in a student's kernel)."""
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
    raise ValueError(f"unknown answer type {tag!r}")


def report(namespace, names, calls):
    """Print one line: the answers ``names`` in ``namespace``, and the results of ``calls``.

    ``calls`` maps a function's name to a list of argument lists (tagged JSON, as the
    grader read them from the test cells); each is called once and its result reported.
    Runs in the student's kernel, inside the sandbox.
    """
    answers = {}
    for name in names:
        if name not in namespace:
            answers[name] = {"missing": True}
            continue
        try:
            answers[name] = {"value": encode(namespace[name])}
        except Unsupported as why:
            answers[name] = {"unsupported": str(why)}
        except Exception as error:  # a tensor that cannot be read, ...
            answers[name] = {"unsupported": f"{type(error).__name__}"}
    results = {}
    for name, arg_lists in calls.items():
        function = namespace.get(name)
        results[name] = []
        for args in arg_lists:
            entry = {"args": args}
            try:
                entry["value"] = encode(function(*[decode(a) for a in args["args"]],
                                                 **{k: decode(v) for k, v in args["kwargs"].items()}))
            except Unsupported as why:
                entry["unsupported"] = str(why)
            except BaseException as error:  # noqa: B902 - a student's function may raise anything
                entry["raised"] = type(error).__name__
            results[name].append(entry)
    print(MARKER + json.dumps({"answers": answers, "calls": results}), flush=True)


def replay(recorded, name, args, kwargs):
    """The judge's stand-in for a function answer: the result the submission reported for these arguments."""
    key = json.dumps({"args": [encode(a) for a in args], "kwargs": {k: encode(v) for k, v in kwargs.items()}},
                     sort_keys=True)
    for entry in recorded.get(name, []):
        if json.dumps(entry["args"], sort_keys=True) == key:
            if "value" in entry:
                return decode(entry["value"])
            raise AssertionError(f"{name}{tuple(args)} raised {entry.get('raised') or entry.get('unsupported')} "
                                 "when the submission ran it")
    raise AssertionError(f"{name} was not run with these arguments when the submission ran")
