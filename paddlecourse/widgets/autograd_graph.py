"""The autograd graph behind a dynamic-mode tensor, read from Paddle itself.

In Paddle 3.3.1 every tensor produced by a tracked operation has ``grad_fn``:
the backward node that ``backward()`` will run for it (``PowGradNode``,
``MultiplyGradNode``, ...). Each node's ``next_functions`` lists the nodes for
its inputs, with ``None`` for an input Paddle does not track
(``stop_gradient=True``). A tracked leaf (a parameter, or a tensor you made
with ``stop_gradient=False``) ends in a ``GradNodeAccumulation``: the node that
*adds* the incoming gradient to ``leaf.grad``. That is why gradients accumulate.

``autograd_graph(z, w=w, x=x)`` walks those real nodes and returns a
``GraphPicture`` (Graphviz SVG, or a text listing where Graphviz is missing).
Leaves are recognised by comparing their own ``grad_fn.node_ptr()`` with the
nodes met on the walk, so the names you pass appear on the picture.
"""
from ..language import _
from .graphs import GraphPicture

# Backward node name -> the forward operation a learner wrote.
_FRIENDLY = {
    "AddGradNode": "+", "SubtractGradNode": "-", "MultiplyGradNode": "*", "DivideGradNode": "/",
    "PowGradNode": "** (pow)", "MatmulGradNode": "matmul", "SumGradNode": "sum", "MeanGradNode": "mean",
    "ReluGradNode": "relu", "ScaleGradNode": "scale", "ExpGradNode": "exp", "TanhGradNode": "tanh",
    "SquareGradNode": "square", "SigmoidGradNode": "sigmoid",
}
ACCUMULATION = "GradNodeAccumulation"


def _node_name(node):
    return node.name() if hasattr(node, "name") else type(node).__name__


def _value_text(tensor, limit=4):
    """'= 2.0' for a small tensor, its shape for a large one."""
    try:
        values = tensor.numpy().reshape(-1)
    except Exception:  # a symbolic value, or a tensor that cannot be read
        return ""
    if values.size <= limit:
        return "= " + ", ".join(f"{v:.4g}" for v in values)
    return _("shape {shape}").format(shape=list(tensor.shape))


def _grad_text(tensor):
    grad = getattr(tensor, "grad", None)
    return "grad None" if grad is None else "grad " + _value_text(grad).removeprefix("= ")  # code: tensor.grad


def backward_nodes(result):
    """The backward nodes reachable from ``result.grad_fn``, as (name, [child indices or None]) in walk order.

    A plain structure for tests and for learners who print it.
    """
    root = getattr(result, "grad_fn", None)
    if root is None:
        return []
    order, index_of = [], {}

    def visit(node):
        key = node.node_ptr()
        if key in index_of:
            return index_of[key]
        index_of[key] = len(order)
        entry = [_node_name(node), []]
        order.append(entry)
        entry[1] = [None if child is None else visit(child) for child in node.next_functions]
        return index_of[key]

    visit(root)
    return [tuple(entry) for entry in order]


def autograd_graph(result, name="z", show_grads=True, **leaves):
    """A picture of the graph that produced ``result``: leaves -> operations -> result.

    ``leaves`` names the tensors to label (``w=w, x=x, b=b``). Edges follow the
    forward direction (the way the values flowed); ``backward()`` walks them in
    reverse. An input with ``stop_gradient=True`` appears as a grey constant.
    """
    picture = GraphPicture(title=_("autograd graph of {name}: arrows show the forward pass; backward() walks them in "
                                   "reverse").format(name=name))
    root = getattr(result, "grad_fn", None)
    if root is None or getattr(result, "stop_gradient", True):
        picture.add_node("result", f"{name} {_value_text(result)}\n" + _("(stop_gradient=True: no graph recorded)"),
                         "value")
        return picture

    leaf_by_ptr = {}
    for leaf_name, tensor in leaves.items():
        node = getattr(tensor, "grad_fn", None)
        if node is not None and not tensor.stop_gradient and _node_name(node) == ACCUMULATION:
            leaf_by_ptr[node.node_ptr()] = (leaf_name, tensor)

    ids = {}
    counter = {"constant": 0}

    def visit(node):
        key = node.node_ptr()
        if key in ids:
            return ids[key]
        node_id = f"n{len(ids)}"
        ids[key] = node_id
        kind_name = _node_name(node)
        if kind_name == ACCUMULATION:
            leaf_name, tensor = leaf_by_ptr.get(key, (_("leaf"), None))
            label = leaf_name
            if tensor is not None:
                label += f" {_value_text(tensor)}"
                if show_grads:
                    label += f"\n{_grad_text(tensor)}"
            picture.add_node(node_id, label + f"\n[{ACCUMULATION}]", "tracked" if tensor is not None else "leaf")
            return node_id
        op = _FRIENDLY.get(kind_name, kind_name.removesuffix("GradNode").lower())
        picture.add_node(node_id, f"{op}\n[{kind_name}]", "op")
        for child in node.next_functions:
            if child is None:
                counter["constant"] += 1
                const_id = f"c{counter['constant']}"
                # Translators: a node of the autograd picture; "\n" starts its second line
                picture.add_node(const_id, _("constant\n(stop_gradient=True)"), "leaf")
                picture.add_edge(const_id, node_id)
            else:
                picture.add_edge(visit(child), node_id)
        return node_id

    top = visit(root)
    label = f"{name} {_value_text(result)}"
    picture.add_node("result", label, "value")
    picture.add_edge(top, "result")
    return picture
