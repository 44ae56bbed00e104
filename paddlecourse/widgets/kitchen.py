"""The kitchen stepper: run a snippet one line at a time, in dynamic or in static mode.

Dynamic mode "tastes while cooking": each line runs when you step to it, and
its variable holds numbers at once. Static mode "writes the recipe first": each
line only adds operations to a ``Program``, so its variable is a symbolic value
(``paddle.pir.Value``) with a name, a shape and a dtype but no numbers, until
``run_program()`` hands the whole program to an ``Executor``.

``Kitchen`` is the state (real Paddle underneath; no browser needed);
``KitchenStepper`` is the ipywidgets view with the two snippets side by side.
"""
import html
import traceback

import numpy as np

from ..language import _, N_
from ..modes import static_mode
from .focus import with_visible_focus

INPUT = [[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]]

DYNAMIC_LINES = (
    "x = paddle.to_tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])",
    "w = paddle.full([3, 2], 0.5)",
    "h = paddle.nn.functional.relu(paddle.matmul(x, w) - 1.0)",
    "y = h.sum(axis=1)",
)
STATIC_LINES = (
    'x = paddle.static.data(name="x", shape=[None, 3], dtype="float32")',
    "w = paddle.full([3, 2], 0.5)",
    "h = paddle.nn.functional.relu(paddle.matmul(x, w) - 1.0)",
    "y = h.sum(axis=1)",
)
NOT_YET = N_("no numbers yet")  # a static value's value column before the program has run
# Translators: the kitchen stepper's buttons
BUTTON_TEXT = {"Step dynamic line": N_("Step dynamic line"), "Step static line": N_("Step static line"),
               "Run the program": N_("Run the program"), "Reset both": N_("Reset both")}


def _dtype_text(dtype):
    return str(dtype).replace("paddle.", "")


def _value_text(array):
    return np.array2string(np.asarray(array), precision=3, separator=", ", suppress_small=True)


class Kitchen:
    """Steps through ``lines`` in one mode, keeping every variable the lines define.

    ``variables()`` lists them as rows: name, kind, shape, dtype and the value
    text ("no numbers yet" for a static value that has not been run).
    """

    def __init__(self, lines=DYNAMIC_LINES, mode="dynamic", feed=None):
        if mode not in ("dynamic", "static"):
            raise ValueError(_("mode must be 'dynamic' or 'static'"))
        self.lines = tuple(lines)
        self.mode = mode
        self.feed = feed if feed is not None else {"x": np.array(INPUT, dtype="float32")}
        self.reset()

    def reset(self):
        """Back to before the first line: no variables, an empty program, nothing run."""
        import paddle

        self.position = 0  # how many lines have run
        self.namespace = {"paddle": paddle, "np": np}
        self.order = []  # variable names in the order they were first defined
        self.values = {}  # name -> numpy array, once known
        self.error = None
        self.runs = 0
        self._last_run_objects = {}
        if self.mode == "static":
            with static_mode():
                self.program = paddle.static.Program()
                self.startup = paddle.static.Program()

    @property
    def done(self):
        return self.position >= len(self.lines)

    @property
    def next_line(self):
        return None if self.done else self.lines[self.position]

    def step(self):
        """Run the next line; returns it (None when every line has run). Errors are kept in ``error``."""
        if self.done:
            return None
        line = self.lines[self.position]
        try:
            self._execute(line)
        except Exception as failure:  # shown to the learner, never raised into a widget callback
            # Translators: {error} is Python's or Paddle's own error (English)
            self.error = _("line {number}: {error}").format(
                number=self.position + 1,
                error="".join(traceback.format_exception_only(type(failure), failure)).strip())
            return line
        self.error = None
        self.position += 1
        return line

    def run_all_lines(self):
        while not self.done and self.error is None:
            self.step()

    def _execute(self, line):
        import paddle

        if self.mode == "dynamic":
            exec(line, self.namespace)
        else:
            with static_mode(), paddle.static.program_guard(self.program, self.startup):
                exec(line, self.namespace)
        for name, obj in self.namespace.items():
            if name not in self.order and self._is_data(obj):
                self.order.append(name)
        for name in self.order:
            obj = self.namespace[name]
            if self.mode == "dynamic":
                self.values[name] = obj.numpy()
            elif name in self.values and self._last_run_objects.get(name) is not obj:
                del self.values[name]  # redefined since the last run: its old numbers no longer apply

    @staticmethod
    def _is_data(obj):
        import paddle

        return isinstance(obj, (paddle.Tensor, paddle.pir.Value))

    def run_program(self):
        """Static mode: run the startup program, then the main one, fetching every variable defined so far."""
        import paddle

        if self.mode != "static":
            raise RuntimeError(_("run_program() is for the static kitchen; dynamic lines run as you step"))
        if not self.order:
            self.error = _("nothing to run yet: step at least one line first")
            return {}
        fetch = [self.namespace[name] for name in self.order]
        try:
            with static_mode():
                executor = paddle.static.Executor(paddle.CPUPlace())
                executor.run(self.startup)
                results = executor.run(self.program, feed=self.feed, fetch_list=fetch)
        except Exception as failure:
            self.error = _("run: {error}").format(
                error="".join(traceback.format_exception_only(type(failure), failure)).strip())
            return {}
        self.error = None
        self.runs += 1
        self.values = dict(zip(self.order, results))
        self._last_run_objects = {name: self.namespace[name] for name in self.order}
        return dict(self.values)

    def variables(self):
        """Rows (name, kind, shape, dtype, value text) for every variable defined so far."""
        rows = []
        for name in self.order:
            obj = self.namespace[name]
            kind = type(obj).__name__
            shape = [int(d) for d in obj.shape]
            value = _value_text(self.values[name]) if name in self.values else _(NOT_YET)
            rows.append((name, kind, shape, _dtype_text(obj.dtype), value))
        return rows

    def program_ops(self):
        """Static mode: the names of the operations written into the program so far (the recipe)."""
        if self.mode != "static":
            return []
        return [op.name() for op in self.program.global_block().ops]

    def holds_numbers(self, name):
        """True when variable ``name`` has numbers right now."""
        return name in self.values

    # ---------------------------------------------------------- static views

    def text(self):
        title = {"dynamic": _("dynamic (define-by-run)"), "static": _("static (define-and-run)")}[self.mode]
        if self.mode == "static":
            head = _("{title}: {done} of {total} lines run, program run {runs} time(s)")
        else:
            head = _("{title}: {done} of {total} lines run")
        lines = [head.format(title=title, done=self.position, total=len(self.lines), runs=self.runs)]
        for index, line in enumerate(self.lines):
            mark = "✓" if index < self.position else ("▶" if index == self.position else " ")
            lines.append(f" {mark} {line}")
        for name, kind, shape, dtype, value in self.variables():
            lines.append(f"   {name}: {kind} shape={shape} dtype={dtype} -> {value.replace(chr(10), ' ')}")
        if self.mode == "static":
            lines.append(_("   program ops: {ops}").format(ops=", ".join(self.program_ops()) or _("(none yet)")))
        if self.error:
            lines.append(_("   error: {error}").format(error=self.error))
        return "\n".join(lines)

    def html(self):
        title = {"dynamic": _("Dynamic graph (动态图): taste while cooking"),
                 "static": _("Static graph (静态图): write the recipe, then cook")}[self.mode]
        code = []
        for index, line in enumerate(self.lines):
            state = "done" if index < self.position else ("next" if index == self.position else "todo")
            mark = {"done": "✓", "next": "▶", "todo": "&nbsp;"}[state]
            colour = {"done": "#222", "next": "#0b5cad", "todo": "#666"}[state]  # 4.5:1 on white at least
            code.append(f'<div class="pc-kitchen-line" data-state="{state}" style="color:{colour}">'
                        f'{mark} <code style="white-space:pre-wrap;overflow-wrap:anywhere">{html.escape(line)}</code></div>')
        rows = []
        for name, kind, shape, dtype, value in self.variables():
            rows.append(
                f'<tr><td><code>{html.escape(name)}</code></td><td>{html.escape(kind)}</td>'
                f"<td>{shape}</td><td>{dtype}</td>"
                f'<td class="pc-kitchen-value" data-mode="{self.mode}" data-name="{html.escape(name)}" '
                f'style="font-family:monospace;white-space:pre">{html.escape(value)}</td></tr>'
            )
        # Translators: the kitchen's table heads: a variable's name, Python type, shape, dtype and value
        heads = "".join(f"<th>{html.escape(h)}</th>" for h in (_("name"), _("type"), _("shape"), _("dtype"),
                                                                 _("value")))
        table = ('<div style="max-width:100%;overflow-x:auto"><table><tr>' + heads + '</tr>'
                 + "".join(rows) + "</table></div>") if rows else "<div><i>" + html.escape(_("no variables yet")) + "</i></div>"
        if self.mode == "static":
            ops = ", ".join(self.program_ops()) or _("(none yet)")
            recipe = html.escape(_("the recipe so far"))
            count = html.escape(_("({count} ops)").format(count=len(self.program_ops())))
            table += (f'<div class="pc-kitchen-ops" style="margin-top:4px;color:#555;overflow-wrap:anywhere">'
                      f'<b>{recipe}</b> {count}: <code>{html.escape(ops)}</code></div>')
        error = (f'<div class="pc-kitchen-error" style="color:#b00">{html.escape(self.error)}</div>'
                 if self.error else "")
        return (f'<div class="pc-kitchen" data-mode="{self.mode}"><b>{html.escape(title)}</b>'
                f'<div style="margin:4px 0">{"".join(code)}</div>{table}{error}</div>')

    def _repr_html_(self):
        return self.html()

    def __repr__(self):
        return self.text()


class KitchenStepper:
    """Two kitchens side by side: step the dynamic snippet, step the static one, run the program, reset."""

    def __init__(self, dynamic=None, static=None):
        import ipywidgets as widgets

        self.dynamic = dynamic if dynamic is not None else Kitchen(DYNAMIC_LINES, "dynamic")
        self.static = static if static is not None else Kitchen(STATIC_LINES, "static")
        # keyed by the English label (click("Reset both")); the button says it in the language in force
        self.buttons = {
            "Step dynamic line": widgets.Button(description=_(BUTTON_TEXT["Step dynamic line"]), icon="step-forward"),
            "Step static line": widgets.Button(description=_(BUTTON_TEXT["Step static line"]), icon="step-forward"),
            "Run the program": widgets.Button(description=_(BUTTON_TEXT["Run the program"]), icon="play"),  # no green: white on it is below 4.5:1
            "Reset both": widgets.Button(description=_(BUTTON_TEXT["Reset both"]), icon="undo"),
        }
        actions = {
            "Step dynamic line": self.dynamic.step,
            "Step static line": self.static.step,
            "Run the program": self.static.run_program,
            "Reset both": self._reset,
        }
        for label, button in self.buttons.items():
            button.layout = widgets.Layout(width="auto")
            button.on_click(self._handler(actions[label]))
        # Two columns where there is room (each at least 22em), one above the other where there is not.
        column = dict(flex="1 1 22em", min_width="0", max_width="100%", margin="0 1em 0.5em 0")
        self.dynamic_view = widgets.HTML(layout=widgets.Layout(**column))
        self.static_view = widgets.HTML(layout=widgets.Layout(**column))
        wrap = dict(display="flex", flex_flow="row wrap", align_items="flex-start", max_width="100%")
        self.view = with_visible_focus(widgets.VBox([
            widgets.HBox(list(self.buttons.values()), layout=widgets.Layout(**wrap)),
            widgets.HBox([self.dynamic_view, self.static_view], layout=widgets.Layout(**wrap)),
        ], layout=widgets.Layout(max_width="100%")))
        self.refresh()

    def _reset(self):
        self.dynamic.reset()
        self.static.reset()

    def _handler(self, action):
        def on_click(_button):
            action()
            self.refresh()

        return on_click

    def click(self, label):
        """Press a button from code (the same path a mouse click takes)."""
        self.buttons[label].click()

    def refresh(self):
        self.dynamic_view.value = self.dynamic.html()
        self.static_view.value = self.static.html()
        self.buttons["Step dynamic line"].disabled = self.dynamic.done
        self.buttons["Step static line"].disabled = self.static.done

    def text(self):
        return self.dynamic.text() + "\n\n" + self.static.text()

    def html(self):
        return ('<div style="display:flex;flex-wrap:wrap;gap:0 2em"><div style="flex:1 1 22em;min-width:0">'
                + self.dynamic.html() + '</div><div style="flex:1 1 22em;min-width:0">'
                + self.static.html() + "</div></div>")

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.view._repr_mimebundle_(include=include, exclude=exclude) or {}
        bundle["text/plain"] = self.text()
        bundle["text/html"] = self.html()
        return bundle
