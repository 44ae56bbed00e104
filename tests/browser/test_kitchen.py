"""Lesson 01's kitchen stepper in a real JupyterLab: step both snippets, run the program, read values from the DOM."""
import pytest
from playwright.sync_api import expect

from lab import CLICK_TIMEOUT, assert_keyboard_focus_is_visible, error_outputs, save_screenshot

NOTEBOOK = "solutions/01_two_ways_to_cook.ipynb"


@pytest.mark.browser
@pytest.mark.runs_lesson(NOTEBOOK)
def test_kitchen_stepper_dynamic_values_now_static_values_after_run(ran):
    page = ran

    widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".widget-html .pc-kitchen")).first
    widget.scroll_into_view_if_needed()

    def button(label):
        return widget.locator("button.jupyter-button", has_text=label)

    def value(mode, name):
        return widget.locator(f'.widget-html td.pc-kitchen-value[data-mode="{mode}"][data-name="{name}"]')

    dynamic_lines = widget.locator('.pc-kitchen[data-mode="dynamic"] .pc-kitchen-line')
    expect(dynamic_lines).to_have_count(4)
    expect(widget.locator('.pc-kitchen[data-mode="dynamic"]')).to_contain_text("no variables yet")

    # Dynamic: one step, and x holds numbers at once; y does not exist yet.
    button("Step dynamic line").click()
    expect(value("dynamic", "x")).to_contain_text("[[ 1.,  2.,  3.]", timeout=CLICK_TIMEOUT)
    expect(value("dynamic", "y")).to_have_count(0)
    for _ in range(3):
        button("Step dynamic line").click()
    expect(value("dynamic", "y")).to_have_text("[4., 0.]", timeout=CLICK_TIMEOUT)
    expect(button("Step dynamic line")).to_be_disabled()

    # Static: all four lines give placeholders with shapes, no numbers.
    for count in range(1, 5):
        button("Step static line").click()
        expect(widget.locator('.pc-kitchen[data-mode="static"] .pc-kitchen-line[data-state="done"]')).to_have_count(
            count, timeout=CLICK_TIMEOUT)
    for name in ("x", "w", "h", "y"):
        expect(value("static", name)).to_have_text("no numbers yet")
    static_y_row = widget.locator('.pc-kitchen[data-mode="static"] tr').filter(has=page.locator('td[data-name="y"]'))
    expect(static_y_row).to_contain_text("[-1]")
    expect(static_y_row).to_contain_text("Value")

    button("Run the program").click()
    expect(value("static", "y")).to_have_text("[4., 0.]", timeout=CLICK_TIMEOUT)
    expect(value("static", "h")).to_contain_text("[[2., 2.]")
    save_screenshot(widget, "kitchen_stepper_after_run")

    button("Reset both").click()
    expect(widget.locator('.pc-kitchen[data-mode="static"]')).to_contain_text("no variables yet", timeout=CLICK_TIMEOUT)
    expect(button("Step dynamic line")).to_be_enabled()
    assert_keyboard_focus_is_visible(page, widget, "kitchen_stepper_keyboard_focus")  # Shift+Tab from "Reset both"
    assert error_outputs(page) == []
