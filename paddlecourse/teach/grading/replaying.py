"""The judge's run's half of judging by effects: stand-ins that replay the records call by call, applying
the recorded effects to the judge's own objects (see effects.py)."""
import base64
import json
import os

from .answers import _rebuild_array, decode
from .effects import _ERRORS, RECORDS, _arguments, _is_layer, NotRecorded, _paddle, _qualname
from .models import PICKLED


def read_records(path=RECORDS):
    """{name: [entry, ...]} in call order, from the records the grader handed the judge's run."""
    by_name = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as handle:
            for entry in json.load(handle):
                if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                    by_name.setdefault(entry["name"], []).append(entry)
    return by_name


def _set_training(layer, flags):
    subs = dict(layer.named_sublayers(include_self=True))
    if sorted(subs) != sorted(name for name, _ in flags):
        raise NotRecorded("the recorded layer has other sublayers")
    for name, training in flags:
        subs[name].training = bool(training)


def load_layer(layer, recorded):
    """Give ``layer`` (the judge's own object) the recorded state and training flags; False when they do not fit."""
    import numpy as np

    paddle = _paddle()
    own = layer.state_dict()
    state = recorded.get("state") or {}
    if sorted(own) != sorted(state):
        return False
    new = {}
    for key, tensor in own.items():
        array = _rebuild_array(state[key])
        if list(array.shape) != list(tensor.shape) or str(array.dtype) != str(np.asarray(tensor.numpy()).dtype):
            return False
        new[key] = paddle.to_tensor(array)
    layer.set_state_dict(new)
    try:
        _set_training(layer, recorded.get("training") or [])
    except NotRecorded:
        return False
    return True


def _apply_globals(state):
    import random

    import numpy as np

    paddle = _paddle()
    if not isinstance(state, dict):
        return
    if state.get("dynamic") is True and not paddle.in_dynamic_mode():
        paddle.disable_static()
    elif state.get("dynamic") is False and paddle.in_dynamic_mode():
        paddle.enable_static()
    try:
        np.random.set_state(decode(state["np_random"]))
        random.setstate(decode(state["random"]))
        generators = []
        for data in state["paddle_random"]:
            numbers = decode(data)
            if not all(type(n) is int or (type(n) is list and all(type(i) is int for i in n)) for n in numbers):
                raise ValueError("not a generator state")
            generator = paddle.base.core.GeneratorState.__new__(paddle.base.core.GeneratorState)
            generator.__setstate__(tuple(numbers))
            generators.append(generator)
        paddle.set_rng_state(generators)
    except (KeyError, TypeError, ValueError) as error:
        raise NotRecorded(f"the recorded random state does not load ({type(error).__name__})") from None


def _write_files(path, recorded):
    if not isinstance(recorded, dict) or recorded.get("too_large"):
        raise NotRecorded("the files this call wrote were over the size the grader takes")
    folder, stem = (path, "") if os.path.isdir(path) else os.path.split(path)
    for rel in recorded.get("removed", []):
        target = _inside(folder, stem, rel)
        if os.path.isfile(target):
            os.remove(target)
    for rel, data in (recorded.get("written") or {}).items():
        target = _inside(folder, stem, rel)
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        with open(target, "wb") as handle:
            if not str(rel).endswith(PICKLED):   # a file Paddle would unpickle stays empty in the judge's kernel
                handle.write(base64.b64decode(data))


def _inside(folder, stem, rel):
    """``rel`` under ``folder`` (and, beside a prefix, starting with it): never a path that climbs out."""
    rel = str(rel)
    parts = rel.replace("\\", "/").split("/")
    if os.path.isabs(rel) or ".." in parts or (stem and (len(parts) != 1 or not rel.startswith(stem))):
        raise NotRecorded(f"a recorded file name ({rel[:60]!r}) is not under the path the call was given")
    return os.path.join(folder or ".", rel)


def _raise_recorded(name, entry_raised, had_message):
    kind = _ERRORS.get(entry_raised, RuntimeError)
    if kind is NotImplementedError and not had_message:
        raise NotImplementedError()   # the untouched stub, as run_answer knows it
    raise kind(f"(raised by {name} when your code ran; its message is not carried over - run the cell "
               "in your notebook to see it)")


class Replayer:
    """The judge's stand-ins for the recorded names, each replaying its records in call order."""

    def __init__(self, records, solutions):
        self.records, self.solutions, self.used, self.ended = records, solutions, {}, False

    def _next(self, name, args, kwargs):
        entries = self.records.get(name, [])
        k = self.used.get(name, 0)
        self.used[name] = k + 1
        if k >= len(entries):
            raise NotRecorded(f"{name} was not called this often when your code ran (call {k + 1}); "
                              "the run of your code may have stopped before it")
        entry = entries[k]
        if entry.get("broken"):
            # the record's own text is never carried over: the student's kernel wrote it, and it could hold
            # anything that kernel saw (a hidden test's source included), which would reach the feedback
            raise NotRecorded(f"call {k + 1} of {name}: its effects could not be recorded when your code ran")
        if entry.get("args") != _arguments(args, kwargs):
            raise NotRecorded(f"call {k + 1} of {name} had other arguments when your code ran")
        return entry

    def function(self, name):
        replayer = self

        def stand_in(*args, **kwargs):
            if replayer.ended:  # after the last test of it: the lesson goes on with the instructor's function
                return replayer.solutions[name](*args, **kwargs)
            entry = replayer._next(name, args, kwargs)
            value = entry.get("value")
            template = None
            if value is not None and _holds_layer(value):  # the instructor's function builds the Layer to load into
                template = replayer.solutions[name](*args, **kwargs)
            bound = {**dict(enumerate(args)), **kwargs}
            for key, flags in (entry.get("training") or {}).items():
                layer = bound.get(int(key) if key.isdigit() else key)
                if layer is not None and _is_layer(layer):
                    changed = (entry.get("layers") or {}).get(key)
                    if changed is not None and not load_layer(layer, changed):
                        raise NotRecorded(f"the state {name} left in its argument {key} does not fit the model")
                    _set_training(layer, flags)
            for key, files in (entry.get("files") or {}).items():
                path = bound.get(int(key) if key.isdigit() else key)
                if type(path) is str:
                    _write_files(path, files)
            _apply_globals(entry.get("globals"))
            if "raised" in entry:
                _raise_recorded(name, entry["raised"], entry.get("message"))
            if "unsupported" in entry or value is None:
                raise NotRecorded(f"{name} returned something the grader cannot read when your code ran; "
                                  "the grader takes plain data, models and files")
            return _decode_result(value, args, template)

        stand_in.__name__ = stand_in.__qualname__ = name
        return stand_in

    def dataset(self, name):
        paddle = _paddle()
        replayer = self

        class Recorded(paddle.io.Dataset):
            def __init__(self, *args, **kwargs):
                super().__init__()
                entry = replayer._next(name, args, kwargs)
                if not entry.get("dataset"):
                    raise NotRecorded(f"{name} was not recorded as a dataset")
                self._pc_entry, self._pc_items = entry, {}
                _apply_globals(entry.get("globals"))

            def __len__(self):
                if "len" not in self._pc_entry:
                    _raise_recorded(name, self._pc_entry.get("len_raised"), True)
                return int(self._pc_entry["len"])

            def __getitem__(self, index):
                items = self._pc_entry.get("items") or []
                index = int(index)
                if not 0 <= index < len(items):
                    raise IndexError(f"item {index} was not read when your code ran")
                item = items[index]
                if "raised" in item:
                    _raise_recorded(name, item["raised"], True)
                if "value" not in item:
                    raise NotRecorded(f"item {index} of {name} is something the grader cannot read")
                if index not in self._pc_items:
                    self._pc_items[index] = item["value"]
                return decode(self._pc_items[index])

        Recorded.__name__ = Recorded.__qualname__ = name
        return Recorded


def _holds_layer(value):
    if not isinstance(value, dict):
        return False
    if value.get("t") == "layer":
        return True
    return value.get("t") in ("list", "tuple") and any(_holds_layer(v) for v in value.get("v", []))


def _decode_result(value, args, template, path=()):
    tag = value.get("t") if isinstance(value, dict) else None
    if tag == "arg":
        index = int(value["index"])
        if not 0 <= index < len(args):
            raise NotRecorded("the recorded result names an argument the call did not have")
        return args[index]
    if tag == "layer":
        found = template
        for step in path:
            found = found[step] if isinstance(found, (list, tuple)) and step < len(found) else None
        if found is None or not _is_layer(found) or _qualname(type(found)) != value.get("type") \
                or not load_layer(found, value):
            return None   # another kind of model than the exercise asks for: the test says what it expected
        return found
    if tag in ("list", "tuple") and _holds_layer(value):
        items = [_decode_result(v, args, template, path + (i,)) for i, v in enumerate(value["v"])]
        return tuple(items) if tag == "tuple" else items
    return decode(value)


def bind(namespace, functions, datasets, path=RECORDS):
    """In the judge's run: replace ``functions`` and ``datasets`` (names) of ``namespace`` by stand-ins
    replaying the records at ``path``; the instructor's own objects are kept for templates and for the
    lesson's cells after the last test (``end``). Returns the Replayer."""
    solutions = {name: namespace.get(name) for name in [*functions, *datasets]}
    replayer = Replayer(read_records(path), solutions)
    for name in functions:
        namespace[name] = replayer.function(name)
    for name in datasets:
        namespace[name] = replayer.dataset(name)
    return replayer


def end(namespace, names, replayer):
    """After the last test cell that uses them: the instructor's objects again, for the rest of the lesson."""
    replayer.ended = True   # a stand-in someone kept hold of falls back to the instructor's function too
    for name, solution in replayer.solutions.items():
        if name in names:
            namespace[name] = solution
