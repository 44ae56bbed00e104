"""The speed-ups as a bar chart, one bar per mode and batch size."""

import numpy as np

from ..language import _, translate


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
