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
from html import escape

from ..language import _, N_, translate
from .figures import svg_html
from .focus import with_visible_focus
from .graphs import GraphPicture, graphviz_available
from .program_snapshot import KIND_TEXT, MAX_DRAWN_OPS, NOT_GIVEN, OUTSIDE, _blocks_text, _snapshot


class ProgramGraph:
    """A snapshot of a static Program's global block: ops and values, drawable and inspectable."""

    def __init__(self, program, title="", before=None):
        if not hasattr(program, "global_block"):
            raise TypeError(_("ProgramGraph needs a static Program (paddle.static.Program()), not a {type}.").format(
                type=type(program).__name__))
        if not hasattr(program, "num_ops"):
            raise TypeError(_("ProgramGraph reads PIR programs, Paddle 3's default; this one is a legacy-IR Program "
                              "(FLAGS_enable_pir_api=0)."))
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
        line = _("{ops} ops, {values} values").format(ops=self.num_ops, values=len(self.values))
        if self.title:
            line = f"{translate(self.title)}: {line}"
        if any(op.new for op in self.ops):
            kinds = _(", ").join(f"{n} {_(KIND_TEXT.get(kind, kind))}"
                                 for kind, n in sorted(self.kinds(only_new=True).items()))
            # Translators: put after "12 ops, 15 values", with its leading space; {kinds} e.g. "2 backward, 1 optimizer"
            line += _(" ({count} new: {kinds})").format(count=len(self.new_ops()), kinds=kinds)
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
            return _("(an optional input, not given)")
        if number == OUTSIDE:
            return _("(a value from outside this block)")
        value = self.values[number]
        # Translators: "%3: -1x8xf32  from pd_op.matmul": a value, its type and the op that made it
        return _("{value}: {type}  from {op}").format(value=value.name, type=value.type_text,
                                                      op=self.ops[value.producer].label)

    def _inspect_op(self, op):
        kind = _(KIND_TEXT.get(op.kind, op.kind))
        # Translators: the first line of an op's details: "op 3: pd_op.matmul  (compute, new)"
        head = _("op {index}: {name}  ({kind}, new)") if op.new else _("op {index}: {name}  ({kind})")
        lines = [head.format(index=op.index, name=op.name, kind=kind)]
        # Translators: "in :" and "out:" start the lines of an op's inputs and outputs, padded to one width
        lines += [_("  in : {value}").format(value=self._value_text(n)) for n in op.inputs] or [_("  in : nothing")]
        lines += [_("  out: {value}: shape {shape}, dtype {dtype}").format(
                      value=self.values[n].name, shape=list(self.values[n].shape), dtype=self.values[n].dtype)
                  if n is not None else _("  out: (an empty slot: nothing needs this result)")
                  for n in op.outputs] or [_("  out: nothing")]
        if op.attrs:
            lines.append(_("  attributes: {attributes}").format(
                attributes=", ".join(f"{k}={v}" for k, v in op.attrs.items())))
        for number, names in enumerate(op.blocks):
            lines.append(_("  block {number} inside: {ops}").format(number=number, ops=", ".join(names)))
        return "\n".join(lines)

    def _inspect_value(self, value):
        users = ", ".join(f"op {i}: {self.ops[i].name}" for i in value.users) or _("no op (a fetchable end result)")
        return "\n".join([
            _("{value}: shape {shape}, dtype {dtype}").format(value=value.name, shape=list(value.shape),
                                                              dtype=value.dtype),
            _("  made by : op {index}: {op}").format(index=value.producer, op=self.ops[value.producer].label),
            _("  read by : {ops}").format(ops=users),
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

    def picture(self, only_new=False):
        """A GraphPicture: ops as ellipses labelled with the values they make, inputs and parameters as boxes.

        Each op's label names its results and their types (``%6 -1x8xf32``), so
        values need no nodes of their own and the picture stays narrow enough
        to read. ``only_new=True`` draws just the new ops (what ``minimize``
        added) and the values they read, so they are seen without hunting.
        """
        new_ops = [op for op in self.ops if op.new]
        shown = new_ops if only_new and new_ops else self.ops
        title = self.summary()
        if shown is new_ops:
            # Translators: put after the program's summary; it ends the picture's title
            title += _(". Shown: only the {count} new ops and what they read ({hidden} earlier ops hidden)").format(
                count=len(new_ops), hidden=self.num_ops - len(new_ops))
        picture = GraphPicture(title=title)
        drawn = {op.index for op in shown}
        for op in shown:
            if self._is_source(op) and not op.new:
                picture.add_node(f"v{op.outputs[0]}", self._source_label(op.outputs[0]), self._source_kind(op))
                continue
            results = [f"{self.values[n].name} {self.values[n].type_text}" for n in op.outputs if n is not None]
            # "pd_op." on a line of its own: long op names made the picture too wide to read at 1024 px
            name = op.label.replace(".", ".\n", 1) if op.label.startswith("pd_op.") else op.label
            label = ("+ " if op.new else "") + name + ("\n" + _blocks_text(op.blocks) if op.blocks else "")
            label += "".join("\n" + text for text in results)
            picture.add_node(f"op{op.index}", label, "new" if op.new else "op")
        for op in shown:
            if self._is_source(op) and not op.new:
                continue
            hidden = []  # values this op reads that ops hidden from the picture made
            for number in op.inputs:
                if not isinstance(number, int):
                    continue
                producer = self.ops[self.values[number].producer]
                if producer.index in drawn:
                    source = f"v{number}" if self._is_source(producer) and not producer.new else f"op{producer.index}"
                elif self._is_source(producer):
                    drawn.add(producer.index)
                    source = f"v{number}"
                    picture.add_node(source, self._source_label(number), self._source_kind(producer))
                else:
                    value = self.values[number]
                    # Translators: a box for a value whose op is not drawn: "%4 -1x8xf32 from matmul"
                    hidden.append(_("{value} {type} from {op}").format(value=value.name, type=value.type_text,
                                                                        op=producer.name.removeprefix("pd_op.")))
                    continue
                picture.add_edge(source, f"op{op.index}")
            if hidden:  # one box per op, so the picture stays narrow
                picture.add_node(f"h{op.index}", "\n".join(hidden), "value")
                picture.add_edge(f"h{op.index}", f"op{op.index}")
        return picture

    @staticmethod
    def _is_source(op):
        """A parameter or a data op: drawn as a box for the value it provides."""
        return op.kind in ("parameter", "data") and len(op.outputs) == 1

    def _source_kind(self, op):
        return "param" if op.kind == "parameter" else "input"

    def _source_label(self, number):
        """A parameter or data value: its name and type."""
        value = self.values[number]
        op = self.ops[value.producer]
        name = op.attrs.get("parameter_name") or op.attrs.get("name") or value.name
        return f"{name}\n{value.type_text}"

    def svg(self, only_new=False):
        """The picture as SVG (left to right when it fits, else top to bottom), or None without Graphviz or when too big."""
        if not graphviz_available() or self.num_ops > MAX_DRAWN_OPS:
            return None
        return self.picture(only_new=only_new).svg()

    def alt_text(self, only_new=False):
        """What the picture shows, for a screen reader: the summary and the drawn ops in program order."""
        new = [op for op in self.ops if op.new]
        if only_new and new:
            return _("Program graph: {summary}. Drawn: only the {count} new ops and what they read. "
                     "New ops in program order: {ops}.").format(summary=self.summary(), count=len(new),
                                                                 ops="; ".join(op.label for op in new))
        # Translators: "new " is put before each new op's name in the list, with its space
        marked = "; ".join((_("new ") if op.new else "") + op.label for op in self.ops)
        return _("Program graph: {summary}. {count} ops in program order: {ops}.").format(
            summary=self.summary(), count=self.num_ops, ops=marked)

    def html(self, only_new=None):
        """The picture as HTML (scalable image, alt text, the listing beneath), or the listing alone without Graphviz.

        By default a program with new ops shows only those (``only_new``), the rest shows whole.
        """
        if only_new is None:
            only_new = any(op.new for op in self.ops)
        svg = self.svg(only_new=only_new)
        if not svg:
            return f"<pre>{escape(self.listing())}</pre>"
        return svg_html(svg, self.alt_text(only_new=only_new), self.listing())

    def __repr__(self):
        return f"<ProgramGraph {self.summary()}>"

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.listing()}
        if self.svg() is not None:
            bundle["text/html"] = self.html()
        return bundle


class ProgramGraphView:
    """ipywidgets view of one or two snapshots: switch before/after, new ops only or all, inspect a node."""

    # Translators: the program graph view's buttons
    VIEWS = {"new": N_("Only the new ops"), "all": N_("Whole program")}
    SNAPSHOTS = {"before": N_("Before minimize"), "after": N_("After minimize")}

    def __init__(self, after, before=None):
        import ipywidgets as widgets

        self.graphs = {"after": after.compare_with(before)} if before is not None else {"after": after}
        if before is not None:
            self.graphs["before"] = before
        self.showing = "after"
        self.scope = "new" if before is not None else "all"
        self._html = {}  # (which, scope) -> HTML: drawn once, so a click never waits for Graphviz twice
        wrap = widgets.Layout(display="flex", flex_flow="row wrap", max_width="100%")
        self.status = widgets.HTML(layout=widgets.Layout(margin="0 0 4px 0", max_width="100%"))
        self.status.add_class("pc-program-status")
        self.drawing = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.drawing.add_class("pc-program-drawing")
        self.node = widgets.Dropdown(description=_("Inspect a node:"), style={"description_width": "initial"},
                                     layout=widgets.Layout(width="auto", max_width="100%"))
        self.details = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.details.add_class("pc-program-details")
        self.node.observe(self._on_node, names="value")
        buttons, self.scope_buttons, self._snapshot_of = [], {}, {}
        if before is not None:
            for which, text in self.SNAPSHOTS.items():
                tooltip = (_("show the program before minimize") if which == "before"
                           else _("show the program after minimize"))
                button = widgets.Button(description=_(text), tooltip=tooltip, layout=widgets.Layout(width="auto"))
                button.on_click(lambda _button, which=which: self.show(which))
                buttons.append(button)
                self._snapshot_of[id(button)] = which
            for scope, text in self.VIEWS.items():
                button = widgets.Button(description=_(text), layout=widgets.Layout(width="auto"),
                                        tooltip=_("draw only what minimize added") if scope == "new"
                                        else _("draw every op"))
                button.on_click(lambda _button, scope=scope: self.show_scope(scope))
                self.scope_buttons[scope] = button
        self.buttons = buttons
        self.box = with_visible_focus(widgets.VBox(
            [widgets.HBox(buttons + list(self.scope_buttons.values()), layout=wrap), self.status, self.drawing,
             self.node, self.details],
            layout=widgets.Layout(max_width="100%")))
        self.show("after")

    @property
    def graph(self):
        return self.graphs[self.showing]

    def svg(self, which=None):
        which = which or self.showing
        return self.graphs[which].svg(only_new=self._only_new(which))

    def _only_new(self, which):
        return self.scope == "new" and any(op.new for op in self.graphs[which].ops)

    def html(self, which=None):
        which = which or self.showing
        key = (which, self._only_new(which))
        if key not in self._html:
            self._html[key] = self.graphs[which].html(only_new=key[1])
        return self._html[key]

    def _mark_chosen(self):
        """The chosen buttons say so in text (a ✓), not by shade alone."""
        for button, chosen in [(b, self._snapshot_of.get(id(b)) == self.showing)
                               for b in self.buttons] + [(b, s == self.scope) for s, b in self.scope_buttons.items()]:
            plain = button.description.removeprefix("✓ ")
            button.description = ("✓ " if chosen else "") + plain
        for button in self.scope_buttons.values():
            button.disabled = self.showing == "before"  # nothing is new before minimize

    def show(self, which):
        """Switch to the 'before' or 'after' snapshot (what the buttons do)."""
        self.showing = which
        graph = self.graph
        shown = " &mdash; " + escape(_("drawn: only the new ops and what they read")) if self._only_new(which) else ""
        self.status.value = f"<b>{escape(graph.summary())}</b>{shown}"
        self.drawing.value = self.html()
        names = graph.node_names()
        current = self.node.value
        self.node.options = names
        self.node.value = current if current in names else (names[0] if names else None)
        self._on_node()
        self._mark_chosen()

    def show_scope(self, scope):
        """Draw only the new ops ("new") or the whole program ("all")."""
        self.scope = scope
        self.show(self.showing)

    def _on_node(self, change=None):
        if self.node.value is not None:
            self.details.value = (f'<pre style="white-space:pre-wrap;overflow-wrap:anywhere">'
                                  f"{escape(self.graph.inspect(self.node.value))}</pre>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.box._repr_mimebundle_(include=include, exclude=exclude) or {}
        # Where no widget can be drawn (nbconvert, GitHub, a closed kernel) the picture and the
        # listing stand in for it; JupyterLab prefers the live widget. nbval compares the text and
        # the HTML (its embedded picture is sanitized away, see tests/nbval-sanitize.cfg).
        bundle["text/plain"] = self.graph.listing()
        bundle["text/html"] = self.html()
        return bundle


def show_program(program_or_graph, before=None, title=""):
    """A ProgramGraphView of a Program (or a ProgramGraph snapshot), optionally compared with ``before``."""
    graph = program_or_graph if isinstance(program_or_graph, ProgramGraph) else ProgramGraph(program_or_graph, title)
    return ProgramGraphView(graph, before=before)
