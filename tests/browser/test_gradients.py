"""Lesson 02's gradient-accumulation widget in a real JupyterLab: click its buttons, read the values from the DOM."""
import re

import pytest
from playwright.sync_api import expect

from lab import CLICK_TIMEOUT, error_outputs, save_screenshot

NOTEBOOK = "solutions/02_autograd_by_hand.ipynb"


@pytest.mark.browser
@pytest.mark.runs_lesson(NOTEBOOK)
def test_gradient_widget_accumulates_clears_and_steps(ran):
    page = ran

    widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".pc-gradient-lab")).first
    widget.scroll_into_view_if_needed()

    def button(label):
        return widget.locator("button.jupyter-button", has_text=label)

    def value(quantity):
        return widget.locator(f'.widget-html td.pc-grad-value[data-quantity="{quantity}"]')

    plot = widget.locator(".pc-gradient-plot img").first
    expect(value("w.grad")).to_have_text("None")
    expect(value("w")).to_have_text("2")
    first_plot = plot.get_attribute("src")
    expect(plot).to_have_attribute("alt", re.compile(r"^Two line charts .*0 start: w.grad None"))

    for expected_w_grad, expected_b_grad in (("42", "14"), ("84", "28"), ("126", "42")):
        button("forward + backward").click()
        expect(value("w.grad")).to_have_text(expected_w_grad, timeout=CLICK_TIMEOUT)
        expect(value("b.grad")).to_have_text(expected_b_grad)
    expect(value("z")).to_have_text("49")
    assert plot.get_attribute("src") != first_plot  # the history plot was redrawn
    expect(plot).to_have_attribute("alt", re.compile(r"3 forward\+backward: w.grad 126, b.grad 42"))

    button("clear_grad()").click()
    expect(value("w.grad")).to_have_text("0", timeout=CLICK_TIMEOUT)  # zeros, not None
    expect(value("b.grad")).to_have_text("0")

    button("forward + backward").click()
    expect(value("w.grad")).to_have_text("42", timeout=CLICK_TIMEOUT)
    button("optimizer step").click()
    expect(value("w")).to_have_text("1.58", timeout=CLICK_TIMEOUT)  # 2 - 0.01 * 42
    expect(value("b")).to_have_text("0.86")                         # 1 - 0.01 * 14
    save_screenshot(widget, "gradients_widget_after_step")

    button("reset model").click()
    expect(value("w.grad")).to_have_text("None", timeout=CLICK_TIMEOUT)
    expect(value("w")).to_have_text("2")
    assert error_outputs(page) == []
