"""The decision helper of lesson 08: three questions in, a recommendation and its reasons out.

``Decision`` holds the state: the answers to the three questions

1. Is the model still changing?                       (``model_changing``)
2. Is there Python where the model will be deployed?  (``python_at_deploy``)
3. Where is the bottleneck?                           (``bottleneck``)

and works out ``recommendation()``: the mode to develop and train in, how to
deploy, the first thing to do, and one reason per answer, each pointing back to
the lesson that showed it. The rules follow what lessons 01-07 measured on Paddle
3.3.1 (CPU): eager is the place to develop; ``to_static`` / ``jit.load`` alone were
not faster than eager; the ``paddle.inference`` predictor was on the course machine (from batch 64 up);
without Python an export is required.

``DecisionWidget`` is the ipywidgets view: one row of toggle buttons per
question and the recommendation below, updated on every click. Without a widget
frontend (nbconvert, GitHub, nbval) it shows the same recommendation as text/HTML.

The answers and the ``deploy`` choice are English keys (a lesson's code compares them);
everything a learner reads - questions, buttons, the recommendation and its reasons - is
in the language in force.
"""
import html
from dataclasses import dataclass

from ..language import _, N_
from .focus import with_visible_focus

# Translators: the answers to "3. Where is the bottleneck?" (buttons of lesson 08's decision helper)
BOTTLENECKS = (N_("not measured"), N_("data loading"), N_("many small ops"), N_("big ops"), N_("fast enough"))

# What each deployment recommendation means, in the words the lesson uses.
DEPLOY_CHOICES = {
    "eager": N_("keep the eager model in Python; nothing to convert"),
    "predictor": N_("export (to_static + jit.save) and serve with the paddle.inference predictor"),
    "export required": N_("export (to_static + jit.save) and run the files without Python: Paddle Inference's C++ "
                          "API reads the .json + .pdiparams; Paddle Lite needs the older .pdmodel, exported with "
                          "FLAGS_enable_pir_api=0"),
    "measure first": N_("measure before changing anything (lesson 07's harness)"),
}
# Translators: the names of the four deployment choices, shown in bold before what each means
DEPLOY_NAMES = {"eager": N_("eager"), "predictor": N_("predictor"), "export required": N_("export required"),
                "measure first": N_("measure first")}

QUESTIONS = {
    "model_changing": N_("1. Is the model still changing?"),
    "python_at_deploy": N_("2. Is there Python where it is deployed?"),
    "bottleneck": N_("3. Where is the bottleneck?"),
}


@dataclass(frozen=True)
class Recommendation:
    """What to do: ``develop`` (mode to write and train in), ``deploy`` (a DEPLOY_CHOICES key), and why."""

    develop: str
    deploy: str
    first_step: str
    reasons: tuple

    def text(self):
        lines = [_("develop and train in: {mode}").format(mode=self.develop),
                 _("deploy: {choice} - {meaning}").format(choice=_(DEPLOY_NAMES[self.deploy]),
                                                          meaning=_(DEPLOY_CHOICES[self.deploy])),
                 _("first step: {step}").format(step=self.first_step),
                 _("because:")]
        lines += [f"  - {reason}" for reason in self.reasons]
        return "\n".join(lines)


class Decision:
    """The three questions of lesson 08 and the recommendation that follows from the answers."""

    def __init__(self, model_changing=True, python_at_deploy=True, bottleneck="not measured"):
        self.model_changing = True
        self.python_at_deploy = True
        self.bottleneck = "not measured"
        self.answer(model_changing=model_changing, python_at_deploy=python_at_deploy, bottleneck=bottleneck)

    def answer(self, **answers):
        """Set one or more answers, e.g. ``answer(python_at_deploy=False)``; returns the recommendation."""
        for name, value in answers.items():
            if name not in QUESTIONS:
                raise ValueError(_("unknown question {name}; the questions are {questions}").format(
                    name=repr(name), questions=", ".join(QUESTIONS)))
            if name == "bottleneck":
                if value not in BOTTLENECKS:
                    raise ValueError(_("bottleneck must be one of {choices}, not {value}").format(
                        choices=BOTTLENECKS, value=repr(value)))
            elif not isinstance(value, bool):
                raise ValueError(_("{name} must be True or False, not {value}").format(name=name, value=repr(value)))
            setattr(self, name, value)
        return self.recommendation()

    def recommendation(self):
        reasons = []
        # Question 1: development.
        if self.model_changing:
            develop = _("dynamic (eager)")
            reasons.append(_("The model is still changing: eager mode runs each line as you write it, so you can "
                             "print, plot and step through values (lessons 01-03). A static program would have to be "
                             "rebuilt and re-checked after every change (lesson 04)."))
        else:
            develop = _("dynamic (eager); keep to_static for training only if a benchmark shows a gain")
            reasons.append(_("The model has settled, but training speed alone is no reason to convert: on a CPU, "
                             "to_static training ran at 0.79-0.94x of eager in lesson 07. Measure your own model "
                             "first."))
        # Question 2: a hard constraint.
        if not self.python_at_deploy:
            deploy = "export required"
            reasons.append(_("There is no Python where the model runs, so the eager model cannot run there at all: "
                             "export it with to_static(input_spec=[InputSpec([None, ...])], full_graph=True) and "
                             "jit.save, and check the exported files (lesson 06)."))
            if self.model_changing:
                first_step = _("keep developing eagerly, but run the five-minute export smoke test (lesson 06) now, "
                               "so a model that cannot be exported is found early")
            else:
                first_step = _("export with a None batch dimension and compare the exported output with eager at "
                               "several batch sizes")
        # Question 3: only matters when Python is there.
        elif self.bottleneck == "not measured":
            deploy = "measure first"
            first_step = _("time eager, jit.load and the predictor at your batch sizes with lesson 07's harness")
        elif self.bottleneck == "data loading":
            deploy = "eager"
            first_step = _("speed up the input pipeline (DataLoader workers, preprocessing done once); no mode change "
                           "helps")
        elif self.bottleneck in ("many small ops", "big ops"):
            deploy = "predictor"
            first_step = _("export, run the predictor, and compare its speed and output with eager at your batch "
                           "sizes")
        else:  # fast enough
            deploy = "eager"
            first_step = _("nothing: ship the eager model and keep the code simple")
        if self.python_at_deploy:
            reasons.append(_("Python is available where the model runs, so exporting is a choice, not a must."))
        reasons.append(self._bottleneck_reason())
        return Recommendation(develop, deploy, first_step, tuple(reasons))

    def _bottleneck_reason(self):
        return _({
            "not measured": N_("The bottleneck is not known: converting on faith can make things slower (on the "
                               "course machine, lesson 07 measured to_static slower than eager for inference at "
                               "every batch size it tried; your CPU may differ). Measure first."),
            "data loading": N_("The time goes into loading and preparing data, which runs the same Python code in "
                               "every mode: a static graph cannot speed it up."),
            "many small ops": N_("Many small ops pay launch overhead per op. to_static and jit.load did not win that "
                                 "back on a CPU in lesson 07; the paddle.inference predictor (oneDNN kernels) was the "
                                 "path that was faster on the course machine, from batch 64 up - on some CPUs it "
                                 "is not: measure yours."),
            "big ops": N_("Time goes into big matrix ops: faster kernels matter, and they come from the engine that runs "
                          "the exported model, not from to_static (which gave nothing in lesson 07). On an x86 CPU the "
                          "paddle.inference predictor's oneDNN kernels gave 1.7-2.7x at batch 64-256 on the course "
                          "machine but 0.87-1.13x on an Intel Xeon one; on a phone Paddle Lite's ARM kernels run it, "
                          "which this course does not measure: time it on the device."),
            "fast enough": N_("It is already fast enough: a conversion would add work and risk (lesson 06's pitfalls) "
                              "for no gain."),
        }[self.bottleneck])

    def text(self):
        """The answers and the recommendation, as plain text (the widget's text/plain form)."""
        yes, no = _("yes"), _("no")
        answers = [
            f"{_(QUESTIONS['model_changing'])} {yes if self.model_changing else no}",
            f"{_(QUESTIONS['python_at_deploy'])} {yes if self.python_at_deploy else no}",
            f"{_(QUESTIONS['bottleneck'])} {_(self.bottleneck)}",
        ]
        return "\n".join(answers) + "\n" + self.recommendation().text()

    def html(self):
        """The recommendation as HTML; its parts carry classes the browser test reads."""
        rec = self.recommendation()
        reasons = "".join(f"<li>{html.escape(r)}</li>" for r in rec.reasons)
        develop = f'<b class="pc-develop">{html.escape(rec.develop)}</b>'
        deploy = f'<b class="pc-deploy">{html.escape(_(DEPLOY_NAMES[rec.deploy]))}</b>'
        step = f'<span class="pc-first-step">{html.escape(rec.first_step)}</span>'
        # Translators: HTML; keep {mode}, {choice}, {meaning} and {step} (each an answer inside its own tag)
        return (
            '<div class="pc-decision">'
            "<div>" + _("Develop and train in: {mode}").format(mode=develop) + "</div>"
            "<div>" + _("Deploy: {choice} &mdash; {meaning}").format(
                choice=deploy, meaning=html.escape(_(DEPLOY_CHOICES[rec.deploy]))) + "</div>"
            "<div>" + _("First step: {step}").format(step=step) + "</div>"
            "<div>" + html.escape(_("Because:")) + f'</div><ul class="pc-reasons">{reasons}</ul></div>'
        )

    def _repr_html_(self):
        return self.html()

    def __repr__(self):
        return self.text()


class DecisionWidget:
    """Toggle buttons for the three questions over a ``Decision``; the recommendation updates on each click."""

    # Button labels (English keys: choose("no Python")) -> answers; the buttons show them translated.
    LABELS = {
        "model_changing": {N_("still changing"): True, N_("settled"): False},
        "python_at_deploy": {N_("Python there"): True, N_("no Python"): False},
        "bottleneck": {b: b for b in BOTTLENECKS},
    }

    def __init__(self, decision=None):
        import ipywidgets as widgets

        self.decision = decision if decision is not None else Decision()
        self.toggles = {}
        self._relabelling = False
        rows = []
        for name, labels in self.LABELS.items():
            current = next(label for label, value in labels.items() if value == getattr(self.decision, name))
            # The chosen answer says so in text (a ✓ before it), not by a darker shade alone;
            # each button's tooltip repeats its question. Buttons wrap on a narrow page.
            toggle = widgets.ToggleButtons(options=self._options(name, current), value=current,
                                           tooltips=[f"{_(QUESTIONS[name])} {_(label)}" for label in labels],
                                           style={"button_width": "auto"},
                                           layout=widgets.Layout(display="flex", flex_flow="row wrap",
                                                                 max_width="100%"))
            toggle.observe(self._handler(name), names="value")
            self.toggles[name] = toggle
            rows.append(widgets.VBox([widgets.HTML(f"<b>{html.escape(_(QUESTIONS[name]))}</b>"), toggle],
                                     layout=widgets.Layout(max_width="100%")))
        self.output = widgets.HTML(layout=widgets.Layout(max_width="100%"))
        self.view = with_visible_focus(widgets.VBox(rows + [self.output], layout=widgets.Layout(max_width="100%")))
        self.refresh()

    def _options(self, name, chosen):
        """(button text, answer) pairs: the chosen answer's text starts with ✓."""
        return [(("✓ " if label == chosen else "") + _(label), label) for label in self.LABELS[name]]

    def _handler(self, name):
        def on_change(change):
            if self._relabelling:
                return
            self.decision.answer(**{name: self.LABELS[name][change["new"]]})
            self._relabel(name, change["new"])
            self.refresh()

        return on_change

    def _relabel(self, name, chosen):
        toggle = self.toggles[name]
        self._relabelling = True
        try:  # new options reset the selection in ipywidgets 8: put it back
            toggle.options = self._options(name, chosen)
            toggle.value = chosen
        finally:
            self._relabelling = False

    def choose(self, label):
        """Pick an option by its button label, as a click would (e.g. ``choose("no Python")``).

        The English label always works; so does the label the button shows in the language in force."""
        for name, labels in self.LABELS.items():
            for key in labels:
                if label in (key, _(key)):
                    self.toggles[name].value = key
                    return self.decision.recommendation()
        raise ValueError(_("no button labelled {label}").format(label=repr(label)))

    def refresh(self):
        self.output.value = self.decision.html()

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = self.view._repr_mimebundle_(include=include, exclude=exclude) or {}
        bundle["text/plain"] = self.decision.text()
        bundle["text/html"] = self.decision.html()
        return bundle
