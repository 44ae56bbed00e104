"""The student's run reports each answer; the judge's run rebuilds it.

``report`` runs in the student's kernel, in a cell the grader adds after each answer cell, and prints one
line: the names the instructor's solution defines, as data (``answers.encode``; a model ``paddle.jit.load``
returned as its files, ``models``; a Layer class as what the tests need of it, ``layer_classes``), the
results of a pure function's calls, and the files the answer wrote at a path (``models.files_at``).
``rebuild`` runs in the judge's kernel, where no student code ever ran, and makes fresh objects from it.
"""
import json

from . import layer_classes, models
from .answers import MARKER, Unsupported, _pir, decode, encode, value_reference


def _answer(namespace, name, names, observe):
    value = namespace[name]
    if name in observe:
        return layer_classes.observe(value, namespace, observe[name], name)
    if type(value) is _pir("Value"):
        return value_reference(value, namespace, names)
    if models.is_loaded_model(value):
        return models.encode_loaded(value)
    return encode(value)


def report(namespace, names, calls, observe=None, files_at=None):
    """Print one line: the answers ``names`` in ``namespace``, the results of ``calls`` and the files at the
    path named ``files_at``.

    ``calls`` maps a function's name to a list of argument lists (tagged JSON, as the grader read them
    from the test cells); each is called once and its result reported. ``observe`` maps a class answer's
    name to what its tests need of it (``layer_classes.observe``). Runs in the student's kernel, inside
    the sandbox.
    """
    observe = observe or {}
    answers = {}
    for name in names:
        if name not in namespace:
            answers[name] = {"missing": True}
            continue
        try:
            answers[name] = {"value": _answer(namespace, name, names, observe)}
        except (Unsupported, models.TooLarge) as why:
            answers[name] = {"unsupported": str(why)}
        except Exception as error:  # a tensor that cannot be read, a model that does not save again, ...
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
    found = {"answers": answers, "calls": results}
    if files_at:
        try:
            found["files"] = models.files_at(namespace[files_at])
        except Exception as error:  # noqa: BLE001 - the path is gone, too large, ...
            found["files"] = {"unsupported": type(error).__name__}
    print(MARKER + json.dumps(found), flush=True)


def rebuild(data, namespace=None):
    """A reported answer as a fresh object of the judge's own (``answers.decode`` and the kinds above)."""
    if data.get("t") == "loaded_model":
        return models.decode_loaded(data)
    if data.get("t") == "layer_class":
        return layer_classes.stand_in(data)
    return decode(data, namespace)
