"""Pictures that fit, show and speak (paddlecourse.widgets.figures), and no widget touches the learner's plots."""
import base64
import re
from pathlib import Path

import nbformat
import pytest
from matplotlib.figure import Figure

from paddlecourse.widgets.figures import describe_figure, figure_html, picture_html, register_figure_html

ROOT = Path(__file__).resolve().parents[1]


def test_picture_html_scales_speaks_and_sits_on_a_light_card():
    page = picture_html(b"\x89PNG...", "image/png", 'a "quoted" alt', text="a <b> listing", width=640, font_px=12)
    img = re.search(r"<img [^>]*>", page).group(0)
    assert 'alt="a &quot;quoted&quot; alt"' in img and 'width="640"' in img and 'data-font-px="12.0"' in img
    assert "max-width:100%" in img and "height:auto" in img
    assert base64.b64encode(b"\x89PNG...").decode() in img
    assert "background:#ffffff" in page and "border:1px solid" in page  # readable in a dark theme
    assert "<details" in page and "<summary>Show as text</summary>" in page and "a &lt;b&gt; listing" in page


def test_a_picture_shrinks_only_while_its_text_stays_readable_then_scrolls():
    """Issue 25: on a phone a picture was squeezed until its text was 5.9 px. It now shrinks to where its
    smallest text is MIN_FONT_PX (640 px wide with 12 px text: 480 px), and its card scrolls sideways,
    reachable by keyboard."""
    page = picture_html(b"\x89PNG...", "image/png", "alt", width=640, font_px=12)
    img = re.search(r"<img [^>]*>", page).group(0)
    card = re.search(r'<div class="pc-picture-card"[^>]*>', page).group(0)
    assert "min-width:480px" in img and "max-width:100%" in img
    assert "overflow-x:auto" in card and 'tabindex="0"' in card and 'role="group"' in card and "aria-label=" in card
    # text already at the limit: never drawn smaller than its natural size
    assert "min-width:300px" in picture_html(b"png", "image/png", "alt", width=300, font_px=9)
    assert "min-width" not in picture_html(b"png", "image/png", "alt")   # sizes unknown: scales as before


def test_describe_figure_names_what_is_drawn_and_no_numbers():
    figure = Figure()
    ax = figure.subplots()
    ax.plot([3.14159, 2.71828], label="with clear_grad()")
    ax.plot([1.41421, 1.73205], label="forgets clear_grad()")
    ax.set(xlabel="step", ylabel="mean squared error", title="Same loop, one line apart")
    alt = describe_figure(figure)
    assert alt == ("chart 'Same loop, one line apart' (x: step; y: mean squared error), "
                   "showing with clear_grad(), forgets clear_grad().")
    assert "3.14" not in alt  # the same text on every run, so stored outputs compare


def test_describe_figure_of_images():
    figure = Figure()
    for ax, title in zip(figure.subplots(1, 3), "507"):
        ax.imshow([[0, 1], [1, 0]])
        ax.set_title(title)
        ax.axis("off")
    assert describe_figure(figure) == "3 images titled 5, 0, 7."


def test_figure_html_keeps_the_figure_as_it_was():
    figure = Figure(figsize=(4, 2), dpi=100)
    ax = figure.subplots()
    ax.plot([1, 2], label="loss")
    size, dpi = tuple(figure.get_size_inches()), figure.dpi
    page = figure_html(figure)
    assert "showing loss" in page and "data:image/png;base64," in page
    assert tuple(figure.get_size_inches()) == size and figure.dpi == dpi


def test_register_adds_an_html_form_for_figures():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    register_figure_html(shell)
    figure = Figure()
    figure.subplots().plot([1, 2], label="acc")
    data, _ = shell.display_formatter.format(figure)
    assert "showing acc" in data["text/html"]
    register_figure_html(None)  # outside IPython: nothing to do, no error


def _run_in_course_kernel(cells):
    from nbclient import NotebookClient

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    NotebookClient(notebook, timeout=180, kernel_name="paddlecourse", resources={"metadata": {"path": str(ROOT)}}).execute()
    return notebook


@pytest.mark.timeout(300)
def test_plt_show_still_works_after_the_gradient_widget_in_a_real_kernel():
    """Issue 11: GradientLab.plot_png switched the backend to agg, and every later plt.show() printed nothing."""
    notebook = _run_in_course_kernel([
        "import paddlecourse\npaddlecourse.setup()\nimport matplotlib\nbackend = matplotlib.get_backend()\nbackend",
        "from paddlecourse.widgets.gradients import GradientWidget\nwidget = GradientWidget()\n"
        "widget.click('forward + backward')\nwidget.click('optimizer step')",
        "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\n_ = ax.plot([3, 2, 1], label='loss')\n"
        "_ = ax.set(title='after the widget')\nplt.show()",
        "print(matplotlib.get_backend() == backend, plt.get_fignums())",
    ])
    backend = notebook.cells[0].outputs[0]["data"]["text/plain"]
    assert "inline" in backend
    outputs = notebook.cells[2].outputs
    pictures = [o for o in outputs if o.get("output_type") == "display_data"]
    assert len(pictures) == 1 and "image/png" in pictures[0]["data"], outputs
    html = pictures[0]["data"]["text/html"]  # setup()'s formatter: the same picture with alt text
    assert "alt=\"chart 'after the widget', showing loss.\"" in html.replace("&#x27;", "'")
    assert notebook.cells[3].outputs[0]["text"].strip() == "True []"  # backend kept; plt.show closed the figure
