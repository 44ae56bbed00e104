"""Benchmark harness: is static faster *for this model, on this machine*? Measure, fairly.

Lesson 07 uses it. Fair here means:

- **warm-up**: every contender is called untimed first (first calls build
  caches, trace programs, pick kernels);
- **repeated rounds, medians and spread**: each round times many calls and keeps
  their mean; a result is the median of the round means, with the lowest and
  highest round beside it, so one noisy round cannot decide anything;
- **interleaved**: every round times every contender, in an order that rotates
  from round to round, so a machine that slows down (another program, heat)
  slows all contenders alike, and ratios are taken *within* a round;
- **training and inference measured separately**, numpy in and numpy out, so
  every mode pays for getting data in and results out.

The core is :func:`time_interleaved` (any callables). On top of it,
:func:`compare_inference` and :func:`compare_training` time one Layer in
several modes at several batch sizes; :func:`plot_speedups` draws the ratios.
Models are exported into a temporary folder that is deleted afterwards.
"""
import copy
import os
import tempfile
import time
from dataclasses import dataclass, field
from statistics import median

import numpy as np

from .language import _, N_, translate

INFERENCE_MODES = ("eager", "to_static", "jit.load", "predictor")
PREDICTOR_VARIANTS = ("predictor", "predictor (no IR passes)", "predictor (no oneDNN)")
TRAINING_MODES = ("eager", "to_static")


@dataclass(frozen=True)
class Settings:
    """How long to measure. More rounds and calls: narrower spread, longer wait."""

    rounds: int = 5  # interleaved rounds; the median is taken over these
    calls: int = 20  # timed calls of each contender per round
    warmup: int = 5  # untimed calls of each contender before round 1
    batch_sizes: tuple = (1, 64, 256)
    seed: int = 0


QUICK = Settings()  # the lesson's default: a few seconds per model on one CPU
PRECISE = Settings(rounds=9, calls=100, warmup=30)  # minutes; for a quiet machine and a real decision


# ---------------------------------------------------------------- timing any callables

def rotated_orders(names, rounds):
    """The order contenders run in, per round: round r starts at contender r (mod n).

    Over n rounds every contender runs once in every position, so "who runs
    first in a round" does not favour anyone.
    """
    names = list(names)
    n = len(names)
    return [names[r % n:] + names[: r % n] for r in range(rounds)]


@dataclass
class Timings:
    """Seconds per call, one number per round (the mean of that round's calls), per contender."""

    seconds: dict = field(default_factory=dict)  # name -> [round mean, ...]
    orders: list = field(default_factory=list)  # the order of each round

    @property
    def names(self):
        return list(self.seconds)

    def median(self, name):
        """Median over rounds of the mean time per call, in seconds."""
        return median(self.seconds[name])

    def low_high(self, name):
        """Fastest and slowest round mean, in seconds."""
        values = self.seconds[name]
        return min(values), max(values)

    def spread(self, name):
        """(slowest - fastest round) / median: 0.1 means the rounds disagreed by 10 %."""
        low, high = self.low_high(name)
        return (high - low) / self.median(name)

    def round_ratios(self, name, baseline):
        """Per round: baseline time / this contender's time (above 1 = faster than baseline)."""
        return [b / t for b, t in zip(self.seconds[baseline], self.seconds[name])]

    def speedup(self, name, baseline):
        """Median over rounds of baseline time / this time, and its (low, high) over rounds."""
        ratios = self.round_ratios(name, baseline)
        return median(ratios), (min(ratios), max(ratios))


def time_interleaved(contenders, rounds=5, calls=20, warmup=5, clock=time.perf_counter):
    """Time several zero-argument callables fairly; return :class:`Timings`.

    ``contenders`` maps a name to a callable. Each is called ``warmup`` times
    untimed; then, for each of ``rounds`` rounds, in a rotating order, each is
    called ``calls`` times back to back and the mean time per call is kept.
    """
    if rounds < 1 or calls < 1 or warmup < 0:
        raise ValueError(_("rounds and calls must be at least 1, warmup at least 0"))
    if not contenders:
        raise ValueError(_("nothing to time: give at least one contender"))
    for run in contenders.values():
        for _call in range(warmup):
            run()
    timings = Timings(seconds={name: [] for name in contenders})
    for order in rotated_orders(contenders, rounds):
        timings.orders.append(order)
        for name in order:
            run = contenders[name]
            start = clock()
            for _call in range(calls):
                run()
            timings.seconds[name].append((clock() - start) / calls)
    return timings


# ---------------------------------------------------------------- the two course models

def wide_shallow_mlp(in_features=784, hidden=256, classes=10):
    """784-256-10: two big Linear layers, few ops (the seed articles' MLP)."""
    import paddle.nn as nn

    return nn.Sequential(nn.Linear(in_features, hidden), nn.ReLU(), nn.Linear(hidden, classes))


def deep_narrow_mlp(in_features=784, width=64, linear_layers=20, classes=10):
    """784-64x19-10: 20 small Linear layers and 19 ReLUs, many small ops."""
    import paddle.nn as nn

    layers = [nn.Linear(in_features, width), nn.ReLU()]
    for _layer in range(linear_layers - 2):
        layers += [nn.Linear(width, width), nn.ReLU()]
    layers.append(nn.Linear(width, classes))
    return nn.Sequential(*layers)


def _in_features(layer):
    for parameter in layer.parameters():
        if len(parameter.shape) == 2:
            return int(parameter.shape[0])  # Paddle's Linear weight is [in, out]
    raise ValueError(_("could not find the input width: give in_features=..."))


def _static_copy(layer, in_features, train):
    """A to_static copy of ``layer`` with the same weights (to_static changes the layer it is given)."""
    import paddle
    from paddle.static import InputSpec

    twin = copy.deepcopy(layer)
    if train:
        twin.train()
    else:
        twin.eval()
    spec = [InputSpec([None, in_features], "float32", name="x")]
    return paddle.jit.to_static(twin, input_spec=spec, full_graph=True)


def make_predictor(prefix, threads=1, ir_optim=True, onednn=True):
    """A ``paddle.inference`` predictor for ``prefix.json`` + ``prefix.pdiparams``, with its log lines off."""
    import paddle.inference as inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.switch_ir_optim(ir_optim)
    config.set_cpu_math_library_num_threads(threads)
    if not onednn:
        config.disable_onednn()
    config.disable_glog_info()  # else every pass prints a "--- Running PIR pass" line
    return inference.create_predictor(config)


def _predictor_call(predictor):
    input_handle = predictor.get_input_handle(predictor.get_input_names()[0])
    output_handle = predictor.get_output_handle(predictor.get_output_names()[0])

    def call(x):
        input_handle.reshape(list(x.shape))
        input_handle.copy_from_cpu(x)
        predictor.run()
        return output_handle.copy_to_cpu()

    return call


def inference_calls(layer, modes=INFERENCE_MODES, in_features=None, folder=None):
    """numpy in -> numpy out callables, one per mode, all with ``layer``'s weights.

    Modes: "eager", "to_static", "jit.load", and the predictor variants in
    PREDICTOR_VARIANTS. Exported files go to ``folder`` (a fresh temporary
    folder when None; the caller deletes it).
    """
    import paddle

    unknown = set(modes) - set(INFERENCE_MODES) - set(PREDICTOR_VARIANTS)
    if unknown:
        raise ValueError(_("unknown modes {modes}; choose from {known}").format(
            modes=sorted(unknown), known=INFERENCE_MODES + PREDICTOR_VARIANTS[1:]))
    in_features = in_features or _in_features(layer)
    layer.eval()
    calls = {}

    def eager_call(model):
        def call(x):
            with paddle.no_grad():
                return model(paddle.to_tensor(x)).numpy()

        return call

    needs_export = any(m != "eager" for m in modes)
    static_layer = _static_copy(layer, in_features, train=False) if needs_export else None
    prefix = None
    if any(m == "jit.load" or m.startswith("predictor") for m in modes):
        folder = folder or tempfile.mkdtemp(prefix="paddlecourse-perf-")
        prefix = os.path.join(folder, "model")
        paddle.jit.save(static_layer, prefix)
    for mode in modes:
        if mode == "eager":
            calls[mode] = eager_call(layer)
        elif mode == "to_static":
            calls[mode] = eager_call(static_layer)
        elif mode == "jit.load":
            loaded = paddle.jit.load(prefix)
            loaded.eval()
            calls[mode] = eager_call(loaded)
        else:
            predictor = make_predictor(prefix, ir_optim=mode != "predictor (no IR passes)",
                                       onednn=mode != "predictor (no oneDNN)")
            calls[mode] = _predictor_call(predictor)
    return calls


def training_steps(layer, modes=TRAINING_MODES, in_features=None, learning_rate=1e-3):
    """One training step per mode (forward, cross-entropy, backward, Adam step, loss to Python).

    Each mode trains its own copy of ``layer``, starting from the same weights.
    Returns {mode: step(x, y) -> float loss}.
    """
    import paddle
    import paddle.nn.functional as F

    unknown = set(modes) - set(TRAINING_MODES)
    if unknown:
        raise ValueError(_("unknown training modes {modes}; choose from {known}").format(
            modes=sorted(unknown), known=TRAINING_MODES))
    in_features = in_features or _in_features(layer)
    steps = {}
    for mode in modes:
        if mode == "eager":
            model = copy.deepcopy(layer)
            model.train()
        else:
            model = _static_copy(layer, in_features, train=True)
        optimizer = paddle.optimizer.Adam(learning_rate=learning_rate, parameters=model.parameters())

        def step(x, y, model=model, optimizer=optimizer):
            loss = F.cross_entropy(model(paddle.to_tensor(x)), paddle.to_tensor(y)).mean()
            loss.backward()
            optimizer.step()
            optimizer.clear_grad()
            return float(loss)

        steps[mode] = step
    return steps


# ---------------------------------------------------------------- comparing modes on a model

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
        whatever the machine measured (0.05 ms or 1234 ms).
        """
        # Translators: the benchmark table's column heads
        heads = (_("model"), _("task"), _("batch"), _("mode"), _("ms per call [range]"),
                 _("speed-up vs eager [range]"))
        right = (False, False, True, False, True, True)
        cells = []
        for r in self.rows:
            cells.append((translate(r.model), _(r.task), str(r.batch), r.mode,
                          f"{r.median_ms:.3f} [{r.low_ms:.3f}-{r.high_ms:.3f}]",
                          f"{r.speedup:.2f}x [{r.speedup_low:.2f}-{r.speedup_high:.2f}]"))
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


# ---------------------------------------------------------------- the picture

HATCHES = ("", "//", "..", "xx", "\\\\")


def plot_speedups(comparison, task="inference", ax=None):
    """Bar chart of speed-up over eager (median, with the round range as error bars), per model and batch.

    Returns the matplotlib Figure. A bar above the dashed line at 1 is faster than eager.
    """
    import matplotlib.pyplot as plt

    models = [m for m in comparison.models if comparison.select(model=m, task=task)]
    modes = [m for m in comparison.modes(task) if m != "eager"]
    batches = comparison.batch_sizes(task)
    if ax is None:
        fig, axes = plt.subplots(1, len(models), figsize=(4.2 * len(models), 3.4), sharey=True, squeeze=False)
        axes = axes[0]
    else:
        fig, axes = ax.figure, [ax]
    width = 0.8 / max(len(modes), 1)
    for axis, model in zip(axes, models):
        for i, mode in enumerate(modes):
            rows = [comparison.select(model=model, task=task, batch=b, mode=mode)[0] for b in batches]
            centres = np.arange(len(batches)) + (i - (len(modes) - 1) / 2) * width
            heights = [r.speedup for r in rows]
            errors = [[r.speedup - r.speedup_low for r in rows], [r.speedup_high - r.speedup for r in rows]]
            # a hatch per mode as well as a colour: the bars stay apart in grey print and for colour-blind readers
            axis.bar(centres, heights, width, yerr=errors, capsize=2, label=mode, hatch=HATCHES[i % len(HATCHES)],
                     edgecolor="black", linewidth=0.6)
        axis.axhline(1.0, color="black", linestyle="--", linewidth=1)
        axis.set_xticks(np.arange(len(batches)), [str(b) for b in batches])
        axis.set_xlabel(_("batch size"))
        # Translators: a plot title: {model} is the model's name, {task} "inference" or "training"
        axis.set_title(_("{model} ({task})").format(model=translate(model), task=_(task)))
    axes[0].set_ylabel(_("speed-up over eager (x), higher is faster"))
    axes[0].legend(fontsize=10)  # >= 9 px even when scaled to a 1024 px window
    fig.tight_layout()
    return fig


# ---------------------------------------------------------------- what the predictor's passes did

def _readable_op_name(name):
    if name == "p":
        return "parameter"
    dialect, _dot, op = name.partition(".")
    return {"0": "builtin.", "1": "pd_op."}.get(dialect, dialect + ".") + op if op else name


def program_op_counts(json_path):
    """How many of each op a saved Paddle 3 program (.json) holds, parameters and data included."""
    import json
    from collections import Counter

    with open(json_path, encoding="utf-8") as f:
        program = json.load(f)["program"]
    counts = Counter()

    def walk(region):
        for block in region.get("blocks", []):
            for op in block.get("ops", []):
                counts[_readable_op_name(op["#"])] += 1
                for inner in op.get("regions", []):
                    walk(inner)

    for region in program["regions"]:
        walk(region)
    return dict(sorted(counts.items()))


def _captured_fd_output(action):
    """Run ``action()`` and return what it wrote to the process's stdout and stderr file descriptors.

    Paddle's C++ side writes its pass log straight to file descriptor 2, past Python's
    ``sys.stderr``; only redirecting the descriptor itself catches it.
    """
    import re
    import sys

    with tempfile.TemporaryFile(mode="w+b") as sink:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        saved = {fd: os.dup(fd) for fd in (1, 2)}
        try:
            for fd in (1, 2):
                os.dup2(sink.fileno(), fd)
            action()
        finally:
            for fd, copy_of_fd in saved.items():
                os.dup2(copy_of_fd, fd)
                os.close(copy_of_fd)
        sink.seek(0)
        text = sink.read().decode("utf-8", errors="replace")
    return re.sub(r"\x1b\[[0-9;]*m", "", text)  # drop the colour codes


def predictor_pass_log(layer, in_features=None):
    """The names of the IR passes the ``paddle.inference`` predictor runs on ``layer``'s export, in order.

    Exports ``layer`` (``to_static``, ``full_graph=True``, batch ``None``), creates a
    predictor with its log left on, and reads the "--- Running PIR pass [name]" lines
    it prints while it optimises the program.
    """
    import re

    import paddle
    import paddle.inference as inference

    in_features = in_features or _in_features(layer)
    with tempfile.TemporaryDirectory(prefix="paddlecourse-passlog-") as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(_static_copy(layer, in_features, train=False), prefix)
        config = inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        config.switch_ir_optim(True)
        config.set_cpu_math_library_num_threads(1)
        log = _captured_fd_output(lambda: inference.create_predictor(config))
    return re.findall(r"Running PIR pass \[(\w+)\]", log)


def ops_before_and_after_passes(layer, in_features=None):
    """Export ``layer``, let the predictor optimise it, and count the ops in both programs.

    Returns (before, after): {op name: count} for the exported program and for
    the program the predictor runs after its IR passes (with oneDNN on).
    """
    import paddle
    import paddle.inference as inference

    in_features = in_features or _in_features(layer)
    with tempfile.TemporaryDirectory(prefix="paddlecourse-passes-") as folder:
        prefix = os.path.join(folder, "model")
        paddle.jit.save(_static_copy(layer, in_features, train=False), prefix)
        optimized = os.path.join(folder, "optimized")
        config = inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        config.switch_ir_optim(True)
        config.set_cpu_math_library_num_threads(1)
        config.disable_glog_info()
        config.enable_save_optim_model(True)
        config.set_optim_cache_dir(optimized)
        predictor = inference.create_predictor(config)
        del predictor
        before = program_op_counts(prefix + ".json")
        after = program_op_counts(os.path.join(optimized, "_optimized.json"))
    return before, after
