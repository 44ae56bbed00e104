"""TrainingHistory and LivePlot, without a browser."""
import math
from unittest import mock

import pytest

from paddlecourse.widgets.live_plot import LivePlot, TrainingHistory, draw


def filled_history():
    history = TrainingHistory()
    for epoch, losses in enumerate([[2.0, 1.8, 1.6], [1.2, 1.0, 0.8], [0.6, 0.5, 0.4]]):
        for loss in losses:
            history.log_step(loss)
        history.log_epoch(train_acc=0.5 + 0.2 * epoch, test_acc=0.4 + 0.2 * epoch)
    return history


def test_history_keeps_steps_epochs_and_metrics():
    history = filled_history()
    assert len(history.losses) == 9 and history.num_epochs == 3 and history.epoch_ends == [3, 6, 9]
    assert history.epoch_losses() == pytest.approx([1.8, 1.0, 0.5])
    assert history.metrics["test_acc"] == pytest.approx([0.4, 0.6, 0.8])
    assert history.falling(0.5) and not history.falling(0.2)


def test_log_step_accepts_tensors_arrays_and_floats():
    paddle = pytest.importorskip("paddle")
    import numpy as np

    history = TrainingHistory()
    history.log_step(paddle.to_tensor(1.5))
    history.log_step(np.array([2.5], dtype="float32"))
    history.log_step(3)
    assert history.losses == [1.5, 2.5, 3.0] and all(type(v) is float for v in history.losses)


def test_summary_is_a_rounded_table():
    text = filled_history().summary()
    lines = text.splitlines()
    assert lines[0].split() == ["epoch", "mean", "loss", "train_acc", "test_acc"]
    assert lines[1].split() == ["1", "1.800", "0.500", "0.400"]
    assert lines[3].split() == ["3", "0.500", "0.900", "0.800"]


def test_summary_before_any_epoch_ends():
    history = TrainingHistory()
    history.log_step(0.25)
    assert "no epoch finished; 1 steps, last loss 0.250" in history.summary()
    assert not history.falling()


def test_falling_needs_two_epochs():
    history = TrainingHistory()
    history.log_step(1.0)
    history.log_epoch()
    assert not history.falling()


def test_epoch_with_no_steps_has_nan_mean():
    history = TrainingHistory()
    history.log_epoch(acc=0.1)
    assert math.isnan(history.epoch_losses()[0])


def test_draw_returns_a_two_panel_figure_even_when_empty():
    assert len(draw(TrainingHistory()).axes) == 2
    figure = draw(filled_history(), title="t")
    loss_axes, metric_axes = figure.axes
    assert len(loss_axes.lines) == 2 and len(metric_axes.lines) == 2


def test_text_form_is_fixed_and_png_is_a_picture():
    plot = LivePlot("run")
    empty_text = plot._repr_mimebundle_()["text/plain"]
    for loss in [1.0, 0.5]:
        plot.log_step(loss)
    plot.log_epoch(acc=0.5)
    bundle = plot._repr_mimebundle_()
    assert bundle["text/plain"] == empty_text == "LivePlot: run (loss per step, metrics per epoch)"
    assert bundle["image/png"].startswith(b"\x89PNG")
    # JupyterLab shows the HTML form: the same picture with alt text, scaled to the width
    assert 'alt="Training plot &#x27;run&#x27;: left, the loss' in bundle["text/html"]
    assert plot.alt_text() == LivePlot("run").alt_text()  # fixed: nbval compares the first display only
    assert "max-width:100%" in bundle["text/html"] and "data:image/png;base64," in bundle["text/html"]


def test_redraws_are_paced_by_the_clock_and_update_the_display():
    clock = [100.0]
    with mock.patch("paddlecourse.widgets.live_plot.time.monotonic", side_effect=lambda: clock[0]):
        plot = LivePlot(min_seconds=1.0)
        handle = mock.Mock()
        with mock.patch("IPython.display.display", return_value=handle) as display:
            plot.show()
        display.assert_called_once_with(plot, display_id=True)
        for step in range(10):  # 10 fast steps, 0.3 s apart: a redraw at 1.2 s and at 2.4 s
            clock[0] += 0.3
            plot.log_step(1.0 / (step + 1))
        assert plot.redraws == 2 and handle.update.call_count == 2
        plot.log_epoch(acc=0.9)  # 3.0 s: only 0.6 s since the last redraw
        assert plot.redraws == 2
        clock[0] += 5
        plot.log_epoch(acc=0.95)
        assert plot.redraws == 3
        summary = plot.finish()  # always draws the final picture
        assert plot.redraws == 4 and handle.update.call_count == 4
    assert summary == plot.history.summary()


def test_without_show_nothing_is_displayed():
    plot = LivePlot(min_seconds=0)
    plot.log_step(1.0)
    plot.log_epoch()
    assert plot.redraws == 2  # redraw() only counts when show() was never called
