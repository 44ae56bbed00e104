"""GraphPicture: draw a small computation graph with Graphviz, or as text where it is missing.

Both graph views (the autograd tape of lesson 02, the static Program of lesson
04) describe their graph as nodes and edges and hand it to this class; it owns
the drawing, so the views only decide what the graph *is*.
"""
import shutil
from dataclasses import dataclass, field

NODE_STYLES = {
    # kind: graphviz node attributes
    "value": {"shape": "box", "style": "rounded,filled", "fillcolor": "#e8f1fb"},
    "leaf": {"shape": "box", "style": "rounded,filled", "fillcolor": "#fdf0d5"},
    "op": {"shape": "ellipse", "style": "filled", "fillcolor": "#eeeeee"},
    "grad": {"shape": "ellipse", "style": "filled", "fillcolor": "#fbe3e3"},
    "param": {"shape": "box", "style": "rounded,filled", "fillcolor": "#dff3e4"},
}


def graphviz_available():
    """True when the `dot` program that draws graphs is installed."""
    return shutil.which("dot") is not None


@dataclass
class GraphPicture:
    """Nodes ``(id, label, kind)`` and edges ``(from_id, to_id, label)``, drawn on demand."""

    nodes: list = field(default_factory=list)
    edges: list = field(default_factory=list)
    title: str = ""

    def add_node(self, node_id, label, kind="value"):
        self.nodes.append((str(node_id), label, kind))

    def add_edge(self, source, target, label=""):
        self.edges.append((str(source), str(target), label))

    def digraph(self):
        """The graph as a `graphviz.Digraph` (layout is left to Graphviz)."""
        import graphviz

        dot = graphviz.Digraph(graph_attr={"rankdir": "LR", "fontname": "Helvetica", "label": self.title},
                               node_attr={"fontname": "Helvetica", "fontsize": "11"})
        for node_id, label, kind in self.nodes:
            dot.node(node_id, label, **NODE_STYLES.get(kind, {}))
        for source, target, label in self.edges:
            dot.edge(source, target, label=label)
        return dot

    def svg(self):
        """SVG text drawn by Graphviz; raises graphviz.ExecutableNotFound without `dot`."""
        return self.digraph().pipe(format="svg").decode("utf-8")

    def text(self):
        """A readable listing: one line per node with what flows into it."""
        labels = {node_id: label.replace("\n", " ") for node_id, label, _ in self.nodes}
        incoming = {}
        for source, target, label in self.edges:
            incoming.setdefault(target, []).append(labels.get(source, source) + (f" ({label})" if label else ""))
        lines = [self.title] if self.title else []
        for node_id, label, kind in self.nodes:
            line = f"[{kind}] {labels[node_id]}"
            if node_id in incoming:
                line += "  <-  " + ", ".join(incoming[node_id])
            lines.append(line)
        return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text()}
        if graphviz_available():
            bundle["image/svg+xml"] = self.svg()
        return bundle
