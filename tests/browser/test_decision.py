"""Lesson 08's decision widget in a real JupyterLab: click the answers, read the recommendation from the DOM."""
import pytest
from playwright.sync_api import expect

from lab import CLICK_TIMEOUT, assert_keyboard_focus_is_visible, error_outputs, save_screenshot

NOTEBOOK = "solutions/08_choosing_and_fixing.ipynb"


@pytest.mark.browser
@pytest.mark.runs_lesson(NOTEBOOK)
def test_decision_widget_explains_each_answer(ran):
    page = ran

    widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".widget-toggle-buttons")).first
    widget.scroll_into_view_if_needed()

    def button(label):
        return widget.locator("button.jupyter-button", has_text=label).first

    deploy = widget.locator(".pc-deploy")
    first_step = widget.locator(".pc-first-step")
    reasons = widget.locator(".pc-reasons li")

    # The starting answers: still changing, Python there, not measured.
    expect(deploy).to_have_text("measure first")
    expect(reasons).to_have_count(3)
    assert "mod-active" in (button("still changing").get_attribute("class") or "")
    expect(button("still changing")).to_have_text("✓ still changing")  # the choice in text, not shade alone

    button("no Python").click()
    expect(deploy).to_have_text("export required", timeout=CLICK_TIMEOUT)
    expect(first_step).to_contain_text("smoke test")
    expect(reasons.nth(1)).to_contain_text("no Python where the model runs")
    assert "mod-active" in (button("no Python").get_attribute("class") or "")
    expect(button("no Python")).to_have_text("✓ no Python")
    expect(button("Python there")).to_have_text("Python there")

    button("settled").click()
    expect(first_step).to_contain_text("None batch dimension", timeout=CLICK_TIMEOUT)

    button("Python there").click()
    button("data loading").click()
    expect(deploy).to_have_text("eager", timeout=CLICK_TIMEOUT)
    expect(reasons.nth(2)).to_contain_text("static graph cannot speed it up")

    button("big ops").click()
    expect(deploy).to_have_text("predictor", timeout=CLICK_TIMEOUT)
    expect(reasons.nth(2)).to_contain_text("oneDNN")
    save_screenshot(widget, "decision_widget_big_ops")
    assert_keyboard_focus_is_visible(page, widget, "decision_widget_keyboard_focus")
    assert error_outputs(page) == []
