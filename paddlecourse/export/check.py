"""check_export itself: export, load back and compare at several batch sizes, and name each problem found."""
import os
import re
import tempfile

from ..language import _, ngettext
from .report import ExportReport, Problem, Run, _dims_text, _dtype_text, _is_dynamic, _short
from .steps import (_as_arrays, _compare, _conversion_of, _eager_only, _eval_mode_restored, _float_param_dtype,
                    _make_predictor, _predict, _quietly, default_inputs, error_summary)


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
