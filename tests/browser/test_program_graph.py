"""Lesson 04's program graph view in a real JupyterLab: switch snapshots, inspect nodes, read the DOM."""
import re

import pytest
from playwright.sync_api import expect

from lab import CLICK_TIMEOUT, error_outputs, save_screenshot
from test_pictures import MIN_FONT_PX

NOTEBOOK = "solutions/04_inside_a_static_program.ipynb"


@pytest.mark.browser
@pytest.mark.runs_lesson(NOTEBOOK)
def test_program_graph_switches_before_after_and_inspects_nodes(ran):
    page = ran

    widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".pc-program-status")).first
    widget.scroll_into_view_if_needed()
    status = widget.locator(".pc-program-status")
    details = widget.locator(".pc-program-details")
    dropdown = widget.locator(".widget-dropdown select")

    def button(label):
        return widget.locator("button.jupyter-button", has_text=label)

    # Starts on the "after" snapshot: backward and optimizer ops are there, new ones counted.
    expect(status).to_contain_text("after minimize: 30 ops", timeout=CLICK_TIMEOUT)
    expect(status).to_contain_text("14 new")
    picture = widget.locator(".pc-program-drawing img")
    if picture.count():  # Graphviz picture (text fallback otherwise): by default only the 14 new ops
        expect(picture).to_have_attribute("alt", re.compile(r"Drawn: only the 14 new ops.*pd_op\.sgd_"))
        expect(picture).to_be_visible()
        # it fits the output: no sideways scrolling to find the new ops
        assert picture.bounding_box()["width"] <= widget.bounding_box()["width"] + 1
        expect(widget.locator(".pc-program-drawing details pre")).to_contain_text("pd_op.sgd_")
        button("Whole program").click()
        expect(picture).to_have_attribute("alt", re.compile(r"^Program graph: after minimize: 30 ops.* 30 ops in"),
                                          timeout=CLICK_TIMEOUT)
        expect(button("Whole program")).to_contain_text("✓")
        # Both drawings stay readable in a 1024 px window (test_pictures.py checks only the first view).
        page.set_viewport_size({"width": 1024, "height": 768})
        page.wait_for_timeout(800)
        shown = picture.evaluate("img => parseFloat(img.dataset.fontPx) * img.getBoundingClientRect().width"
                                 " / img.naturalWidth")
        assert shown >= MIN_FONT_PX, f"whole program at 1024 px: smallest text {shown:.1f} px"
        save_screenshot(widget, "program_graph_whole_program_1024px")
        page.set_viewport_size({"width": 1400, "height": 1000})
        button("Only the new ops").click()
        expect(picture).to_have_attribute("alt", re.compile("Drawn: only the 14 new ops"), timeout=CLICK_TIMEOUT)
    else:
        expect(widget.locator("pre").first).to_contain_text("pd_op.sgd_")
    save_screenshot(widget, "program_graph_after_minimize")

    # Inspect an optimizer op: its kind, that it is new, and the parameter it updates.
    dropdown.select_option(label="op 26: pd_op.sgd_")
    expect(details).to_contain_text("op 26: pd_op.sgd_  (optimizer, new)", timeout=CLICK_TIMEOUT)
    expect(details).to_contain_text("from builtin.parameter 'out.b_0'")

    # Before minimize: fewer ops, no sgd_ anywhere, and the dropdown offers the old nodes.
    button("Before minimize").click()
    expect(status).to_contain_text("before minimize: 16 ops", timeout=CLICK_TIMEOUT)
    expect(status).not_to_contain_text("new")
    # the status and the dropdown's options arrive as separate updates: pick only from the new options
    # (picked from the old ones, the choice is reset to op 0 when they arrive)
    expect(dropdown.locator("option", has_text="op 26: pd_op.sgd_")).to_have_count(0, timeout=CLICK_TIMEOUT)
    dropdown.select_option(label="%3")
    expect(details).to_contain_text("%3: shape [4, 8], dtype f32", timeout=CLICK_TIMEOUT)
    expect(details).to_contain_text("builtin.parameter 'hidden.w_0'")
    save_screenshot(widget, "program_graph_before_minimize")

    # And back: the picked value still exists, so it stays picked (now numbered in the after snapshot).
    button("After minimize").click()
    expect(status).to_contain_text("after minimize: 30 ops", timeout=CLICK_TIMEOUT)
    expect(details).to_contain_text("%3: shape [8], dtype f32")
    assert error_outputs(page) == []
