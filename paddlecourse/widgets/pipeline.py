"""The one picture of the course's pipeline: eager model -> to_static -> jit.save -> jit.load / predictor.

Drawn with the course's Graphviz tooling (GraphPicture), so it looks like the
other graph views, and it has a text form for screen readers and for machines
without Graphviz. The glossary shows it.
"""
from ..language import _, N_
from .graphs import GraphPicture, graph_font

# (id, label, kind) in the order a model travels; kinds reuse GraphPicture's styles:
# values are things you hold, ops are the calls that turn one into the next.
# Translators: the pipeline picture's boxes; each "\n" starts a new line in the box
STAGES = (
    ("eager", N_("eager model\n(paddle.nn.Layer, dynamic graph)"), "value"),
    ("to_static", N_("paddle.jit.to_static\n(SOT, or AST with full_graph=True)"), "op"),
    ("program", N_("static program\n(PIR ops and values)"), "value"),
    ("jit_save", "paddle.jit.save", "op"),
    ("files", N_("model.json + model.pdiparams\n(program + weights)"), "param"),
    ("jit_load", N_("paddle.jit.load\n(Python, no model code needed)"), "op"),
    ("predictor", N_("Paddle Inference predictor\n(Python or C++; fuses ops, oneDNN on CPU)"), "op"),
)
STEPS = (
    ("eager", "to_static", ""),
    ("to_static", "program", "InputSpec([None, ...])"),
    ("program", "jit_save", ""),
    ("jit_save", "files", ""),
    ("files", "jit_load", ""),
    ("files", "predictor", ""),
)
TITLE = N_("From a dynamic model to a deployed static one")


class PipelinePicture(GraphPicture):
    """GraphPicture drawn top to bottom: seven stages side by side are too wide for a notebook."""

    def digraph(self, direction=None):
        dot = super().digraph("TB")
        dot.edge_attr.update(fontname=graph_font(), fontsize="10")
        return dot


def pipeline_picture():
    """The pipeline as a GraphPicture: shows as SVG in Jupyter, as text elsewhere."""
    picture = PipelinePicture(title=_(TITLE))
    for node_id, label, kind in STAGES:
        picture.add_node(node_id, _(label), kind)
    for source, target, label in STEPS:
        picture.add_edge(source, target, label)
    return picture


def pipeline_png(dpi=96):
    """The picture as PNG bytes, in the language in force: the glossary's attachment (JupyterLab 4 shows
    only bitmap attachments), redrawn for each edition by ``paddlecourse build``."""
    dot = pipeline_picture().digraph()
    dot.graph_attr["dpi"] = str(dpi)
    return dot.pipe(format="png", quiet=True)


def pipeline_text():
    """The picture in words, one step a line (the glossary's text equivalent)."""
    labels = {node_id: " ".join(_(label).split("\n")) for node_id, label, _kind in STAGES}
    lines = []
    for source, target, label in STEPS:
        if label:
            # Translators: one step of the pipeline in words; {via} is code, e.g. InputSpec([None, ...])
            lines.append(_("{source} → {target} (with {via})").format(source=labels[source], target=labels[target],
                                                                     via=label))
        else:
            lines.append(f"{labels[source]} → {labels[target]}")
    return "\n".join(lines)
