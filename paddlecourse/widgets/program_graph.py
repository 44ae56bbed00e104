"""Program graph view: a picture of a static Program - its ops, the values between them, what changed.

`ProgramGraph(program)` takes a snapshot of a Program's global block (ops keep
being appended to a Program, so a snapshot is what lets you compare *before*
and *after* ``minimize``). It draws itself through `GraphPicture` (Graphviz,
or a text listing where the `dot` program is missing), describes any node's
shape and dtype with `inspect()`, and lists the ops that are new since an
earlier snapshot. `show_program()` puts an ipywidgets view on top: buttons to
switch between the two snapshots and a drop-down to inspect a node.

    before = ProgramGraph(main, title="before minimize")
    optimizer.minimize(loss)            # inside program_guard
    after = ProgramGraph(main, title="after minimize")
    show_program(after, before=before)
"""
from collections import Counter
from dataclasses import dataclass, field
from html import escape

from .graphs import GraphPicture, graphviz_available

# Attributes that say where an op was created (file paths) or how it is scheduled, not what it computes.
HIDDEN_ATTRS = {"op_callstack", "op_role", "op_namescope", "chunk_id", "op_dist_attr", "struct_name"}
MAX_DRAWN_OPS = 120  # a larger program is listed as text only: a picture of it would not help


@dataclass
class ValueInfo:
    """One value (a result of an op): its number in the listing, shape and dtype."""

    number: int
    shape: tuple
    dtype: str
    producer: int  # index of the op that made it
    users: list = field(default_factory=list)  # indexes of the ops that read it

    @property
    def name(self):
        return f"%{self.number}"

    @property
    def type_text(self):
        """Shape and dtype the way PIR prints them: ``-1x784xf32``."""
        dims = "x".join(str(d) for d in self.shape)
        return f"{dims}x{self.dtype}" if dims else self.dtype


@dataclass
class OpInfo:
    """One op: its name (``pd_op.matmul``), the values it reads and makes, its attributes."""

    index: int
    name: str
    inputs: list  # value numbers, or None for a value defined outside this block
    outputs: list  # value numbers
    attrs: dict
    blocks: list  # for control flow: the op names inside each of its blocks
    new: bool = False  # appended since the snapshot this one is compared with

    @property
    def kind(self):
        """parameter / data / constant / control flow / backward / optimizer / compute."""
        if self.name == "builtin.parameter":
            return "parameter"
        if self.name == "pd_op.data":
            return "data"
        if self.name in CONSTANT_OPS:
            return "constant"
        if self.blocks:
            return "control flow"
        if self.name.endswith("_grad"):
            return "backward"
        if self.name.rstrip("_") in OPTIMIZER_OPS:
            return "optimizer"
        return "compute"

    @property
    def label(self):
        """The op's name, plus the name that says which parameter or input it is."""
        extra = self.attrs.get("parameter_name") or (self.attrs.get("name") if self.name == "pd_op.data" else None)
        return f"{self.name} '{extra}'" if extra else self.name


CONSTANT_OPS = {"pd_op.full", "pd_op.full_like", "pd_op.full_int_array", "pd_op.assign_value_"}
OPTIMIZER_OPS = {"pd_op.sgd", "pd_op.adam", "pd_op.adamw", "pd_op.momentum", "pd_op.rmsprop", "pd_op.adagrad",
                 "pd_op.lamb", "pd_op.adamax", "pd_op.adadelta"}


def _short_dtype(dtype):
    """DataType.FLOAT32 -> f32, the way PIR prints tensor types."""
    text = str(dtype).split(".")[-1].split(":")[0].lower()
    table = {"float32": "f32", "float64": "f64", "float16": "f16", "bfloat16": "bf16", "int64": "i64",
             "int32": "i32", "int16": "i16", "int8": "i8", "uint8": "ui8", "bool": "b"}
    return table.get(text, text)


def _blocks_text(blocks):
    return f"[{len(blocks)} block{'' if len(blocks) == 1 else 's'} inside]"


def _attr_text(value):
    if isinstance(value, list) and len(value) == 1 and isinstance(value[0], bool):
        value = value[0]  # PIR stores flags as one-element lists
    text = str(value)
    if "DataType." in text:
        text = _short_dtype(value)
    return text if len(text) <= 40 else text[:37] + "..."


NOT_GIVEN = "none"  # an optional input left empty (e.g. sgd_'s master_param)
OUTSIDE = "outer"  # a value defined outside this block


def _snapshot(block):
    """Read a PIR block into (ops, values) lists of plain objects, numbering values in order.

    An op's empty result slot (e.g. the gradient of a constant, which nobody
    needs) is None in its outputs and gets no value number.
    """
    numbers = {}  # (op id, result index) -> value number
    ops, values = [], []
    for index, op in enumerate(block.ops):
        inputs = []
        for source in op.operands_source():
            producer = source.get_defining_op() if source.initialized() else None
            if not source.initialized():
                inputs.append(NOT_GIVEN)
            elif producer is None:
                inputs.append(OUTSIDE)
            else:
                inputs.append(numbers.get((producer.id(), source.index()), OUTSIDE))
        outputs = []
        for position, result in enumerate(op.results()):
            if not result.initialized():
                outputs.append(None)
                continue
            number = len(values)
            numbers[(op.id(), position)] = number
            try:
                shape, dtype = tuple(int(d) for d in result.shape), _short_dtype(result.dtype)
            except Exception:  # a value that is not a dense tensor (rare in lesson programs)
                shape, dtype = (), "?"
            values.append(ValueInfo(number, shape, dtype, index))
            outputs.append(number)
        attrs = {k: _attr_text(v) for k, v in sorted(op.attrs().items()) if k not in HIDDEN_ATTRS}
        blocks = [[inner.name() for inner in sub.ops] for sub in op.blocks()] if op.num_regions() else []
        ops.append(OpInfo(index, op.name(), inputs, outputs, attrs, blocks))
        for number in inputs:
            if isinstance(number, int):
                values[number].users.append(index)
    op_ids = [op.id() for op in block.ops]
    return ops, values, op_ids


class ProgramGraph:
    """A snapshot of a static Program's global block: ops and values, drawable and inspectable."""

    def __init__(self, program, title="", before=None):
        if not hasattr(program, "global_block"):
            raise TypeError(f"ProgramGraph needs a static Program (paddle.static.Program()), not a {type(program).__name__}.")
        if not hasattr(program, "num_ops"):
            raise TypeError("ProgramGraph reads PIR programs, Paddle 3's default; this one is a legacy-IR Program "
                            "(FLAGS_enable_pir_api=0).")
        self.title = title
        self.ops, self.values, self._op_ids = _snapshot(program.global_block())
        self.num_blocks = program.num_blocks
        if before is not None:
            self.compare_with(before)

    # ------------------------------------------------------------ counting
    @property
    def num_ops(self):
        return len(self.ops)

    def op_counts(self):
        """How many ops of each name, e.g. {'pd_op.matmul': 2, ...}."""
        return Counter(op.name for op in self.ops)

    def compare_with(self, before):
        """Mark the ops that were not in ``before`` (an earlier snapshot of the same program) as new."""
        seen = set(before._op_ids)
        for op, op_id in zip(self.ops, self._op_ids):
            op.new = op_id not in seen
        return self

    def new_ops(self):
        """Names of the ops marked new by `compare_with`, in program order."""
        return [op.name for op in self.ops if op.new]

    def kinds(self, only_new=False):
        """How many ops of each kind (forward, backward, optimizer, parameter, data ...)."""
        return Counter(op.kind for op in self.ops if op.new or not only_new)

    def summary(self):
        """One line: how many ops, and what the new ones are."""
        line = f"{self.title + ': ' if self.title else ''}{self.num_ops} ops, {len(self.values)} values"
        if any(op.new for op in self.ops):
            kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(self.kinds(only_new=True).items()))
            line += f" ({len(self.new_ops())} new: {kinds})"
        return line

    # ------------------------------------------------------------ inspecting
    def node_names(self):
        """Every node a learner can inspect: ops as 'op 3: pd_op.matmul', values as '%4'."""
        return [f"op {op.index}: {op.label}" for op in self.ops] + [v.name for v in self.values]

    def inspect(self, node):
        """A few lines about one node: an op (index or 'op 3...') or a value (number or '%4')."""
        if isinstance(node, str) and node.startswith("%"):
            return self._inspect_value(self.values[int(node[1:])])
        if isinstance(node, str) and node.startswith("op "):
            node = int(node[3:].split(":")[0])
        return self._inspect_op(self.ops[int(node)])

    def _value_text(self, number):
        if number == NOT_GIVEN:
            return "(an optional input, not given)"
        if number == OUTSIDE:
            return "(a value from outside this block)"
        value = self.values[number]
        return f"{value.name}: {value.type_text}  from {self.ops[value.producer].label}"

    def _inspect_op(self, op):
        lines = [f"op {op.index}: {op.name}  ({op.kind}{', new' if op.new else ''})"]
        lines += [f"  in : {self._value_text(n)}" for n in op.inputs] or ["  in : nothing"]
        lines += [f"  out: {self.values[n].name}: shape {list(self.values[n].shape)}, dtype {self.values[n].dtype}"
                  if n is not None else "  out: (an empty slot: nothing needs this result)"
                  for n in op.outputs] or ["  out: nothing"]
        if op.attrs:
            lines.append("  attributes: " + ", ".join(f"{k}={v}" for k, v in op.attrs.items()))
        for number, names in enumerate(op.blocks):
            lines.append(f"  block {number} inside: " + ", ".join(names))
        return "\n".join(lines)

    def _inspect_value(self, value):
        users = ", ".join(f"op {i}: {self.ops[i].name}" for i in value.users) or "no op (a fetchable end result)"
        return "\n".join([
            f"{value.name}: shape {list(value.shape)}, dtype {value.dtype}",
            f"  made by : op {value.producer}: {self.ops[value.producer].label}",
            f"  read by : {users}",
        ])

    # ------------------------------------------------------------ drawing
    def listing(self):
        """The program as text, one op per line, with value types (new ops marked +)."""
        lines = [self.summary()]
        for op in self.ops:
            outs = ", ".join("_" if n is None else self.values[n].name for n in op.outputs)
            ins = ", ".join(self.values[n].name if isinstance(n, int) else n for n in op.inputs)
            types = ", ".join("_" if n is None else self.values[n].type_text for n in op.outputs)
            mark = "+" if op.new else " "
            left = f"{outs} = " if outs else ""
            inner = "  " + _blocks_text(op.blocks) if op.blocks else ""
            lines.append(f"{mark} {left}{op.label}({ins}){' -> ' + types if types else ''}{inner}")
        return "\n".join(lines)

    def picture(self):
        """A GraphPicture: op nodes (ellipses), value nodes (boxes with shape and dtype), new ops in red."""
        picture = GraphPicture(title=self.summary())
        for op in self.ops:
            if op.kind in ("parameter", "data") and len(op.outputs) == 1:  # drawn as one box: the value
                value = self.values[op.outputs[0]]
                name = op.attrs.get("parameter_name") or op.attrs.get("name") or value.name
                kind = "param" if op.kind == "parameter" else "leaf"
                picture.add_node(f"v{value.number}", f"{name}\n{value.type_text}", kind)
                continue
            label = op.name + ("\n" + _blocks_text(op.blocks) if op.blocks else "")
            picture.add_node(f"op{op.index}", ("+ " if op.new else "") + label, "grad" if op.new else "op")
            for number in op.inputs:
                if isinstance(number, int):
                    picture.add_edge(f"v{number}", f"op{op.index}")
            for number in op.outputs:
                if number is None:
                    continue
                value = self.values[number]
                picture.add_node(f"v{number}", f"{value.name}\n{value.type_text}", "value")
                picture.add_edge(f"op{op.index}", f"v{number}")
        return picture

    def svg(self):
        """The picture as SVG (top to bottom, like the listing), or None without Graphviz or when too big."""
        if not graphviz_available() or self.num_ops > MAX_DRAWN_OPS:
            return None
        dot = self.picture().digraph()
        dot.graph_attr.update(rankdir="TB", labelloc="t")
        dot.node_attr.update(fontsize="10", margin="0.05,0.02", height="0.3")
        return dot.pipe(format="svg").decode("utf-8")

    def __repr__(self):
        return f"<ProgramGraph {self.summary()}>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.listing()}
        svg = self.svg()
        if svg:
            bundle["image/svg+xml"] = svg
        return bundle


class ProgramGraphView:
    """ipywidgets view of one or two snapshots: switch before/after, pick a node, read its shape and dtype."""

    def __init__(self, after, before=None):
        import ipywidgets as widgets

        self.graphs = {"after": after.compare_with(before)} if before is not None else {"after": after}
        if before is not None:
            self.graphs["before"] = before
        self.showing = "after"
        self._svgs = {}  # which -> SVG text (or None): drawn once, so a click never waits for Graphviz twice
        self.status = widgets.HTML(layout=widgets.Layout(margin="0 0 4px 0"))
        self.status.add_class("pc-program-status")
        self.drawing = widgets.HTML(layout=widgets.Layout(max_height="520px", overflow="auto"))
        self.node = widgets.Dropdown(description="Inspect:", layout=widgets.Layout(width="420px"))
        self.details = widgets.HTML()
        self.details.add_class("pc-program-details")
        self.node.observe(self._on_node, names="value")
        buttons = []
        if before is not None:
            for which, text in (("before", "Before minimize"), ("after", "After minimize")):
                button = widgets.Button(description=text, tooltip=f"show the program {which} minimize")
                button.on_click(lambda _, which=which: self.show(which))
                buttons.append(button)
        self.buttons = buttons
        self.box = widgets.VBox([widgets.HBox(buttons), self.status, self.drawing, self.node, self.details])
        self.show("after")

    @property
    def graph(self):
        return self.graphs[self.showing]

    def svg(self, which=None):
        which = which or self.showing
        if which not in self._svgs:
            self._svgs[which] = self.graphs[which].svg()
        return self._svgs[which]

    def show(self, which):
        """Switch to the 'before' or 'after' snapshot (what the buttons do)."""
        self.showing = which
        graph = self.graph
        self.status.value = f"<b>{escape(graph.summary())}</b>"
        svg = self.svg()
        self.drawing.value = svg if svg else f"<pre>{escape(graph.listing())}</pre>"
        names = graph.node_names()
        current = self.node.value
        self.node.options = names
        self.node.value = current if current in names else (names[0] if names else None)
        self._on_node()

    def _on_node(self, change=None):
        if self.node.value is not None:
            self.details.value = f"<pre>{escape(self.graph.inspect(self.node.value))}</pre>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.box._repr_mimebundle_(include=include, exclude=exclude) or {}
        # Where no widget can be drawn (nbconvert, GitHub, a closed kernel) the picture and the
        # listing stand in for it; JupyterLab prefers the live widget. nbval compares the text only.
        bundle["text/plain"] = self.graph.listing()
        svg = self.svg()
        if svg:
            bundle["image/svg+xml"] = svg
        return bundle


def show_program(program_or_graph, before=None, title=""):
    """A ProgramGraphView of a Program (or a ProgramGraph snapshot), optionally compared with ``before``."""
    graph = program_or_graph if isinstance(program_or_graph, ProgramGraph) else ProgramGraph(program_or_graph, title)
    return ProgramGraphView(graph, before=before)
