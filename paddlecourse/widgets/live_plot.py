"""Live training plot: loss per step and accuracy per epoch, redrawn while the loop runs.

`TrainingHistory` holds what a run logged (plain lists, testable anywhere).
`LivePlot` shows it as a matplotlib picture that updates in place while training
runs (an IPython display that is updated, so it works in JupyterLab, Notebook,
VS Code and nbconvert alike, with no widget state to save). Its text form is a
fixed sentence, so notebook tests that compare text see the same output on every
run; the numbers are printed by `TrainingHistory.summary()` at the end.

    plot = LivePlot("digits MLP")
    plot.show()
    for step ...:  plot.log_step(loss.item())
    for epoch ...: plot.log_epoch(train_acc=..., eval_acc=...)
    print(plot.finish())   # last redraw + the summary table
"""
import io
import time

import numpy as np

from ..language import _, translate, translate_label
from .figures import _padded, picture_html


class TrainingHistory:
    """Loss at every step, and named metrics (accuracies) at the end of every epoch."""

    def __init__(self):
        self.losses = []  # one per step, in order
        self.epoch_ends = []  # number of steps done when each epoch ended
        self.metrics = {}  # name -> one value per epoch

    def log_step(self, loss):
        """Record one step's loss (a float, or a one-element tensor/array)."""
        self.losses.append(float(np.asarray(loss).reshape(-1)[0]) if not isinstance(loss, (int, float)) else float(loss))

    def log_epoch(self, **metrics):
        """Close an epoch: record its metrics, e.g. ``log_epoch(train_acc=0.91, eval_acc=0.9)``."""
        self.epoch_ends.append(len(self.losses))
        for name, value in metrics.items():
            self.metrics.setdefault(name, []).append(float(value))

    @property
    def num_epochs(self):
        return len(self.epoch_ends)

    def epoch_losses(self):
        """The mean loss of each finished epoch."""
        starts = [0] + self.epoch_ends[:-1]
        return [float(np.mean(self.losses[a:b])) if b > a else float("nan") for a, b in zip(starts, self.epoch_ends)]

    def falling(self, fraction=0.5):
        """True when the last epoch's mean loss is below ``fraction`` of the first one's."""
        means = self.epoch_losses()
        return len(means) >= 2 and means[-1] < fraction * means[0]

    def summary(self, digits=3):
        """A table, one row per epoch: mean loss and every metric, rounded (deterministic text)."""
        names = list(self.metrics)
        # Translators: the training summary's first two column heads (at most 5 and 10 columns wide)
        header = _padded(_("epoch"), 5) + "  " + "  ".join(_padded(name, 10, right=True)
                                                            for name in [_("mean loss"), *names])
        rows = [header]
        for epoch, mean_loss in enumerate(self.epoch_losses()):
            values = [mean_loss] + [self.metrics[name][epoch] if epoch < len(self.metrics[name]) else float("nan")
                                    for name in names]
            rows.append(f"{epoch + 1:>5}  " + "  ".join(f"{v:>10.{digits}f}" for v in values))
        if not self.epoch_ends and self.losses:
            rows.append(_("(no epoch finished; {steps} steps, last loss {loss})").format(
                steps=len(self.losses), loss=f"{self.losses[-1]:.{digits}f}"))
        return "\n".join(rows)


def draw(history, title=""):
    """A matplotlib Figure of a history: loss per step (left), metrics per epoch (right)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 3), dpi=100)
    loss_axes, metric_axes = figure.subplots(1, 2)
    if history.losses:
        steps = np.arange(1, len(history.losses) + 1)
        loss_axes.plot(steps, history.losses, lw=0.8, alpha=0.6, label=_("step"))
        means = history.epoch_losses()
        if means:
            loss_axes.plot(history.epoch_ends, means, "o-", label=_("epoch mean"))
        loss_axes.legend(loc="upper right", fontsize=10)
    loss_axes.set(xlabel=_("step"), ylabel=_("loss"), title=_("loss"))
    for (name, values), style in zip(history.metrics.items(), ["o-", "s--", "^:", "D-."] * 4):
        metric_axes.plot(np.arange(1, len(values) + 1), values, style, label=translate_label(name))  # a marker each
    if history.metrics:
        metric_axes.legend(loc="lower right", fontsize=10)
    metric_axes.set(xlabel=_("epoch"), ylabel=_("value"), title=_("per epoch"), ylim=(0, 1.02))
    if title:
        figure.suptitle(translate(title))
    figure.subplots_adjust(left=0.08, right=0.98, bottom=0.17, top=0.8 if title else 0.88, wspace=0.25)
    return figure


def png_bytes(figure):
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


class LivePlot:
    """A TrainingHistory shown as a picture that redraws at most every ``min_seconds`` while training runs.

    Drawing costs a fraction of a second, so redraws are paced by the clock, not
    by steps: a fast loop is not slowed down, a slow one still shows progress.
    `finish()` always draws the final picture.
    """

    def __init__(self, title="", min_seconds=1.0):
        self.title = title
        self.min_seconds = min_seconds
        self.history = TrainingHistory()
        self.redraws = 0
        self._handle = None
        self._last_draw = time.monotonic()

    def text(self):
        """The text form: a fixed sentence, identical on every run (the numbers are in `finish()`)."""
        if self.title:
            return _("LivePlot: {title} (loss per step, metrics per epoch)").format(title=translate(self.title))
        return _("LivePlot (loss per step, metrics per epoch)")

    def alt_text(self):
        """Alt text: what the two charts show. Fixed, like `text()`: notebook tests compare the first
        display, not its in-place updates; the numbers are in the table `finish()` returns."""
        # Translators: {title} is empty or the plot's title in quotes, with a leading space
        return _("Training plot{title}: left, the loss at every step and "
                 "each epoch's mean loss; right, the metrics logged at the end of each epoch (one marker shape "
                 "per metric). The numbers are in the table printed after training.").format(
            title=" " + repr(translate(self.title)) if self.title else "")

    def _repr_mimebundle_(self, include=None, exclude=None):
        data = png_bytes(draw(self.history, self.title))
        # text/html: JupyterLab shows it (an <img> with alt text, scaled to the width, on a light card);
        # image/png stays for front ends that show pictures only.
        return {"image/png": data, "text/plain": self.text(),
                "text/html": picture_html(data, "image/png", self.alt_text(), width=800, font_px=10 * 100 / 72,
                                          css_class="pc-picture pc-live-plot")}

    def show(self):
        """Display the plot now, in a spot that later redraws update in place."""
        from IPython.display import display

        self._handle = display(self, display_id=True)
        return None

    def redraw(self):
        """Update the displayed picture now (nothing is displayed before `show()`)."""
        self.redraws += 1
        if self._handle is not None:
            self._handle.update(self)
        self._last_draw = time.monotonic()

    def _redraw_if_due(self):
        if time.monotonic() - self._last_draw >= self.min_seconds:
            self.redraw()

    def log_step(self, loss):
        self.history.log_step(loss)
        self._redraw_if_due()

    def log_epoch(self, **metrics):
        self.history.log_epoch(**metrics)
        self._redraw_if_due()

    def finish(self):
        """Draw the final picture and return the summary table (print it)."""
        self.redraw()
        return self.history.summary()
