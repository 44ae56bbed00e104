"""The Chinese edition in a real JupyterLab: lesson 02 in Chinese, its widget and graph drawn with a CJK font.

Runs solutions/zh/02_autograd_by_hand.ipynb (first cell: `paddlecourse.setup(lang="zh")`), clicks the
gradient widget's Chinese buttons and reads the values, and checks that the pictures speak Chinese:
alt text, the widget's plot, the autograd graph. Matplotlib warns "Glyph ... missing from font" when
a font lacks the characters, so no output may say so. Screenshots go to test-artifacts.
"""
import re
import subprocess

import pytest
from playwright.sync_api import expect

from lab import CLICK_TIMEOUT, cell_outputs_text, save_screenshot

NOTEBOOK = "solutions/zh/02_autograd_by_hand.ipynb"
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.browser
@pytest.mark.runs_lesson(NOTEBOOK)
def test_a_chinese_lesson_runs_and_its_pictures_and_widget_speak_chinese(ran):
    page = ran
    fonts = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
    assert fonts.strip(), "no font with Chinese glyphs on this machine (make test installs fonts-wqy-microhei)"
    texts = cell_outputs_text(page)
    assert not any("missing from font" in text or "Glyph" in text for text in texts), "a picture lacks CJK glyphs"
    assert any("✓" in text for text in texts)

    widget = page.locator(".jp-OutputArea-output").filter(has=page.locator(".pc-gradient-lab")).first
    widget.scroll_into_view_if_needed()
    button = widget.locator("button.jupyter-button", has_text="前向 + 反向")
    expect(button).to_be_visible()
    value = widget.locator('.widget-html td.pc-grad-value[data-quantity="w.grad"]')
    for expected in ("42", "84"):
        button.click()
        expect(value).to_have_text(expected, timeout=CLICK_TIMEOUT)
    plot = widget.locator(".pc-gradient-plot img").first
    expect(plot).to_have_attribute("alt", CJK, timeout=CLICK_TIMEOUT)
    save_screenshot(widget, "zh_gradients_widget")

    # the lesson's pictures: every course <img> has Chinese alt text; the autograd graph among them
    alts = page.locator(".jp-OutputArea-output img[alt]").evaluate_all("imgs => imgs.map(i => i.alt)")
    assert alts and all(CJK.search(alt) for alt in alts), alts
    graph = page.locator(".jp-OutputArea-output").filter(has=page.locator("img[alt*='z = 49']")).first
    graph.scroll_into_view_if_needed()
    save_screenshot(graph, "zh_autograd_graph")
    # the prose is the Chinese edition's
    expect(page.locator(".jp-MarkdownCell").first).to_contain_text("第 02 课")
