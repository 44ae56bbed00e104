"""Pictures that fit, show and speak: one HTML form for every picture the course draws.

Every picture (a Graphviz graph, a matplotlib plot) reaches the page the same way:

- an ``<img>`` that scales down to the output's width (``max-width:100%``,
  ``height:auto``) and never up beyond its natural size, nor down so far that its
  smallest text gets under ``MIN_FONT_PX``: on a phone the card scrolls sideways instead;
- on a light card with a border, so it stays readable in a dark theme;
- with ``alt`` text that says what it shows (for a graph: its nodes in order
  and the result), and the full text equivalent in a ``<details>`` beneath it
  ("Show as text"), reachable by keyboard and screen reader.

JupyterLab renders ``image/png`` and ``image/svg+xml`` outputs as ``<img>``
elements *without* alt text, so the course shows its pictures as ``text/html``.
The ``data-font-px`` attribute on the image is the smallest text size in the
picture at its natural size; the browser tests multiply it by the scale the
page shows the picture at and check it stays at or above ``MIN_FONT_PX``.

``setup()`` registers `figure_html` for matplotlib figures, so a learner's own
``plt.show()`` gets the same alt text and card; it changes nothing else
(backend, rcParams, the current figure are left alone). When the language is not
English, a figure the course shows has its titles, axis labels, legend entries and
texts translated in place first (``translate_figure``): a Chinese lesson's plot made
by the English code reads in Chinese where the lesson's catalogue has the entry.
"""
import base64
import html
import io
import math
import re

from ..language import DEFAULT, N_, _, language, ngettext, translate

MIN_FONT_PX = 9  # the smallest text a picture may show, at any width (narrower: the picture scrolls)
CARD_STYLE = ("display:inline-block;max-width:100%;box-sizing:border-box;background:#ffffff;color:#000000;"
              "border:1px solid #767676;border-radius:4px;padding:6px;overflow-x:auto")
IMG_STYLE = "display:block;max-width:100%;height:auto"
# Translators: what a screen reader says of a picture's frame, which a learner may scroll on a phone
SCROLLING_CARD = N_("Picture (scrolls sideways on a narrow screen)")


def _width(text):
    """Columns ``text`` takes in a terminal or a <pre>: a Chinese character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in str(text))


def _padded(text, width, right=False):
    """``text`` padded with spaces to ``width`` columns (as str.ljust/rjust, counting a Chinese character as two)."""
    space = " " * max(0, width - _width(text))
    return space + text if right else text + space


def narrowest_px(width, font_px):
    """How narrow a picture may be drawn before its smallest text falls below MIN_FONT_PX (never wider than
    its natural ``width``); None when either size is unknown."""
    if not width or not font_px:
        return None
    width, font_px = round(width), round(font_px, 1)   # the figures the HTML shows: one answer from them alone
    return min(width, math.ceil(width * MIN_FONT_PX / font_px))


def picture_html(data, mime, alt, text="", width=None, font_px=None, css_class="pc-picture"):
    """HTML for one picture: a scalable ``<img>`` with alt text on a light card, and its text in a ``<details>``.

    ``data`` is the PNG bytes or the SVG text; ``width`` its natural width in CSS px
    (the image never grows beyond it); ``font_px`` its smallest text at natural size. The image shrinks
    with the page only while that text stays readable (`narrowest_px`); on a narrower screen (a phone)
    the card scrolls sideways instead, and takes the keyboard focus so the arrow keys scroll it too.
    """
    if isinstance(data, str):
        data = data.encode("utf-8")
    source = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    narrowest = narrowest_px(width, font_px)
    style = IMG_STYLE + (f";min-width:{narrowest}px" if narrowest else "")
    attributes = f'src="{source}" alt="{html.escape(alt, quote=True)}" style="{style}"'
    if width:
        attributes += f' width="{round(width)}"'
    if font_px:
        attributes += f' data-font-px="{font_px:.1f}"'
    details = ""
    if text:
        details = ('<details class="pc-picture-text" style="margin-top:2px"><summary>'
                   + html.escape(_("Show as text")) + "</summary>"
                   '<pre style="white-space:pre-wrap;overflow-wrap:anywhere;margin:2px 0">'
                   f"{html.escape(text)}</pre></details>")
    card = f'class="pc-picture-card" style="{CARD_STYLE}"'
    if narrowest:  # a frame that may scroll: reachable by keyboard, named for a screen reader
        card += f' tabindex="0" role="group" aria-label="{html.escape(_(SCROLLING_CARD), quote=True)}"'
    return (f'<figure class="{css_class}" style="margin:0;max-width:100%">'
            f'<div {card}><img {attributes}></div>{details}</figure>')


# ------------------------------------------------------------------ SVG (Graphviz)

_PT_TO_PX = 96 / 72  # Graphviz sizes its SVG in points


def svg_size_px(svg):
    """The natural (width, height) of a Graphviz SVG in CSS px."""
    match = re.search(r'<svg[^>]*\bwidth="([\d.]+)pt"[^>]*\bheight="([\d.]+)pt"', svg)
    if not match:
        return None, None
    return float(match.group(1)) * _PT_TO_PX, float(match.group(2)) * _PT_TO_PX


def svg_min_font_px(svg):
    """The smallest font size used in a Graphviz SVG, in CSS px at natural size."""
    sizes = [float(size) for size in re.findall(r'font-size="([\d.]+)"', svg)]
    return min(sizes) * _PT_TO_PX if sizes else None


def svg_html(svg, alt, text=""):
    """`picture_html` for an SVG drawn by Graphviz."""
    width, _height = svg_size_px(svg)
    return picture_html(svg, "image/svg+xml", alt, text, width=width, font_px=svg_min_font_px(svg))


# ------------------------------------------------------------------ matplotlib

def png_of(figure, dpi=None):
    """A figure as PNG bytes, cut to what is drawn (as the inline backend does); the figure is not changed."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight", dpi=dpi or figure.dpi)
    return buffer.getvalue()


def smallest_font_pt(figure):
    """The smallest font size (points) of any visible text in the figure."""
    sizes = [text.get_fontsize() for text in figure.findobj(lambda a: hasattr(a, "get_fontsize"))
             if getattr(text, "get_visible", lambda: True)() and getattr(text, "get_text", lambda: "x")()]
    return min(sizes) if sizes else None


def describe_figure(figure):
    """Alt text for a matplotlib figure from what is drawn: titles, axis labels and the names of its lines.

    Only names, never data values, so the text is the same on every run.
    """
    parts = []
    suptitle = getattr(figure, "_suptitle", None)
    if suptitle is not None and suptitle.get_text():
        parts.append(_("Figure '{title}'").format(title=suptitle.get_text()))
    axes = [ax for ax in figure.get_axes() if ax.get_visible() and ax.axison or ax.get_images()]
    image_axes = [ax for ax in axes if ax.get_images()]
    plot_axes = [ax for ax in axes if not ax.get_images()]
    if image_axes:
        titles = [ax.get_title() for ax in image_axes if ax.get_title()]
        count = len(image_axes)
        if titles:
            line = ngettext("{count} image titled {titles}", "{count} images titled {titles}", count).format(
                count=count, titles=_(", ").join(titles))
        else:
            line = ngettext("{count} image", "{count} images", count).format(count=count)
        parts.append(line)
    for number, ax in enumerate(plot_axes, 1):
        title = ax.get_title()
        # Translators: the start of a chart's alt text; more is added after it ("(x: step; y: loss), showing ...")
        kind = _("chart") if len(plot_axes) == 1 else _("chart {number} of {count}").format(number=number,
                                                                                            count=len(plot_axes))
        line = f"{kind}{' ' + repr(title) if title else ''}"
        labels = [f"x: {ax.get_xlabel()}" if ax.get_xlabel() else "", f"y: {ax.get_ylabel()}" if ax.get_ylabel() else ""]
        labels = [label for label in labels if label]
        if labels:
            line += " (" + "; ".join(labels) + ")"
        names = [artist.get_label() for artist in ax.get_lines() + list(ax.containers)
                 if artist.get_label() and not artist.get_label().startswith("_")]
        if names:
            # Translators: put after a chart's title, with its leading ", "; {names} are its lines' names
            line += _(", showing {names}").format(names=_(", ").join(names))
        elif ax.get_lines():
            count = len(ax.get_lines())
            line += ngettext(", {count} line", ", {count} lines", count).format(count=count)
        elif ax.patches:
            line += _(", {count} bars").format(count=len(ax.patches))
        parts.append(line)
    # Translators: the alt text's parts are joined by ". " and end with "."
    return _(". ").join(parts) + _(".") if parts else _("A matplotlib figure.")


def translate_figure(figure):
    """Translate, in place, the text a figure shows: its titles, axis labels, legend entries, texts and the
    names of its lines (what the alt text lists), as the lesson's code wrote them (``translate``).

    Nothing changes in English, or for a text the catalogues do not hold (a variable's name, a number).
    Returns the figure.
    """
    if language() == DEFAULT:
        return figure

    def retext(artist):
        if artist is None:
            return
        text = artist.get_text()
        shown = translate(text)
        if shown != text:
            artist.set_text(shown)

    retext(getattr(figure, "_suptitle", None))
    for text in getattr(figure, "texts", []):
        retext(text)
    for legend in getattr(figure, "legends", []):
        for text in legend.get_texts():
            retext(text)
        retext(legend.get_title())
    for ax in figure.get_axes():
        for title in (ax.title, getattr(ax, "_left_title", None), getattr(ax, "_right_title", None)):
            retext(title)
        retext(ax.xaxis.label)
        retext(ax.yaxis.label)
        for text in ax.texts:
            retext(text)
        legend = ax.get_legend()
        if legend is not None:
            for text in legend.get_texts():
                retext(text)
            retext(legend.get_title())
        for artist in ax.get_lines() + list(ax.containers) + list(ax.collections) + list(ax.patches):
            label = artist.get_label()
            if isinstance(label, str) and label and not label.startswith("_"):
                shown = translate(label)
                if shown != label:
                    artist.set_label(shown)
    return figure


def figure_html(figure, alt=None, text="", css_class="pc-picture"):
    """`picture_html` for a matplotlib figure (the formatter `setup()` registers for ``plt.show()``)."""
    data = png_of(figure)
    width = None
    try:
        from PIL import Image

        width = Image.open(io.BytesIO(data)).size[0]
    except Exception:  # Pillow comes with matplotlib; without it the image keeps its own size
        pass
    smallest = smallest_font_pt(figure)
    font_px = smallest * figure.dpi / 72 if smallest else None
    alt = translate(alt) if alt else describe_figure(figure)  # a lesson's own alt text, or one made from the figure
    return picture_html(data, "image/png", alt, text, width=width, font_px=font_px,
                        css_class=css_class)


def register_figure_html(shell):
    """Show matplotlib figures (``plt.show()``, ``display(fig)``) with alt text, scaled to the width, on a card.

    Adds a ``text/html`` form beside the ``image/png`` the inline backend makes;
    JupyterLab shows the HTML (an ``<img>`` with alt text), other front ends pick
    what they know. Backend, rcParams and the current figure are untouched.
    """
    if shell is None:
        return
    formatter = shell.display_formatter.formatters["text/html"]
    # On FigureBase, not Figure: matplotlib-inline removes every formatter registered for
    # Figure itself whenever the inline backend is (re)configured.
    formatter.for_type_by_name("matplotlib.figure", "FigureBase", _figure_html_or_none)


def _figure_html_or_none(figure):
    """The formatter: a whole Figure gets `figure_html`; anything else (a SubFigure) its usual forms."""
    from matplotlib.figure import Figure

    if not isinstance(figure, Figure):
        return None
    translate_figure(figure)  # before drawing: IPython asks for this HTML before the inline backend's PNG
    return figure_html(figure)
