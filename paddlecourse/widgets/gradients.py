"""Gradient accumulation, played with buttons: forward+backward, clear_grad(), an optimizer step.

``GradientLab`` holds the state: a real one-input ``paddle.nn.Linear`` whose
weight starts at 2 and bias at 1, fed x = 3, with the loss z = (w*x + b)**2 of
lesson 02. Each ``forward_backward()`` builds a fresh graph and calls
``backward()`` once, so ``w.grad`` goes 42 -> 84 -> 126 until ``clear_grad()``
sets it back to zeros. ``step()`` is one plain SGD update. Every action is
written to ``history``; the view draws it.

``GradientWidget`` is the ipywidgets view: four buttons, a table of values and
gradients, and a plot of their history (alt text lists every value; it draws on
its own Figure, so the learner's plotting state is never touched). Without a widget frontend (nbconvert,
GitHub, nbval) it shows the same table as HTML and text.
"""
import html
import io
from dataclasses import dataclass

from ..language import _, N_
from .figures import figure_html
from .focus import with_visible_focus

QUANTITIES = ("w", "b", "w.grad", "b.grad", "z")
# Translators: the gradient lab's actions as its "last action" shows them (the others are code: clear_grad(), step())
ACTION_TEXT = {"start": N_("start"), "forward+backward": N_("forward+backward")}
# Translators: the gradient lab's buttons
BUTTON_TEXT = {"forward + backward": N_("forward + backward"), "optimizer step": N_("optimizer step"),
               "reset model": N_("reset model")}


def action_text(action):
    """An action as the learner reads it, in the language in force."""
    return _(ACTION_TEXT[action]) if action in ACTION_TEXT else action


@dataclass(frozen=True)
class Snapshot:
    """What the model looked like right after one action."""

    action: str
    w: float
    b: float
    w_grad: object  # float, or None before the first backward()
    b_grad: object
    z: object  # the loss of the last forward pass, None before any

    def as_row(self):
        return {"w": self.w, "b": self.b, "w.grad": self.w_grad, "b.grad": self.b_grad, "z": self.z}


def _number(value):
    return None if value is None else round(float(value.numpy().reshape(-1)[0]), 6)


def fmt(value):
    """A number as the lesson prints it: 42, 0.58, or None."""
    if value is None:
        return "None"
    return f"{value:.6g}"


class GradientLab:
    """A one-weight model z = (w*x + b)**2 whose gradients you accumulate, clear and apply by hand."""

    def __init__(self, w=2.0, b=1.0, x=3.0, learning_rate=0.01):
        self.start = (float(w), float(b))
        self.x_value = float(x)
        self.learning_rate = float(learning_rate)
        self.reset()

    def reset(self):
        """A fresh model (w, b back to their start values, no gradients) and an empty history."""
        import paddle
        from paddle.nn.initializer import Constant

        w, b = self.start
        self.model = paddle.nn.Linear(
            1, 1,
            weight_attr=paddle.ParamAttr(initializer=Constant(w)),
            bias_attr=paddle.ParamAttr(initializer=Constant(b)),
        )
        self.optimizer = paddle.optimizer.SGD(learning_rate=self.learning_rate, parameters=self.model.parameters())
        self.x = paddle.to_tensor([[self.x_value]])
        self.z = None
        self.backward_calls = 0
        self.history = []
        self._record("start")

    @property
    def w(self):
        return self.model.weight

    @property
    def b(self):
        return self.model.bias

    def forward_backward(self):
        """Build the graph again (z = (w*x + b)**2) and call backward() once; gradients add up."""
        z = (self.model(self.x) ** 2).sum()
        z.backward()
        self.z = _number(z)
        self.backward_calls += 1
        self._record("forward+backward")
        return self.z

    def clear_grad(self):
        """Set every parameter's gradient to zeros (as Paddle 3.3.1's clear_grad() does)."""
        self.optimizer.clear_grad()
        self._record("clear_grad()")

    def step(self):
        """One SGD update: w <- w - learning_rate * w.grad (same for b). Gradients are left as they are."""
        self.optimizer.step()
        self._record("step()")

    def snapshot(self):
        return self.history[-1]

    def _record(self, action):
        self.history.append(
            Snapshot(action, _number(self.w), _number(self.b), _number(self.w.grad), _number(self.b.grad), self.z)
        )

    def series(self, quantity):
        """The history of one quantity ("w", "b", "w.grad", "b.grad", "z"), None where it had no value."""
        return [snap.as_row()[quantity] for snap in self.history]

    # ---------------------------------------------------------- static views

    def text(self):
        """The current values as a few aligned lines (also the widget's text/plain form)."""
        snap = self.snapshot()
        lines = [_("z = (w*x + b)**2 with x = {x};  backward() calls so far: {calls}").format(
            x=fmt(self.x_value), calls=self.backward_calls)]
        for name, value in snap.as_row().items():
            lines.append(f"{name:>7} = {fmt(value)}")
        lines.append(_("last action: {action}").format(action=action_text(snap.action)))
        return "\n".join(lines)

    def html(self):
        """The current values as an HTML table; each value cell has a `data-quantity` attribute."""
        snap = self.snapshot()
        cells = "".join(
            f'<tr><th style="text-align:right;padding-right:1em"><code>{html.escape(name)}</code></th>'
            f'<td class="pc-grad-value" data-quantity="{html.escape(name)}" style="text-align:right;'
            f'font-family:monospace;min-width:6em">{fmt(value)}</td></tr>'
            for name, value in snap.as_row().items()
        )
        calls = f'<span class="pc-backward-calls">{self.backward_calls}</span>'
        action = f'<span class="pc-last-action">{html.escape(action_text(snap.action))}</span>'
        # Translators: HTML; keep the tags and {calls} / {action} (each a number or word inside a <span>)
        values = _("backward() calls: {calls}; last action: {action}").format(calls=calls, action=action)
        return (
            f'<div class="pc-gradient-lab"><div>z = (w&middot;x + b)<sup>2</sup>, x = {fmt(self.x_value)}; '
            f"{values}</div>"
            f"<table>{cells}</table></div>"
        )

    def figure(self):
        """A matplotlib Figure of w, b, w.grad and b.grad over the actions so far.

        Its own Figure object (not pyplot): the learner's backend, current figure
        and rcParams are left as they were.
        """
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator

        fig = Figure(figsize=(6, 3), dpi=80)
        ax_grad, ax_value = fig.subplots(1, 2)
        steps = list(range(len(self.history)))
        # Okabe-Ito colours, and a marker per line as the second cue.
        styles = {"w.grad": ("#0072B2", "o", "-"), "b.grad": ("#D55E00", "s", "--"),
                  "w": ("#0072B2", "o", "-"), "b": ("#D55E00", "s", "--")}
        for quantity, axis in (("w.grad", ax_grad), ("b.grad", ax_grad), ("w", ax_value), ("b", ax_value)):
            values = [float("nan") if v is None else v for v in self.series(quantity)]
            colour, marker, line = styles[quantity]
            axis.plot(steps, values, marker=marker, linestyle=line, color=colour, label=quantity)
        ax_grad.set_title(_("gradients"))
        ax_value.set_title(_("parameters"))
        for axis in (ax_grad, ax_value):
            axis.set_xlabel(_("action number"))
            axis.xaxis.set_major_locator(MaxNLocator(integer=True))  # actions are counted: 0, 1, 2 ...
            axis.set_xlim(-0.5, max(len(steps) - 1, 1) + 0.5)
            axis.legend(loc="best", fontsize=10)
            axis.grid(True, alpha=0.3)
        fig.tight_layout()
        return fig

    def plot_png(self):
        """A PNG of w, b, w.grad and b.grad over the actions so far (drawn on its own Figure)."""
        buffer = io.BytesIO()
        self.figure().savefig(buffer, format="png")
        return buffer.getvalue()

    def plot_alt(self):
        """Alt text for the plot: what it shows and the values after each action."""
        steps = "; ".join(
            f"{n} {action_text(snap.action)}: w.grad {fmt(snap.w_grad)}, b.grad {fmt(snap.b_grad)}, w {fmt(snap.w)}, "
            f"b {fmt(snap.b)}"
            for n, snap in enumerate(self.history))
        # Translators: {steps} lists the values after each action ("0 start: w.grad None, ...; 1 ...")
        return _("Two line charts over the action number: gradients (w.grad, b.grad) and parameters (w, b). "
                 "{steps}.").format(steps=steps)

    def plot_html(self):
        """The plot as HTML: scales to the width, alt text with the values, on a light card."""
        return figure_html(self.figure(), alt=self.plot_alt(), css_class="pc-picture pc-gradient-plot")

    def _repr_html_(self):
        return self.html()

    def __repr__(self):
        return self.text()


class GradientWidget:
    """Buttons over a ``GradientLab``: forward+backward, clear_grad(), optimizer step, reset."""

    BUTTONS = {
        "forward + backward": "forward_backward",
        "clear_grad()": "clear_grad",
        "optimizer step": "step",
        "reset model": "reset",
    }

    def __init__(self, lab=None):
        import ipywidgets as widgets

        self.lab = lab if lab is not None else GradientLab()
        self.buttons = {}
        for label, method in self.BUTTONS.items():  # keyed by the English label: click("clear_grad()")
            button = widgets.Button(description=_(BUTTON_TEXT.get(label, label)), layout=widgets.Layout(width="auto"))
            button.on_click(self._handler(method))
            self.buttons[label] = button
        # Flex rows that wrap: side by side where there is room, stacked on a narrow page.
        wrap = widgets.Layout(display="flex", flex_flow="row wrap", align_items="flex-start", max_width="100%")
        self.table = widgets.HTML(layout=widgets.Layout(flex="0 1 auto", margin="0 1em 0 0"))
        self.plot = widgets.HTML(layout=widgets.Layout(flex="1 1 400px", max_width="500px", min_width="0"))
        self.view = with_visible_focus(widgets.VBox(
            [widgets.HBox(list(self.buttons.values()), layout=wrap), widgets.HBox([self.table, self.plot], layout=wrap)],
            layout=widgets.Layout(max_width="100%"),
        ))
        self.refresh()

    def _handler(self, method):
        def on_click(_button):
            getattr(self.lab, method)()
            self.refresh()

        return on_click

    def click(self, label):
        """Press a button from code (the same path a mouse click takes)."""
        self.buttons[label].click()

    def refresh(self):
        # The plot first: the frontend gets the updates in order, so once the table
        # shows a new value, the plot that goes with it is already there.
        self.plot.value = self.lab.plot_html()
        self.table.value = self.lab.html()

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.view._repr_mimebundle_(include=include, exclude=exclude) or {}
        bundle["text/plain"] = self.lab.text()
        # The still picture (the website, nbconvert, GitHub): the table and its plot side by side, as drawn live.
        bundle["text/html"] = ('<div style="display:flex;flex-flow:row wrap;align-items:flex-start;gap:1em">'
                               f'<div>{self.lab.html()}</div><div style="flex:1 1 400px;max-width:500px;min-width:0">'
                               f'{self.lab.plot_html()}</div></div>')
        return bundle
