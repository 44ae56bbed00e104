"""check_export(): the five-minute export smoke test, as one call and one readable report.

Given a Layer and the InputSpec you mean to deploy with, it does what a careful
engineer does before shipping a model:

1. converts and saves it with ``paddle.jit.save`` into a temporary folder;
2. loads it back with ``paddle.jit.load`` (and into a ``paddle.inference`` predictor);
3. runs eager and exported side by side at several batch sizes, twice each, in
   eval mode, and compares the numbers;
4. reads the input shapes the saved model declares and compares them with the spec;
5. names each problem it finds in plain words, with the fix.

The layer is left as it was: its train/eval mode is restored and nothing is
written outside a ``tempfile.TemporaryDirectory`` that is removed afterwards.
Every problem it reports is reproduced by a model in tests/test_export.py.
"""
import contextlib
import html
import io
import json
import os
import re
import sys
import tempfile
import warnings
from dataclasses import dataclass, field

import numpy as np

from .language import _, ngettext

__all__ = ["check_export", "check_input_spec", "ExportReport", "Problem", "Run", "default_inputs", "error_summary", "saved_input_shapes"]


@dataclass
class Problem:
    """One thing wrong with the export: what happens, and what to change."""

    kind: str  # a short stable label, e.g. "fixed-batch" (tests and graders use it)
    problem: str
    fix: str


@dataclass
class Run:
    """One batch size through one runner (jit.load or the predictor), compared with eager."""

    batch: int
    runner: str
    status: str  # "same", "differs", "error"
    detail: str = ""


@dataclass
class ExportReport:
    """What check_export saw. ``ok`` is True when no problem was found (notes do not count)."""

    conversion: str
    input_spec: list
    saved_spec: list = field(default_factory=list)
    files: dict = field(default_factory=dict)
    runs: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    save_warnings: list = field(default_factory=list)  # what jit.save warned, word for word
    batch_sizes: tuple = ()

    @property
    def ok(self):
        return not self.problems

    @property
    def kinds(self):
        """The labels of the problems found, e.g. {"fixed-batch"}."""
        return {p.kind for p in self.problems}

    def _verdict(self):
        if self.ok:
            return _("PASSED: the exported model matches eager at every batch size tried.")
        count = len(self.problems)
        return ngettext("FAILED: {count} problem found.", "FAILED: {count} problems found.", count).format(count=count)

    def _table(self):
        runners = [r for r in ("jit.load", "predictor") if any(run.runner == r for run in self.runs)]
        rows = []
        for batch in self.batch_sizes:
            cells = []
            for runner in runners:
                run = next((x for x in self.runs if x.batch == batch and x.runner == runner), None)
                cells.append(_run_text(run))
            rows.append((batch, cells))
        return runners, rows

    def __str__(self):
        # Translators: {verdict} is "PASSED: ..." or "FAILED: ..."
        lines = [_("Export check {verdict}").format(verdict=self._verdict())]
        labels = {"converted": _("converted by"), "spec": _("input spec"), "saved": _("saved model expects"),
                  "files": _("files written")}
        width = max(_width(label) for label in labels.values())  # padded to the longest label

        def row(key, value):
            return f"  {_padded(labels[key], width)}: {value}"

        lines.append(row("converted", self.conversion))
        lines.append(row("spec", _specs_text(self.input_spec)))
        if self.saved_spec:
            lines.append(row("saved", _specs_text(self.saved_spec)))
        if self.files:
            lines.append(row("files", ", ".join(sorted(self.files))))
        runners, rows = self._table()
        if rows and runners:
            batch = _("batch")
            lines.append(f"  {_padded(batch, 5)} | " + " | ".join(_padded(r, 28) for r in runners))
            for size, cells in rows:
                lines.append(f"  {_padded(str(size), max(5, _width(batch)), right=True)} | "
                             + " | ".join(_padded(c, 28) for c in cells))
        for number, p in enumerate(self.problems, 1):
            # Translators: {kind} is the problem's stable label in English, e.g. fixed-batch
            lines.append(_("Problem {number} [{kind}]: {problem}").format(number=number, kind=p.kind,
                                                                            problem=p.problem))
            lines.append(_("  Fix: {fix}").format(fix=p.fix))
        for note in self.notes:
            lines.append(_("Note: {note}").format(note=note))
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        esc = html.escape
        colour = "#1a7f37" if self.ok else "#cf222e"
        verdict = _("Export check {verdict}").format(verdict=self._verdict())
        parts = [f"<div class='paddlecourse-export'><p><b style='color:{colour}'>{esc(verdict)}</b></p>",
                 "<table><tr><td>" + esc(_("converted by")) + "</td><td>" + esc(self.conversion) + "</td></tr>",
                 "<tr><td>" + esc(_("input spec")) + "</td><td><code>" + esc(_specs_text(self.input_spec))
                 + "</code></td></tr>"]
        if self.saved_spec:
            parts.append("<tr><td>" + esc(_("saved model expects")) + "</td><td><code>"
                         + esc(_specs_text(self.saved_spec)) + "</code></td></tr>")
        if self.files:
            parts.append("<tr><td>" + esc(_("files written")) + "</td><td>" + esc(", ".join(sorted(self.files)))
                         + "</td></tr>")
        parts.append("</table>")
        runners, rows = self._table()
        if rows and runners:
            # Translators: a column head of the export table; {runner} is jit.load or predictor
            heads = [_("{runner} vs eager").format(runner=r) for r in runners]
            head = "".join(f"<th>{esc(h)}</th>" for h in heads)
            body = "".join("<tr><td>" + str(b) + "</td>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>"
                           for b, cells in rows)
            parts.append("<table><tr><th>" + esc(_("batch")) + f"</th>{head}</tr>{body}</table>")
        if self.problems:
            fixes = [_("Fix: {fix}").format(fix=p.fix) for p in self.problems]
            items = "".join(f"<li><b>{esc(p.problem)}</b><br>{esc(fix)}</li>" for p, fix in zip(self.problems, fixes))
            parts.append(f"<ol>{items}</ol>")
        if self.notes:
            notes = [_("Note: {note}").format(note=n) for n in self.notes]
            parts.append("<ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
        parts.append("</div>")
        return "".join(parts)


# ---------------------------------------------------------------- small helpers

def _width(text):
    """How many columns ``text`` takes in a terminal or a <pre>: a Chinese character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _padded(text, width, right=False):
    space = " " * max(0, width - _width(text))
    return space + text if right else text + space


def _run_text(run):
    if run is None:
        return "-"
    if run.status == "same":
        return _("✓ same")
    if run.status == "differs":
        # Translators: {detail} says how, e.g. "max |diff| 0.3"
        return _("✗ differs ({detail})").format(detail=run.detail)
    return _("✗ error")


def _dims_text(shape):
    return "[" + ", ".join("None" if d is None or d == -1 else str(int(d)) for d in shape) + "]"


def _dtype_text(dtype):
    return str(dtype).replace("paddle.", "")


def _specs_text(specs):
    if not specs:
        return _("(none)")
    return ", ".join(f"{_dims_text(s.shape)} {_dtype_text(s.dtype)}" for s in specs)


def _short(obj, limit=40):
    text = " ".join(repr(obj).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_dynamic(dim):
    return dim is None or int(dim) < 0


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
    from .errors import error_message

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


# ---------------------------------------------------------------- the check

def check_export(layer, input_spec, batch_sizes=(1, 3, 8), *, make_inputs=None, predictor=True,
                 rtol=1e-5, atol=1e-5):
    """Export ``layer`` with ``input_spec``, load it back, compare with eager; return an ExportReport.

    ``layer``: a ``paddle.nn.Layer``, plain or already converted with ``paddle.jit.to_static``
    (it is exported as it is, so a default-mode (SOT) conversion shows its own behaviour).
    ``input_spec``: a list of ``paddle.static.InputSpec`` (one InputSpec alone is accepted too).
    ``batch_sizes``: the batch sizes to try; put your deployment batch size in it.
    ``make_inputs``: optional ``function(batch) -> list of numpy arrays`` (default: random ones
    that fit the spec); use it to reach every branch of tensor-dependent control flow.
    ``predictor``: also load the files into a ``paddle.inference`` predictor and compare.
    """
    import paddle
    from paddle.static import InputSpec

    if isinstance(input_spec, InputSpec) or input_spec is InputSpec:
        input_spec = [input_spec]
    not_specs = [s for s in (input_spec or []) if not isinstance(s, InputSpec)]
    if not_specs:
        conversion_kind, conversion = _conversion_of(layer)
        report = ExportReport(conversion=conversion, input_spec=[], batch_sizes=tuple(batch_sizes))
        wrong = not_specs[0]
        if wrong is InputSpec:
            problem = _("The input spec holds the class InputSpec itself, not an InputSpec made from it.")
        else:
            problem = _("The input spec holds a {type} ({value}), not an InputSpec.").format(
                type=type(wrong).__name__, value=_short(wrong))
        report.problems.append(Problem(
            "not-a-spec", problem,
            _("Describe each input by calling InputSpec with a shape and a dtype: "
              "input_spec=[InputSpec([None, 784], 'float32', 'x')], with None for the batch dimension.")))
        return report
    conversion_kind, conversion = _conversion_of(layer)
    report = ExportReport(conversion=conversion, input_spec=list(input_spec or []),
                          batch_sizes=tuple(batch_sizes))
    if not isinstance(layer, paddle.nn.Layer):
        report.problems.append(Problem(
            "not-a-layer", _("check_export needs a paddle.nn.Layer; it was given a {type}.").format(
                type=type(layer).__name__),
            _("Wrap the function in a Layer whose forward() calls it, then export the Layer.")))
        return report
    if not input_spec:
        report.problems.append(Problem(
            "no-input-spec",
            # Translators: keep Paddle's own words 'No valid transformed program' in English: they are what it prints
            _("No input spec was given, so Paddle cannot know the shape and dtype of the inputs to export "
              "(jit.save on an untraced layer fails with 'No valid transformed program')."),
            _("Describe every input: input_spec=[InputSpec([None, 784], 'float32', 'x')], "
              "with None for the batch dimension.")))
        return report

    make_inputs_is_default = make_inputs is None
    make_inputs = make_inputs or (lambda batch: default_inputs(input_spec, batch))
    rng_state = paddle.get_rng_state()  # the check must not shift the learner's random numbers
    try:
        return _check(layer, input_spec, tuple(batch_sizes), make_inputs, predictor, rtol, atol, report,
                      conversion_kind, make_inputs_is_default)
    finally:
        paddle.set_rng_state(rng_state)


def _check(layer, input_spec, batch_sizes, make_inputs, predictor, rtol, atol, report, conversion_kind,
           make_inputs_is_default=True):
    import paddle

    fixed_batch = [s for s in input_spec if s.shape and not _is_dynamic(s.shape[0])]

    with _eval_mode_restored(layer) as was_training, tempfile.TemporaryDirectory(prefix="export-check-") as folder:
        if was_training:
            report.notes.append(_(
                "The layer was in train() mode. The check ran it in eval() mode and put it back in train() "
                "mode afterwards. In Paddle 3.3.1 jit.save exports inference behaviour anyway (Dropout off, "
                "BatchNorm on running statistics), but in Python a layer in train() mode gives different "
                "numbers from the exported model. Call layer.eval() before export and before comparing."))

        # 1. dtype of the spec against the weights. Every input is named; the rest of the check then
        #    goes on with the weights' dtype, so the report lists the other problems too.
        weights = _float_param_dtype(layer)
        mismatched = [s for s in input_spec if weights and _dtype_text(s.dtype).startswith("float")
                      and _dtype_text(s.dtype) != weights]
        if mismatched:
            from paddle.static import InputSpec

            said = sorted({_dtype_text(s.dtype) for s in mismatched})
            fixes = ", ".join(f"InputSpec({_dims_text([None] + list(s.shape[1:]) if s.shape else s.shape)}, "
                              f"'{weights}', ...)" for s in mismatched)
            said_text = _(" and ").join(said)
            report.problems.append(Problem(
                "dtype",
                ngettext("The input spec says {dtypes} for {wrong} of {total} input but the layer's weights are "
                         "{weights} (InputSpec.from_numpy on NumPy's default float64 arrays gives this): the exported "
                         "model then mixes {dtypes} inputs with {weights} weights and fails when it runs. The rest "
                         "of this check ran with {weights} inputs.",
                         "The input spec says {dtypes} for {wrong} of {total} inputs but the layer's weights are "
                         "{weights} (InputSpec.from_numpy on NumPy's default float64 arrays gives this): the exported "
                         "model then mixes {dtypes} inputs with {weights} weights and fails when it runs. The rest "
                         "of this check ran with {weights} inputs.", len(input_spec)).format(
                    dtypes=said_text, wrong=len(mismatched), total=len(input_spec), weights=weights),
                (_("Declare each input as {weights}: {fixes}, and feed {weights} arrays (array.astype('{weights}')) "
                   "to the exported model.") if len(mismatched) > 1 else
                 _("Declare the input as {weights}: {fixes}, and feed {weights} arrays (array.astype('{weights}')) "
                   "to the exported model.")).format(weights=weights, fixes=fixes)))
            input_spec = [InputSpec(s.shape, weights if any(s is m for m in mismatched) else s.dtype, s.name) for s in input_spec]
            if make_inputs_is_default:
                make_inputs = lambda batch: default_inputs(input_spec, batch)  # noqa: E731

        # 2. eager reference, and is the layer deterministic in eval mode?
        eager = {}
        try:
            with _eager_only(), paddle.no_grad():
                for batch in batch_sizes:
                    tensors = [paddle.to_tensor(a) for a in make_inputs(batch)]
                    eager[batch] = _as_arrays(_quietly(layer, *tensors))
                again = _as_arrays(_quietly(layer, *[paddle.to_tensor(a) for a in make_inputs(batch_sizes[0])]))
        except Exception as error:  # nothing to compare with: say so, and stop here
            report.problems.append(Problem(  # a wrong dtype was put right above: this is another problem
                "eager-failed",
                # Translators: {error} is Paddle's own error (English)
                _("The layer fails in plain Python on inputs that fit the spec: {error}").format(
                    error=error_summary(error)),
                _("Make the eager model run on an input built from the spec first (check shapes and dtypes), "
                  "then export it.")))
            return report
        eager_random = _compare(again, eager[batch_sizes[0]], 0, 0)[0] != "same"
        if eager_random:
            report.problems.append(Problem(
                "random-in-eval",
                _("In eval() mode the eager layer gives different outputs for the same input, so its forward "
                  "still draws random numbers. The usual cause is paddle.nn.functional.dropout(x, p) without "
                  "training=...: it defaults to training=True, ignores eval(), and the exported model (which "
                  "turns dropout off) then disagrees with what you tested in Python."),
                _("Use the layer nn.Dropout(p) (it follows train()/eval()), or pass "
                  "training=self.training to F.dropout. Keep random draws out of forward() at inference.")))

        # 3. save
        prefix = os.path.join(folder, "model")
        try:
            _quietly(paddle.jit.save, layer, prefix, input_spec, warned=report.save_warnings)
        except Exception as error:  # the report must say why, not crash
            report.problems.append(_save_problem(error))
            return report
        report.files = {name: os.path.getsize(os.path.join(folder, name)) for name in sorted(os.listdir(folder))}

        # 4. load back, read the declared input shapes
        try:
            loaded = _quietly(paddle.jit.load, prefix)
        except Exception as error:
            report.problems.append(Problem(
                "load-failed", _("jit.load could not read the saved files: {error}").format(error=error_summary(error)),
                _("Save and load with the same Paddle version; check that both model.json and model.pdiparams "
                  "exist.")))
            return report
        try:
            report.saved_spec = list(loaded._input_spec())
        except Exception:  # a private API: the check still works without it
            report.saved_spec = []
        specialised = [
            (given, saved) for given, saved in zip(input_spec, report.saved_spec)
            if any(_is_dynamic(g) and not _is_dynamic(s) for g, s in zip(given.shape, saved.shape))
        ]

        runners = [("jit.load", lambda arrays: _as_arrays(loaded(*[paddle.to_tensor(a) for a in arrays])))]
        if predictor:
            try:
                engine = _quietly(_make_predictor, prefix)
                runners.append(("predictor", lambda arrays: _predict(engine, arrays)))
            except Exception as error:
                report.notes.append(_("The inference predictor could not load the files: {error}").format(
                    error=error_summary(error)))

        # 5. run every batch size through every runner
        first_error = {}
        exported_random = False
        for batch in batch_sizes:
            for runner, run in runners:
                arrays = make_inputs(batch)
                try:
                    with paddle.no_grad():
                        found = _quietly(run, arrays)
                        if batch == batch_sizes[0]:
                            exported_random |= _compare(_quietly(run, arrays), found, 0, 0)[0] != "same"
                except Exception as error:
                    report.runs.append(Run(batch, runner, "error", error_summary(error)))
                    first_error.setdefault(batch, error_summary(error))
                    continue
                status, detail = _compare(found, eager[batch], rtol, atol)
                report.runs.append(Run(batch, runner, status, detail))

    _diagnose(report, specialised, fixed_batch, conversion_kind, eager_random, exported_random, first_error)
    return report


def _save_problem(error):
    text = str(error)
    if "only can be called by" in text and "dynamic graph mode" in text:
        call = re.search(r"'(\w+)' only can be called", text)
        name = call.group(1) if call else "numpy"
        return Problem(
            "python-value",
            _("Export failed: some code asks a tensor for its Python value (.{method}()) while the graph is being "
              "built, when there are no values yet. Code the converter skips (a function marked "
              "@paddle.jit.not_to_static, or a library outside your project) runs on symbolic values and fails "
              "this way; the default SOT mode hides it when you call the model, because it falls back to "
              "Python.").format(method=name),
            _("Write that step with paddle operations (paddle.tanh(t) instead of np.tanh(t.numpy())) so it "
              "becomes part of the graph. not_to_static does not make such code exportable: it only stops "
              "conversion."))
    return Problem(
        "export-failed", _("jit.save failed: {error}").format(error=error_summary(error)),
        _("Export the plain layer with paddle.jit.save(layer, path, input_spec=[...]) (or to_static with "
          "full_graph=True) and read the first error line: it names the Python line the converter could not "
          "handle."))


def _ignored_spec_warning(save_warnings):
    """jit.save's one sign that it ignored the spec, quoted, if it gave it."""
    said = next((w for w in save_warnings if "does not exists" in w), None)
    # Translators: put after another sentence, with its leading space; {warning} is Paddle's own words (English)
    return _(" jit.save said so in a warning: \"{warning}\"").format(warning=" ".join(said.split())) if said else ""


def _diagnose(report, specialised, fixed_batch, conversion_kind, eager_random, exported_random, first_error):
    bad = [r for r in report.runs if r.status != "same"]
    bad_batches = sorted({r.batch for r in bad})
    explained = False
    if specialised:
        given, saved = specialised[0]
        if bad_batches:
            problem = _("The spec asks for {given}, but the saved model declares {saved}: the layer was converted in "
                        "the default mode (SOT) and called before export, and jit.save kept the shapes of the last "
                        "call, so at other batch sizes it gives wrong numbers or fails.")
        else:
            problem = _("The spec asks for {given}, but the saved model declares {saved}: the layer was converted in "
                        "the default mode (SOT) and called before export, and jit.save kept the shapes of the last "
                        "call (this model happens to run at other batch sizes, but the declared shape is what "
                        "deployment tools trust).")
        report.problems.append(Problem(
            "sot-specialised",
            problem.format(given=_dims_text(given.shape), saved=_dims_text(saved.shape))
            + _ignored_spec_warning(report.save_warnings),
            _("Export with full-graph conversion: paddle.jit.to_static(layer, input_spec=[...], full_graph=True), "
              "or save the plain (unconverted) layer with paddle.jit.save(layer, path, input_spec=[...]).")))
        explained = True
    elif fixed_batch and bad_batches:
        spec = fixed_batch[0]
        fixed = int(spec.shape[0])
        failing = [b for b in bad_batches if b != fixed] or bad_batches
        why = next((first_error[b] for b in failing if b in first_error), "")
        report.problems.append(Problem(
            "fixed-batch",
            _("The spec fixes the batch size at {batch} ({shape}), and the saved model fails or gives different "
              "numbers at batch {failing}. The batch size was baked into the graph as a constant wherever the "
              "model uses it (a reshape, a zeros(...) of that shape).").format(
                batch=fixed, shape=_dims_text(spec.shape), failing=", ".join(map(str, failing)))
            # Translators: put after another sentence, with its leading space; {error} is Paddle's own (English)
            + (_(" Paddle says: {error}").format(error=why) if why else ""),
            _("Write None for the batch dimension: InputSpec({shape}, '{dtype}', ...).").format(
                # a float64 spec is told apart; the fix names the model's dtype, not the spec's
                shape=_dims_text([None] + list(spec.shape[1:])),
                dtype="float32" if any(p.kind == "dtype" for p in report.problems) else _dtype_text(spec.dtype))))
        explained = True
    elif fixed_batch:
        spec = fixed_batch[0]
        report.notes.append(_(
            "The spec fixes the batch size at {batch}. This model still ran at every batch size tried, "
            "but the saved model declares that fixed size, and a model that uses its batch size (a reshape) would "
            "fail. Prefer None for the batch dimension.").format(batch=int(spec.shape[0])))
    if eager_random:
        explained = True
    if exported_random:
        report.problems.append(Problem(
            "random-export",
            _("The exported model gives different outputs for the same input: something random stays in the "
              "inference graph."),
            _("Take random draws (noise, sampling) out of forward() for inference, or guard them with "
              "`if self.training:`.")))
        explained = True
    if bad_batches and not explained:
        errors = [r for r in bad if r.status == "error"]
        if errors:
            # Translators: {error} is Paddle's own error (English)
            problem = _("The exported model fails at batch {batches} ({error}).").format(
                batches=", ".join(str(r.batch) for r in errors[:3]), error=errors[0].detail)
        else:
            problem = _("The exported model gives different numbers from eager at batch {batches}.").format(
                batches=", ".join(map(str, bad_batches)))
        report.problems.append(Problem(
            "mismatch", problem,
            _("Look for Python code in forward() that reads a shape or a value and keeps it as a constant. "
              "Test with inputs that take every branch (make_inputs=...), and export with full_graph=True.")))
    if conversion_kind == "sot" and not specialised:
        report.notes.append(_(
            "The layer was converted with to_static in the default mode (SOT). It exported correctly here, "
            "but SOT keeps the shapes of the last call when it has been called before export; "
            "full_graph=True is the safer way to export."))


# ---------------------------------------------------------------- checking a learner's InputSpec

def check_input_spec(name, found, features, dtype="float32", *, list_required=True):
    """Pass when ``found`` is ``[InputSpec([None, *features], dtype, ...)]``; otherwise one sentence that says what to change.

    ``features``: the dimensions after the batch, e.g. ``[784]``. With ``list_required=False`` one
    InputSpec without a list passes too. The mistakes named: no answer yet, the class ``InputSpec``
    itself, a shape instead of an InputSpec, a spec not in a list, a fixed batch size (the mistake
    lesson 06 warns about), other dimensions, a dtype that is not the weights'.
    """
    from .checks.failure import CheckFailed, _learner_facing, _passed, _require_answer

    @_learner_facing
    def check(name, found):
        from paddle.static import InputSpec

        _require_answer(name, found)
        wanted = f"InputSpec({_dims_text([None] + list(features))}, '{dtype}', 'x')"
        in_list = f"[{wanted}]" if list_required else wanted
        items = list(found) if isinstance(found, (list, tuple)) else [found]
        if any(item is InputSpec for item in items):
            raise CheckFailed(_("`{name}` holds the class InputSpec itself, not an InputSpec made from it: call it "
                                "with a shape and a dtype, {answer}.").format(name=name, answer=in_list))
        if isinstance(found, (list, tuple)) and found and all(isinstance(d, (int, type(None))) for d in found):
            raise CheckFailed(_("`{name}` is a shape ({shape}), not an InputSpec: wrap the shape in an "
                                "InputSpec, {answer}.").format(name=name, shape=_short(list(found)), answer=in_list))
        if isinstance(found, InputSpec) and list_required:
            raise CheckFailed(_("`{name}` is one InputSpec; input_spec takes a list of them: put it in square "
                                "brackets, {answer}.").format(name=name, answer=in_list))
        if not isinstance(found, (list, tuple, InputSpec)):
            raise CheckFailed(_("`{name}` is a {type}, not a list with one InputSpec: write {answer}.").format(
                name=name, type=type(found).__name__, answer=in_list))
        if len(items) != 1 or not isinstance(items[0], InputSpec):
            if len(items) != 1:
                message = _("`{name}` holds {count} items; the model has one input, so it needs exactly one "
                            "InputSpec: {answer}.")
            else:
                message = _("`{name}` holds a {type}; the model has one input, so it needs exactly one "
                            "InputSpec: {answer}.")
            raise CheckFailed(message.format(name=name, count=len(items), type=type(items[0]).__name__ if items else "",
                                             answer=in_list))
        spec = items[0]
        shape = list(spec.shape)
        problems = []
        # Translators: the three parts of "`{name}`: {problems}. Write {answer}.", joined by "; "
        if len(shape) == len(features):
            problems.append(_("it has no batch dimension ({shape}): put None in front of the {count} feature "
                              "dimension(s)").format(shape=_dims_text(shape), count=len(features)))
        elif shape and not _is_dynamic(shape[0]):
            problems.append(_("it fixes the batch size at {batch} ({shape}), which the export "
                              "bakes in: write None for the batch dimension").format(batch=int(shape[0]),
                                                                                     shape=_dims_text(shape)))
        if len(shape) != len(features) and [int(d) if not _is_dynamic(d) else None for d in shape[1:]] != list(features):
            # Translators: {wanted} is a shape whose first dimension is the word "batch", e.g. [batch, 784]
            problems.append(_("it describes {shape} but the model takes {wanted}").format(
                shape=_dims_text(shape),
                wanted=_dims_text([None] + list(features)).replace("None", _("batch"), 1)))
        if _dtype_text(spec.dtype) != dtype:
            problems.append(_("its dtype is {dtype} but the model's weights are {weights}").format(
                dtype=_dtype_text(spec.dtype), weights=dtype))
        if problems:
            raise CheckFailed(_("`{name}`: {problems}. Write {answer}.").format(
                name=name, problems=_("; ").join(problems), answer=in_list))
        _passed(name, f"{_dims_text(shape)} {_dtype_text(spec.dtype)}")

    return check(name, found)
