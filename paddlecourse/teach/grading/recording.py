"""The answer run's half of judging by effects: each outermost call of a recorded function or Dataset class
appends one line (arguments' fingerprint, result, effects) to the records file (see effects.py)."""
import base64
import json
import os

from .answers import encode, Unsupported
from .effects import _ERRORS, MAX_FILE_BYTES, MAX_ITEMS_RECORDED, MAX_TEXT, RECORDS, _arguments, _digest_state, encode_result, _files_of, _global_state, _is_layer, layer_state, _paddle, training_flags


class Recorder:
    """Appends one JSON line per outermost call of a recorded answer (calls made inside another
    recorded call are the outer call's business, and the judge never makes them)."""

    def __init__(self, path=RECORDS):
        self.path, self.depth, self.count = os.path.abspath(path), 0, 0   # where the runner looks, whatever cwd is

    def write(self, entry):
        self.count += 1
        with open(self.path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry) + "\n")

    def function(self, name, function):
        recorder = self

        def recorded(*args, **kwargs):
            if recorder.depth:
                return function(*args, **kwargs)
            entry = {"name": name, "call": recorder.count, "args": _arguments(args, kwargs)}
            layers = {i: a for i, a in enumerate(args) if _is_layer(a)}
            layers.update({k: v for k, v in kwargs.items() if _is_layer(v)})
            paths = {i: a for i, a in enumerate(args) if type(a) is str and ("/" in a or os.sep in a)}
            paths.update({k: v for k, v in kwargs.items() if type(v) is str and ("/" in v or os.sep in v)})
            before = {key: _digest_state(layer) for key, layer in layers.items()}
            files_before = {key: _files_of(path) for key, path in paths.items()}
            recorder.depth += 1
            try:
                value = function(*args, **kwargs)
            except BaseException as error:  # noqa: B902 - recorded by type, then raised on
                entry["raised"] = type(error).__name__ if type(error).__name__ in _ERRORS else "RuntimeError"
                entry["message"] = bool(str(error).strip())
                raise
            else:
                try:
                    entry["value"] = encode_result(value, args)
                except Unsupported as why:
                    entry["unsupported"] = str(why)[:200]
                return value
            finally:
                recorder.depth -= 1
                try:
                    entry["layers"] = {str(key): layer_state(layer) for key, layer in layers.items()
                                       if _digest_state(layer) != before[key]}
                    entry["training"] = {str(key): training_flags(layer) for key, layer in layers.items()}
                    entry["files"] = {str(key): _changed_files(path, files_before[key]) for key, path in paths.items()}
                    entry["globals"] = _global_state()
                except Exception as error:  # noqa: BLE001 - a model too large to record, a patched paddle, ...
                    entry = {"name": name, "call": entry["call"], "args": entry["args"],
                             "broken": f"its effects could not be recorded ({type(error).__name__}: {str(error)[:120]})"}
                recorder.write(entry)

        recorded.__name__ = recorded.__qualname__ = name
        recorded.__doc__ = getattr(function, "__doc__", None)
        return recorded

    def dataset(self, name, cls):
        recorder = self

        def __init__(instance, *args, **kwargs):
            cls.__init__(instance, *args, **kwargs)
            if recorder.depth:
                return
            entry = {"name": name, "call": recorder.count, "args": _arguments(args, kwargs), "dataset": True}
            try:
                size = cls.__len__(instance)
                entry["len"] = int(size)
            except BaseException as error:  # noqa: B902
                entry["len_raised"] = type(error).__name__ if type(error).__name__ in _ERRORS else "RuntimeError"
                size = 0
            items = []
            for index in range(min(int(size), MAX_ITEMS_RECORDED)):
                try:
                    items.append({"value": encode(cls.__getitem__(instance, index), max_text=MAX_TEXT)})
                except Unsupported as why:
                    items.append({"unsupported": str(why)[:200]})
                except BaseException as error:  # noqa: B902
                    items.append({"raised": type(error).__name__ if type(error).__name__ in _ERRORS
                                  else "RuntimeError"})
            entry["items"] = items
            entry["globals"] = _global_state()
            recorder.write(entry)

        return type(cls.__name__, (cls,), {"__init__": __init__, "__module__": cls.__module__,
                                           "__qualname__": cls.__qualname__})


def _changed_files(path, before):
    after = _files_of(path)
    changed = {}
    total = 0
    for rel, digest in after.items():
        if before.get(rel) == digest:
            continue
        full = os.path.join(path, rel) if os.path.isdir(path) else os.path.join(os.path.dirname(path), rel)
        data = open(full, "rb").read()
        total += len(data)
        if total > MAX_FILE_BYTES:
            return {"too_large": True}
        changed[rel] = base64.b64encode(data).decode("ascii")
    return {"written": changed, "removed": sorted(set(before) - set(after))}


def record(namespace, names, path=RECORDS):
    """Wrap the functions and Dataset classes ``names`` of ``namespace`` in recorders (the answer run)."""
    paddle = _paddle()
    recorder = Recorder(path)
    for name in names:
        value = namespace.get(name)
        if isinstance(value, type) and issubclass(value, paddle.io.Dataset):
            namespace[name] = recorder.dataset(name, value)
        elif callable(value) and not isinstance(value, type):
            namespace[name] = recorder.function(name, value)
