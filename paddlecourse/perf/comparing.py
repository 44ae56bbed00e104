"""Comparing the modes on a model, at several batch sizes: one table of medians and ratios."""
import tempfile
from dataclasses import dataclass, field

import numpy as np

from ..language import _, N_, translate
from .contenders import INFERENCE_MODES, TRAINING_MODES, _in_features, inference_calls, training_steps
from .timing import QUICK, SPREAD_MARK, Settings, spread_note, time_interleaved, too_spread


@dataclass(frozen=True)
class Row:
    """One measured cell: a model, a task, a batch size and a mode."""

    model: str
    task: str  # "inference" or "training"
    batch: int
    mode: str
    median_ms: float
    low_ms: float
    high_ms: float
    speedup: float  # median over rounds of eager time / this time
    speedup_low: float
    speedup_high: float
    max_diff: float  # largest |output - eager output| (inference) or |first loss - eager's| (training)


@dataclass
class Comparison:
    """Rows of measurements, with the settings that produced them."""

    settings: Settings
    rows: list = field(default_factory=list)

    def __add__(self, other):
        return Comparison(self.settings, self.rows + other.rows)

    @property
    def models(self):
        return list(dict.fromkeys(r.model for r in self.rows))

    @property
    def tasks(self):
        return list(dict.fromkeys(r.task for r in self.rows))

    def modes(self, task=None):
        return list(dict.fromkeys(r.mode for r in self.rows if task in (None, r.task)))

    def batch_sizes(self, task=None):
        return sorted({r.batch for r in self.rows if task in (None, r.task)})

    def select(self, **where):
        return [r for r in self.rows if all(getattr(r, k) == v for k, v in where.items())]

    def speedup(self, model, task, batch, mode):
        (row,) = self.select(model=model, task=task, batch=batch, mode=mode)
        return row.speedup

    def table(self):
        """A plain-text table: time per call and speed-up over eager, each with its round range.

        Every column is as wide as its widest entry, so no value is cut and the columns line up
        whatever the machine measured (0.05 ms or 1234 ms). A speed-up whose range is too spread to
        conclude from (:func:`too_spread`) gets a mark after it, and the table ends with what it means.
        """
        # Translators: the benchmark table's column heads
        heads = (_("model"), _("task"), _("batch"), _("mode"), _("ms per call [range]"),
                 _("speed-up vs eager [range]"), "")
        right = (False, False, True, False, True, True, False)
        cells = []
        for r in self.rows:
            cells.append((translate(r.model), _(r.task), str(r.batch), r.mode,
                          f"{r.median_ms:.3f} [{r.low_ms:.3f}-{r.high_ms:.3f}]",
                          f"{r.speedup:.2f}x [{r.speedup_low:.2f}-{r.speedup_high:.2f}]",
                          SPREAD_MARK if too_spread(r.speedup_low, r.speedup_high) else ""))
        widths = [max([_width(h)] + [_width(c[i]) for c in cells]) for i, h in enumerate(heads)]

        def line(values):
            padded = [(" " * (w - _width(v)) + v) if r else (v + " " * (w - _width(v)))
                      for v, w, r in zip(values, widths, right)]
            return "  ".join(padded).rstrip()

        header = line(heads)
        lines = [header, "-" * _width(header)] + [line(c) for c in cells]
        s = self.settings
        lines.append(_("({rounds} interleaved rounds x {calls} calls after {warmup} warm-up calls; "
                       "median of round means)").format(rounds=s.rounds, calls=s.calls, warmup=s.warmup))
        if any(c[-1] for c in cells):
            lines.append(spread_note())
        return "\n".join(lines)

    def __str__(self):
        return self.table()

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.table())


# Translators: a benchmark's task, in its table and plot
TASKS = (N_("inference"), N_("training"))


def _width(text):
    """Columns ``text`` takes in a <pre>: a Chinese character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _rows_from(timings, model, task, batch, baseline, diffs):
    rows = []
    for name in timings.names:
        low, high = timings.low_high(name)
        ratio, (ratio_low, ratio_high) = timings.speedup(name, baseline)
        rows.append(Row(model, task, batch, name, timings.median(name) * 1e3, low * 1e3, high * 1e3,
                        ratio, ratio_low, ratio_high, diffs.get(name, 0.0)))
    return rows


def _example_data(batch, in_features, classes, seed):
    rng = np.random.RandomState(seed + batch)
    x = rng.randn(batch, in_features).astype("float32")
    y = rng.randint(0, classes, size=(batch,)).astype("int64")
    return x, y


def compare_inference(models, settings=QUICK, modes=INFERENCE_MODES):
    """Time inference of each model in each mode at each batch size; returns a :class:`Comparison`.

    ``models`` maps a name to a Layer. "eager" is always included as the baseline.
    Every mode's output is compared with eager's (``max_diff``) before timing.
    """
    modes = ("eager",) + tuple(m for m in modes if m != "eager")
    result = Comparison(settings)
    for model_name, layer in models.items():
        with tempfile.TemporaryDirectory(prefix="paddlecourse-perf-") as folder:
            in_features = _in_features(layer)
            calls = inference_calls(layer, modes, in_features=in_features, folder=folder)
            for batch in settings.batch_sizes:
                x, _labels = _example_data(batch, in_features, 10, settings.seed)
                reference = calls["eager"](x)
                diffs = {m: float(np.abs(call(x) - reference).max()) for m, call in calls.items()}
                contenders = {m: (lambda call=call: call(x)) for m, call in calls.items()}
                timings = time_interleaved(contenders, settings.rounds, settings.calls, settings.warmup)
                result.rows += _rows_from(timings, model_name, "inference", batch, "eager", diffs)
            del calls  # release the predictors before their files go
    return result


def compare_training(models, settings=QUICK, batch_sizes=None, modes=TRAINING_MODES, classes=10):
    """Time one training step (Adam, loss fetched every step) per mode and batch size.

    Batch size 1 is skipped unless asked for (nobody trains at batch 1).
    ``max_diff`` is how far each mode's first loss is from eager's, from the same weights.
    """
    modes = ("eager",) + tuple(m for m in modes if m != "eager")
    batch_sizes = batch_sizes or tuple(b for b in settings.batch_sizes if b > 1)
    result = Comparison(settings)
    for model_name, layer in models.items():
        in_features = _in_features(layer)
        for batch in batch_sizes:
            steps = training_steps(layer, modes, in_features=in_features)  # fresh copies per batch size
            x, y = _example_data(batch, in_features, classes, settings.seed)
            first = {m: step(x, y) for m, step in steps.items()}
            diffs = {m: abs(loss - first["eager"]) for m, loss in first.items()}
            contenders = {m: (lambda step=step: step(x, y)) for m, step in steps.items()}
            timings = time_interleaved(contenders, settings.rounds, settings.calls, settings.warmup)
            result.rows += _rows_from(timings, model_name, "training", batch, "eager", diffs)
    return result
