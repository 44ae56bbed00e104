"""GraphPicture: draw a small computation graph with Graphviz, or as text where it is missing.

Both graph views (the autograd tape of lesson 02, the static Program of lesson
04) describe their graph as nodes and edges and hand it to this class; it owns
the drawing, so the views only decide what the graph *is*.

What the drawing promises, so that every reader can read it:
- colours from the Okabe-Ito colour-blind-safe palette, each kind with a second
  cue (shape and border style), and a legend drawn inside the picture that names
  each colour in the words the lessons use (``LEGEND``);
- left to right when that fits the page, top to bottom when the graph is long;
- an SVG ``<title>`` that is the picture's title (never Graphviz's ``%3``), alt
  text listing the nodes in order and the result, and the text listing beneath;
- in the language in force: the legend, the title (``translate``: a lesson's title
  is looked up in its catalogue) and the alt text; in Chinese, drawn in a font with
  Chinese glyphs (``graph_font()``), so 动态图 is not a row of boxes.
"""
import shutil
import textwrap
from dataclasses import dataclass, field

from ..language import _, N_, language, translate
from .figures import svg_html, svg_size_px

# Okabe & Ito (2008) colours: told apart with every common colour-vision deficiency.
OKABE_ITO = {"orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7", "black": "#000000"}

NODE_STYLES = {
    # kind: graphviz node attributes (fill colour + a second cue: shape, border style or width)
    "value": {"shape": "box", "style": "rounded,filled", "fillcolor": "#CDE7F7", "color": OKABE_ITO["blue"]},
    "leaf": {"shape": "box", "style": "filled,dashed", "fillcolor": "#F9F3A8", "color": "#6B6000", "penwidth": "1.5"},
    "param": {"shape": "box", "style": "rounded,filled", "fillcolor": "#B3E3D2", "color": "#005C43",
              "peripheries": "2"},
    "op": {"shape": "box", "style": "filled", "fillcolor": "#E6E6E6", "color": "#555555"},
    "new": {"shape": "box", "style": "filled,bold", "fillcolor": OKABE_ITO["vermillion"], "color": "#000000",
            "penwidth": "3"},
}
NODE_STYLES["grad"] = NODE_STYLES["new"]  # the older name of "new"
NODE_STYLES["tracked"] = NODE_STYLES["param"]  # an autograd graph's leaves: drawn like parameters, named for what they are
NODE_STYLES["input"] = NODE_STYLES["leaf"]  # a program's pd_op.data: drawn like a leaf, named for what it is

# How the legend names each kind: colour word + second cue. Lessons name colours only this way.
# Translators: the legend of the graph pictures; the lessons name the colours in these words
LEGEND = {  # in the order the legend lists them
    "leaf": N_("input or constant: pale yellow box, dashed border"),
    "input": N_("input (pd_op.data): pale yellow box, dashed border"),
    "param": N_("parameter: pale green box, double border"),
    "tracked": N_("tracked leaf (stop_gradient=False): pale green box, double border"),
    "value": N_("value: pale blue rounded box"),
    "op": N_("operation: grey box, square corners"),
    "new": N_("new op: orange-red (vermillion) box, thick black border, name starts with +"),
}
LEGEND["grad"] = LEGEND["new"]
LATIN_FONT = "Helvetica"

TITLE_CHARS = 60  # the title is wrapped, so it never makes the picture wider than the graph
MAX_WIDE_PX = 760  # wider than this left to right: draw top to bottom instead (if that is narrower)


def graphviz_available():
    """True when the `dot` program that draws graphs is installed."""
    return shutil.which("dot") is not None


def graph_font():
    """The font Graphviz draws in: Helvetica, or in Chinese a font with Chinese glyphs (the one
    matplotlib found, as ``setup(lang="zh")`` uses; WenQuanYi Micro Hei when none was found)."""
    if language() != "zh":
        return LATIN_FONT
    from ..session import cjk_font

    return cjk_font() or "WenQuanYi Micro Hei"


def _wrap(text, width):
    """Lines of at most ``width`` columns (a Chinese character takes two). English wraps at spaces;
    Chinese, which has none between words, breaks after a punctuation mark where the line has one, so
    a word is not cut in two ("反/向"); else at a space, else between two Chinese characters."""
    if language() != "zh":
        return textwrap.wrap(text, width) or [""]
    import re
    import unicodedata

    def columns(piece):
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in piece)

    def cut(line):
        """Where to break a full line: after its last Chinese punctuation mark, else at its last space
        when that keeps at least half the line, else before the token that did not fit."""
        marks = [i + 1 for i, ch in enumerate(line) if ch in "，；：、。！？"]
        if marks:
            return marks[-1]
        space = line.rfind(" ")
        return space if space >= 0 and columns(line[:space]) >= width // 2 else len(line)

    lines, line = [], ""
    for token in re.findall(r"\s+|[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]|[^\s\u2e80-\u9fff"
                            r"\uf900-\ufaff\uff00-\uffef\u3000-\u303f]+", text):
        while line and columns(line + token) > width and not token.isspace():
            at = cut(line)
            lines.append(line[:at].rstrip())
            line = line[at:].lstrip()
        if line or not token.isspace():
            line += token
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def _html_label_text(text):
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("\n", "<BR/>"))


@dataclass
class GraphPicture:
    """Nodes ``(id, label, kind)`` and edges ``(from_id, to_id, label)``, drawn on demand."""

    nodes: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    title: str = ""
    direction: str = "auto"  # "LR", "TB", or "auto": left to right when that fits, else top to bottom
    font_size: int = 12

    def add_node(self, node_id, label, kind="value"):
        self.nodes.append((str(node_id), label, kind))

    def add_edge(self, source, target, label=""):
        self.edges.append((str(source), str(target), label))

    def legend_label(self):
        """The picture's label: its title, then one legend row per kind of node it shows."""
        shown = {"new" if kind == "grad" else kind for _, _, kind in self.nodes}
        kinds = [kind for kind in LEGEND if kind in shown and kind != "grad"]
        rows = "".join(
            f'<TR><TD BGCOLOR="{NODE_STYLES[k]["fillcolor"]}" COLOR="{NODE_STYLES[k].get("color", "#000000")}" '
            f'BORDER="{3 if k == "new" else 1}" WIDTH="28"> </TD>'
            f'<TD ALIGN="LEFT">{_html_label_text(_(LEGEND[k]))}</TD></TR>' for k in kinds)
        legend = f'<TABLE BORDER="0" CELLSPACING="3" CELLPADDING="2">{rows}</TABLE>'
        title = ""
        if self.title:
            lines = _wrap(translate(self.title), TITLE_CHARS)
            title = f'<TR><TD ALIGN="LEFT" BALIGN="LEFT"><B>{"<BR/>".join(_html_label_text(l) for l in lines)}</B></TD></TR>'
        return f'<<TABLE BORDER="0" CELLSPACING="0" CELLPADDING="0">{title}<TR><TD ALIGN="LEFT">{legend}</TD></TR></TABLE>>'

    def digraph(self, direction=None):
        """The graph as a `graphviz.Digraph`, drawn ``direction`` ("LR" or "TB")."""
        import graphviz

        direction = direction or (self.direction if self.direction != "auto" else "LR")
        font = graph_font()
        dot = graphviz.Digraph(
            name=translate(self.title) or "graph",  # becomes the SVG's <title>
            graph_attr={"rankdir": direction, "fontname": font, "fontsize": str(self.font_size),
                        "label": self.legend_label(), "labelloc": "t", "labeljust": "l",
                        "bgcolor": "white", "pad": "0.1", "nodesep": "0.12", "ranksep": "0.3"},
            # A Chinese font's Latin letters are drawn wider in a browser than Graphviz measures them:
            # more room inside each box, so a label never touches its border.
            node_attr={"fontname": font, "fontsize": str(self.font_size),
                       "margin": "0.08,0.03" if font == LATIN_FONT else "0.2,0.05", "height": "0.3"},
            edge_attr={"color": "#333333", "arrowsize": "0.7"},
        )
        if font != LATIN_FONT:
            dot.edge_attr["fontname"] = font
        for node_id, label, kind in self.nodes:  # a lesson's own labels, in the language in force
            dot.node(node_id, translate(label), **NODE_STYLES.get(kind, {}))
        for source, target, label in self.edges:
            dot.edge(source, target, label=translate(label))
        return dot

    def svg(self):
        """SVG text drawn by Graphviz; raises graphviz.ExecutableNotFound without `dot`.

        With ``direction="auto"`` the graph goes left to right when that is at most
        ``MAX_WIDE_PX`` wide, otherwise top to bottom when that is narrower.
        """
        if self.direction != "auto":
            return self.digraph(self.direction).pipe(format="svg", quiet=True).decode("utf-8")
        wide = self.digraph("LR").pipe(format="svg", quiet=True).decode("utf-8")
        if (svg_size_px(wide)[0] or 0) <= MAX_WIDE_PX:
            return wide
        tall = self.digraph("TB").pipe(format="svg", quiet=True).decode("utf-8")
        return tall if (svg_size_px(tall)[0] or 0) < svg_size_px(wide)[0] else wide

    def _in_order(self):
        """Node ids in the order values flow: inputs first, the result last (a topological order)."""
        incoming = {node_id: 0 for node_id, _, _ in self.nodes}
        outgoing = {}
        for source, target, _label in self.edges:
            if source in incoming and target in incoming:
                incoming[target] += 1
                outgoing.setdefault(source, []).append(target)
        position = {node_id: i for i, (node_id, _, _) in enumerate(self.nodes)}
        if all(position[s] < position[t] for s, t, _ in self.edges if s in position and t in position):
            return [node_id for node_id, _, _ in self.nodes]  # added in flow order already: keep the author's order
        ready = [node_id for node_id, _, _ in self.nodes if incoming[node_id] == 0]
        order = []
        while ready:
            ready.sort(key=position.get)
            node_id = ready.pop(0)
            order.append(node_id)
            for target in outgoing.get(node_id, []):
                incoming[target] -= 1
                if incoming[target] == 0:
                    ready.append(target)
        order += [node_id for node_id, _, _ in self.nodes if node_id not in order]  # a cycle (never in our graphs)
        return order

    def alt_text(self):
        """One sentence for a screen reader: the title, every node in the order values flow, and the result."""
        labels = {node_id: " ".join(translate(label).split()) for node_id, label, _kind in self.nodes}
        order = self._in_order()
        sinks = [n for n in order if not any(source == n for source, _target, _label in self.edges)]
        text = _("Graph: {title}. ").format(title=translate(self.title)) if self.title else _("Graph. ")
        # Translators: {nodes} are the nodes' labels joined by "; "
        text += _("{count} nodes in order: {nodes}.").format(count=len(order), nodes="; ".join(labels[n] for n in order))
        if sinks and self.edges:
            # Translators: put after the list of nodes, with its leading space
            text += _(" Result: {nodes}.").format(nodes="; ".join(labels[n] for n in sinks))
        return text

    def text(self):
        """A readable listing: one line per node with what flows into it."""
        labels = {node_id: translate(label).replace("\n", " ") for node_id, label, _ in self.nodes}
        incoming = {}
        for source, target, label in self.edges:
            incoming.setdefault(target, []).append(labels.get(source, source) + (f" ({translate(label)})" if label else ""))
        lines = [translate(self.title)] if self.title else []
        for node_id, label, kind in self.nodes:
            line = f"[{kind}] {labels[node_id]}"
            if node_id in incoming:
                line += "  <-  " + ", ".join(incoming[node_id])
            lines.append(line)
        return "\n".join(lines)

    def html(self):
        """The picture as HTML: scalable image with alt text on a light card, the listing beneath."""
        return svg_html(self.svg(), self.alt_text(), self.text())

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text()}
        if graphviz_available():
            bundle["text/html"] = self.html()
        return bundle
