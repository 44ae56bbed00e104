"""Exported models and the files an answer wrote, carried as data from the student's run to the judge's.

A model ``paddle.jit.load`` returned (Paddle 3's PIR ``PirTranslatedLayer``) is a program and its weights:
the student's run re-saves it and sends the two files' contents; the judge loads them in its own kernel.
The files an answer cell wrote at a path prefix (``ex1_prefix`` -> ``model.json``, ``model.pdiparams``)
travel the same way and replace, at the judge's own prefix, whatever the instructor's solution wrote.

Files that Paddle reads with pickle (``.pdiparams.info`` of the old format, ``paddle.save``'s
``.pdparams`` and ``.pdopt``) are never written in the judge's kernel: only their names travel, and an
empty file of that name stands for each (a test may ask whether one exists; nothing unpickles it).
"""
import base64
import json
import os
import tempfile

MAX_PROGRAM = 8 << 20         # characters of a program's JSON
MAX_FILES_BYTES = 32 << 20    # the files at one prefix, together
PICKLED = (".info", ".pdparams", ".pdopt", ".pkl", ".pickle")


class TooLarge(ValueError):
    pass


def is_loaded_model(value):
    """True for exactly the layer paddle.jit.load returns in Paddle 3 (a subclass is not one)."""
    try:
        from paddle.jit.pir_translated_layer import PirTranslatedLayer
    except ImportError:
        return False
    return type(value) is PirTranslatedLayer


def _read_export(prefix):
    with open(prefix + ".json", encoding="utf-8") as handle:
        program = handle.read(MAX_PROGRAM + 1)
    if len(program) > MAX_PROGRAM or os.path.getsize(prefix + ".pdiparams") > MAX_FILES_BYTES:
        raise TooLarge("a model over the size the grader takes")
    with open(prefix + ".pdiparams", "rb") as handle:
        params = base64.b64encode(handle.read()).decode("ascii")
    return {"program": program, "params": params}


def encode_loaded(layer, input_spec=None):
    """A loaded model as {"t": "loaded_model", "program": JSON text, "params": base64}: saved again, with the
    input spec it was loaded with (or ``input_spec``), in a folder of its own."""
    import paddle

    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(layer, prefix, input_spec=input_spec or layer._input_spec())
        return {"t": "loaded_model", **_read_export(prefix)}


def export_of(layer, input_spec):
    """A Layer in its current mode, exported with ``input_spec``: (the same data as ``encode_loaded``,
    the model loaded back from those files)."""
    import paddle

    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(layer, prefix, input_spec=input_spec)
        return {"t": "loaded_model", **_read_export(prefix)}, paddle.jit.load(prefix)


def write_export(data, prefix):
    """The files a loaded model's data describes, written at ``prefix`` (its JSON checked first)."""
    program, params = data["program"], base64.b64decode(data["params"], validate=True)
    if not isinstance(program, str) or len(program) > MAX_PROGRAM or len(params) > MAX_FILES_BYTES:
        raise ValueError("not a model the grader takes")
    json.loads(program)  # JSON first: Paddle's reader is handed nothing else
    with open(prefix + ".json", "w", encoding="utf-8") as handle:
        handle.write(program)
    with open(prefix + ".pdiparams", "wb") as handle:
        handle.write(params)


def decode_loaded(data):
    """The model the data describes, loaded by Paddle from files written in a folder of its own."""
    import paddle

    with tempfile.TemporaryDirectory() as folder:
        prefix = os.path.join(folder, "model")
        write_export(data, prefix)
        return paddle.jit.load(prefix)


def _beside(prefix):
    """{name: path} of the regular files beside ``prefix`` whose names start with its last part."""
    folder, stem = os.path.split(str(prefix))
    if not stem or not os.path.isdir(folder or "."):
        return {}
    found = {}
    for name in os.listdir(folder or "."):
        full = os.path.join(folder or ".", name)
        if name.startswith(stem) and os.path.isfile(full) and not os.path.islink(full):
            found[name[len(stem):]] = full
    return found


def files_at(prefix):
    """The files an answer wrote at ``prefix``, by their endings: {"written": {ending: base64},
    "named": [endings of pickled files, sent by name only]}."""
    written, named, total = {}, [], 0
    for ending, full in sorted(_beside(prefix).items()):
        if ending.endswith(PICKLED):
            named.append(ending)
            continue
        total += os.path.getsize(full)
        if total > MAX_FILES_BYTES:
            raise TooLarge("the files at the path are over the size the grader takes")
        with open(full, "rb") as handle:
            written[ending] = base64.b64encode(handle.read()).decode("ascii")
    return {"written": written, "named": named}


def _ending(ending):
    ending = str(ending)
    if "/" in ending or "\\" in ending or ".." in ending:
        raise ValueError(f"{ending[:60]!r} is not a file name ending")
    return ending


def restore_files(prefix, carried):
    """At the judge's ``prefix``: every file there removed (the solution's), then the student's written."""
    for full in _beside(prefix).values():
        os.remove(full)
    if not isinstance(carried, dict):
        raise ValueError("the files at the path were not reported")
    for ending, data in (carried.get("written") or {}).items():
        with open(str(prefix) + _ending(ending), "wb") as handle:
            if not ending.endswith(PICKLED):   # a forged report may put one here: it stays empty
                handle.write(base64.b64decode(data, validate=True))
    for ending in carried.get("named") or []:
        open(str(prefix) + _ending(ending), "wb").close()
