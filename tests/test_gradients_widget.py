"""GradientLab (lesson 02's accumulation widget): its state, without a browser."""
import os

os.environ.setdefault("GLOG_minloglevel", "2")

import pytest

from paddlecourse.widgets.gradients import GradientLab, GradientWidget


def test_starts_with_lesson_values_and_no_gradient():
    lab = GradientLab()
    snap = lab.snapshot()
    assert (snap.w, snap.b, snap.w_grad, snap.b_grad, snap.z) == (2.0, 1.0, None, None, None)
    assert "w.grad = None" in lab.text()


def test_gradients_accumulate_42_84_126():
    lab = GradientLab()
    seen = []
    for _ in range(3):
        assert lab.forward_backward() == 49.0
        seen.append((lab.snapshot().w_grad, lab.snapshot().b_grad))
    assert seen == [(42.0, 14.0), (84.0, 28.0), (126.0, 42.0)]
    assert lab.backward_calls == 3


def test_clear_grad_gives_zeros_not_none_then_42_again():
    lab = GradientLab()
    lab.forward_backward()
    lab.forward_backward()
    lab.clear_grad()
    assert (lab.snapshot().w_grad, lab.snapshot().b_grad) == (0.0, 0.0)
    assert lab.w.grad is not None
    lab.forward_backward()
    assert lab.snapshot().w_grad == 42.0


def test_step_uses_the_accumulated_gradient():
    lab = GradientLab(learning_rate=0.01)
    lab.forward_backward()
    lab.step()
    assert lab.snapshot().w == pytest.approx(2 - 0.01 * 42)
    assert lab.snapshot().b == pytest.approx(1 - 0.01 * 14)
    assert lab.snapshot().w_grad == 42.0  # step() does not clear


def test_step_before_any_backward_changes_nothing():
    lab = GradientLab()
    lab.step()
    assert (lab.snapshot().w, lab.snapshot().b) == (2.0, 1.0)


def test_history_and_reset():
    lab = GradientLab()
    lab.forward_backward()
    lab.clear_grad()
    assert [s.action for s in lab.history] == ["start", "forward+backward", "clear_grad()"]
    assert lab.series("w.grad") == [None, 42.0, 0.0]
    lab.reset()
    assert [s.action for s in lab.history] == ["start"] and lab.backward_calls == 0


def test_static_forms_show_the_values():
    lab = GradientLab()
    lab.forward_backward()
    assert 'data-quantity="w.grad"' in lab.html() and ">42<" in lab.html()
    assert "w.grad = 42" in lab.text()
    assert lab.plot_png().startswith(b"\x89PNG")
    plot = lab.plot_html()
    assert 'alt="Two line charts' in plot and "1 forward+backward: w.grad 42, b.grad 14" in plot
    assert "max-width:100%" in plot and "data:image/png;base64," in plot


def test_widget_buttons_drive_the_lab():
    widget = GradientWidget()
    widget.click("forward + backward")
    widget.click("forward + backward")
    assert widget.lab.snapshot().w_grad == 84.0
    assert ">84<" in widget.table.value
    widget.click("clear_grad()")
    assert ">0<" in widget.table.value
    widget.click("reset model")
    assert widget.lab.backward_calls == 0
    bundle = widget._repr_mimebundle_()
    assert "text/plain" in bundle and "text/html" in bundle
    # issue 25: the still picture (the website's) has the plot beside the table, not the table alone
    assert 'class="pc-grad-value"' in bundle["text/html"] and "pc-gradient-plot" in bundle["text/html"]
    assert "data:image/png;base64," in bundle["text/html"]
    # every control shows a visible keyboard focus (the rules apply inside .pc-widget only)
    assert "pc-widget" in widget.view._dom_classes and ":focus-visible" in widget.view.children[0].value
