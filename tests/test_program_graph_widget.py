"""ProgramGraph (state) and ProgramGraphView (ipywidgets view), tested without a browser."""
import shutil
from unittest import mock

import pytest

import paddlecourse
from paddlecourse.widgets import program_graph
from paddlecourse.widgets.program_graph import ProgramGraph, ProgramGraphView, show_program

paddle = pytest.importorskip("paddle")


def build(optimizer=None, control_flow=False):
    """A tiny regression program; returns (main, startup, before, after) snapshots."""
    with paddlecourse.static_mode(), paddle.utils.unique_name.guard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [None, 3], "float32")
            y = paddle.static.data("y", [None, 1], "float32")
            pred = paddle.static.nn.fc(x, 1, name="fc")
            if control_flow:
                pred = paddle.static.nn.cond(paddle.mean(x) > 0, lambda: pred * 2.0, lambda: pred - 1.0)
            loss = paddle.mean((pred - y) ** 2)
            before = ProgramGraph(main, title="before minimize")
            after = None
            if optimizer is not None:
                optimizer(0.1).minimize(loss)
                after = ProgramGraph(main, title="after minimize", before=before)
    return main, startup, before, after


def test_snapshot_counts_ops_and_reads_shapes():
    _, _, graph, _ = build()
    assert graph.num_ops == 11
    counts = graph.op_counts()
    assert counts["builtin.parameter"] == 2 and counts["pd_op.data"] == 2 and counts["pd_op.matmul"] == 1
    x = next(op for op in graph.ops if op.label == "pd_op.data 'x'")
    value = graph.values[x.outputs[0]]
    assert value.shape == (-1, 3) and value.dtype == "f32" and value.type_text == "-1x3xf32"
    assert graph.new_ops() == [] and "new" not in graph.summary()


def test_snapshot_is_frozen_while_the_program_grows():
    main, _, before, after = build(optimizer=paddle.optimizer.SGD)
    assert before.num_ops == 11  # taken before minimize: later ops do not leak in
    assert after.num_ops == main.num_ops() == 21


def test_compare_marks_backward_and_optimizer_ops_new():
    _, _, before, after = build(optimizer=paddle.optimizer.SGD)
    new = after.new_ops()
    assert len(new) == 10 and new.count("pd_op.sgd_") == 2
    assert all(name.endswith("_grad") for name in new if "grad" in name)
    kinds = after.kinds(only_new=True)
    assert kinds["backward"] == 5 and kinds["optimizer"] == 2
    assert "10 new" in after.summary()
    assert sum(line.startswith("+") for line in after.listing().splitlines()) == 10


def test_adam_adds_more_ops_than_sgd():
    _, _, _, sgd = build(optimizer=paddle.optimizer.SGD)
    _, _, _, adam = build(optimizer=paddle.optimizer.Adam)
    assert adam.kinds(only_new=True)["optimizer"] == 2
    assert adam.num_ops > sgd.num_ops


def test_inspect_op_and_value_give_shape_and_dtype():
    _, _, _, after = build(optimizer=paddle.optimizer.SGD)
    names = after.node_names()
    matmul = next(n for n in names if n.endswith("pd_op.matmul"))
    text = after.inspect(matmul)
    assert "pd_op.matmul" in text and "shape [-1, 1], dtype f32" in text
    value_text = after.inspect("%2")
    assert value_text.startswith("%2: shape [3, 1], dtype f32") and "fc.w_0" in value_text
    sgd = next(op for op in after.ops if op.name == "pd_op.sgd_")
    assert "optional input, not given" in after.inspect(sgd.index)
    assert "empty slot" in after.inspect(sgd.index)
    assert after.inspect(sgd.index) == after.inspect(f"op {sgd.index}: whatever label")


def test_control_flow_blocks_live_inside_the_if_op():
    main, _, graph, _ = build(control_flow=True)
    assert main.num_blocks == graph.num_blocks == 1
    if_op = next(op for op in graph.ops if op.name == "pd_op.if")
    assert if_op.kind == "control flow" and len(if_op.blocks) == 2
    assert "cf.yield" in if_op.blocks[0]
    assert "[2 blocks inside]" in graph.listing()
    assert "block 1 inside" in graph.inspect(if_op.index)


def test_listing_is_deterministic_across_builds():
    assert build()[2].listing() == build()[2].listing()


def test_picture_has_one_node_per_op_and_its_results_in_the_label():
    _, _, graph, _ = build()
    picture = graph.picture()
    ids = [node_id for node_id, _, _ in picture.nodes]
    assert len(ids) == len(set(ids))
    # 4 parameter/data ops become 4 boxes; the 7 other ops one node each, naming the value they make
    assert len(ids) == 4 + 7
    assert {kind for _, _, kind in picture.nodes} == {"param", "input", "op"}
    matmul = next(label for _, label, _ in picture.nodes if label.startswith("pd_op.\nmatmul"))
    assert "-1x1xf32" in matmul  # the result's type is on the op
    assert len(picture.edges) == sum(isinstance(n, int) for op in graph.ops for n in op.inputs)


def test_the_legend_names_every_kind_of_node_the_picture_draws():
    from paddlecourse.widgets.graphs import LEGEND

    for picture in (build()[2].picture(), build(control_flow=True)[2].picture()):
        legend = picture.legend_label()
        for kind in {kind for _, _, kind in picture.nodes}:
            assert LEGEND[kind].split(":")[0] in legend, f"the legend has no row for {kind!r}"


def test_only_new_picture_shows_every_new_op_and_nothing_else_computed():
    _, _, _, after = build(optimizer=paddle.optimizer.SGD)
    picture = after.picture(only_new=True)
    drawn_ops = [label for _, label, kind in picture.nodes if kind in ("op", "new")]
    assert len(drawn_ops) == len(after.new_ops()) == 10
    assert all(label.startswith("+ ") for label in drawn_ops)
    assert {kind for _, _, kind in picture.nodes} <= {"new", "param", "input", "value"}
    # a value made by a hidden (forward) op says which op made it
    assert any("from " in label for _, label, kind in picture.nodes if kind == "value")
    assert "only the 10 new ops" in picture.title
    whole = after.picture()
    assert sum(kind == "new" for _, _, kind in whole.nodes) == 10 and any(k == "op" for _, _, k in whole.nodes)


def test_mimebundle_text_always_and_picture_only_with_graphviz():
    _, _, graph, _ = build()
    bundle = graph._repr_mimebundle_()
    assert bundle["text/plain"] == graph.listing()
    if shutil.which("dot"):
        html = bundle["text/html"]
        assert 'alt="Program graph: before minimize: 11 ops' in html and "data:image/svg+xml;base64," in html
        assert "<details" in html and "pd_op.matmul" in html  # the listing, reachable as text
        assert "<title>before minimize" in graph.svg() and "<title>%3" not in graph.svg()
    with mock.patch.object(program_graph, "graphviz_available", return_value=False):
        assert graph.svg() is None
        assert set(graph._repr_mimebundle_()) == {"text/plain"}


def test_view_buttons_switch_snapshots_and_dropdown_inspects():
    _, _, before, after = build(optimizer=paddle.optimizer.SGD)
    view = show_program(after, before=before)
    assert isinstance(view, ProgramGraphView)
    # the shown snapshot and drawing say so in text (✓), not by shade alone
    assert [b.description for b in view.buttons] == ["Before minimize", "✓ After minimize"]
    assert [b.description for b in view.scope_buttons.values()] == ["✓ Only the new ops", "Whole program"]
    assert "21 ops" in view.status.value and "10 new" in view.status.value
    assert "Drawn: only the 10 new ops" in view.drawing.value or not shutil.which("dot")
    view.buttons[0].click()
    assert view.showing == "before" and "11 ops" in view.status.value
    assert [b.description for b in view.buttons] == ["✓ Before minimize", "After minimize"]
    assert len(view.node.options) == len(before.node_names())
    view.node.value = "%1"
    assert "shape [3, 1]" in view.details.value
    view.buttons[1].click()
    assert view.showing == "after" and "21 ops" in view.status.value
    assert view.node.value == "%1"  # the picked node stays picked when it exists in both


def test_view_text_fallback_without_graphviz():
    _, _, graph, _ = build()
    with mock.patch.object(program_graph, "graphviz_available", return_value=False):
        view = show_program(graph)
        assert view.buttons == [] and view.drawing.value.startswith("<pre>")
        bundle = view._repr_mimebundle_()
    assert bundle["text/plain"] == graph.listing()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"].startswith("<pre>")


def test_view_bundle_carries_the_picture_for_static_renderers():
    if not shutil.which("dot"):
        pytest.skip("Graphviz's dot is not installed")
    _, _, before, after = build(optimizer=paddle.optimizer.SGD)
    view = show_program(after, before=before)
    bundle = view._repr_mimebundle_()
    assert bundle["text/html"] == view.html("after") and "application/vnd.jupyter.widget-view+json" in bundle
    view.scope_buttons["all"].click()
    assert view.drawing.value == after.html(only_new=False) != view.html("before")
    view.buttons[0].click()
    assert view.drawing.value == view.html("before") == before.html()


def test_show_program_accepts_a_program():
    main, _, graph, _ = build()
    view = show_program(main, title="t")
    assert view.graph.num_ops == graph.num_ops and view.graph.title == "t"


def test_values_that_are_not_dense_tensors_are_listed_not_fatal():
    with paddlecourse.static_mode(), paddle.utils.unique_name.guard():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            a = paddle.static.data("a", [None, 2], "float32")
            b = paddle.static.data("b", [None, 3], "float32")
            paddle.concat([a, b], axis=1)  # builtin.combine makes a vector of tensors
        graph = ProgramGraph(main)
    combine = next(op for op in graph.ops if op.name == "builtin.combine")
    assert graph.values[combine.outputs[0]].dtype == "?"
    assert "builtin.combine" in graph.listing() and graph.picture().nodes


def test_friendly_error_for_something_that_is_not_a_program():
    with pytest.raises(TypeError, match="needs a static Program"):
        ProgramGraph("main")
