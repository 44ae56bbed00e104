"""autograd_graph(): the picture is built from Paddle's real backward nodes."""
import os

os.environ.setdefault("GLOG_minloglevel", "2")

import paddle
import pytest

from paddlecourse.widgets import graphs
from paddlecourse.widgets.autograd_graph import autograd_graph, backward_nodes


@pytest.fixture
def lesson_graph():
    w = paddle.to_tensor([2.0], stop_gradient=False)
    x = paddle.to_tensor([3.0], stop_gradient=False)
    b = paddle.to_tensor([1.0], stop_gradient=False)
    z = (w * x + b) ** 2
    return w, x, b, z


def test_backward_nodes_follow_the_forward_ops(lesson_graph):
    *_, z = lesson_graph
    nodes = backward_nodes(z)
    assert [name for name, _ in nodes] == [
        "PowGradNode", "AddGradNode", "MultiplyGradNode",
        "GradNodeAccumulation", "GradNodeAccumulation", "GradNodeAccumulation",
    ]
    assert nodes[0][1] == [1]  # pow's input is the add


def test_picture_names_the_leaves(lesson_graph):
    w, x, b, z = lesson_graph
    z.backward()
    text = autograd_graph(z, w=w, x=x, b=b).text()
    assert "w = 2" in text and "grad 42" in text
    assert "x = 3" in text and "grad 28" in text
    assert "b = 1" in text and "grad 14" in text
    assert "[PowGradNode]" in text and "z = 49" in text


def test_untracked_input_is_a_constant():
    w = paddle.to_tensor([2.0], stop_gradient=False)
    x = paddle.to_tensor([3.0])  # stop_gradient=True by default
    z = (w * x) ** 2
    text = autograd_graph(z, w=w, x=x).text()
    assert "constant (stop_gradient=True)" in text
    assert "x = 3" not in text


def test_result_without_graph():
    text = autograd_graph(paddle.to_tensor([1.0]), name="c").text()
    assert "no graph recorded" in text


def test_text_fallback_without_graphviz(lesson_graph, monkeypatch):
    w, x, b, z = lesson_graph
    monkeypatch.setattr(graphs, "graphviz_available", lambda: False)
    bundle = autograd_graph(z, w=w, x=x, b=b)._repr_mimebundle_()
    assert set(bundle) == {"text/plain"}


@pytest.mark.skipif(not graphs.graphviz_available(), reason="Graphviz `dot` not installed")
def test_svg_when_graphviz_present(lesson_graph):
    w, x, b, z = lesson_graph
    assert "<svg" in autograd_graph(z, w=w, x=x, b=b).svg()


def test_alt_text_lists_the_nodes_in_flow_order_and_the_result(lesson_graph):
    w, x, b, z = lesson_graph
    z.backward()
    alt = autograd_graph(z, w=w, x=x, b=b).alt_text()
    order = [alt.index(part) for part in ("w = 2", "x = 3", "[MultiplyGradNode]", "[AddGradNode]",
                                          "[PowGradNode]", "z = 49")]
    assert order == sorted(order)
    assert alt.endswith("Result: z = 49.")


@pytest.mark.skipif(not graphs.graphviz_available(), reason="Graphviz `dot` not installed")
def test_picture_speaks_fits_and_has_a_legend(lesson_graph):
    from paddlecourse.widgets.figures import svg_min_font_px, svg_size_px

    w, x, b, z = lesson_graph
    picture = autograd_graph(z, w=w, x=x, b=b)
    svg = picture.svg()
    assert "<title>autograd graph of z" in svg and "<title>%3</title>" not in svg
    assert "tracked leaf (stop_gradient=False): pale green box, double border" in svg  # the legend, in the picture
    assert "parameter:" not in svg  # w, x and b are tracked tensors, not parameters of a layer
    width, _ = svg_size_px(svg)
    assert width <= 760  # long graphs go top to bottom (left to right it was 1097 px)
    assert svg_min_font_px(svg) * min(1, 560 / width) >= 9  # readable at the narrowest output (1024 px page)
    html = picture._repr_mimebundle_()["text/html"]
    assert f'alt="{picture.alt_text()}"' in html and "max-width:100%" in html and "<details" in html
