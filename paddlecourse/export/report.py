"""What check_export reports: each problem with its fix, each run side by side, as text and as HTML."""
import html
from dataclasses import dataclass, field

from ..language import _, ngettext


@dataclass
class Problem:
    """One thing wrong with the export: what happens, and what to change."""

    kind: str  # a short stable label, e.g. "fixed-batch" (tests and graders use it)
    problem: str
    fix: str


@dataclass
class Run:
    """One batch size through one runner (jit.load or the predictor), compared with eager."""

    batch: int
    runner: str
    status: str  # "same", "differs", "error"
    detail: str = ""


@dataclass
class ExportReport:
    """What check_export saw. ``ok`` is True when no problem was found (notes do not count)."""

    conversion: str
    input_spec: list
    saved_spec: list = field(default_factory=list)
    files: dict = field(default_factory=dict)
    runs: list = field(default_factory=list)
    problems: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    save_warnings: list = field(default_factory=list)  # what jit.save warned, word for word
    batch_sizes: tuple = ()

    @property
    def ok(self):
        return not self.problems

    @property
    def kinds(self):
        """The labels of the problems found, e.g. {"fixed-batch"}."""
        return {p.kind for p in self.problems}

    def _verdict(self):
        if self.ok:
            return _("PASSED: the exported model matches eager at every batch size tried.")
        count = len(self.problems)
        return ngettext("FAILED: {count} problem found.", "FAILED: {count} problems found.", count).format(count=count)

    def _table(self):
        runners = [r for r in ("jit.load", "predictor") if any(run.runner == r for run in self.runs)]
        rows = []
        for batch in self.batch_sizes:
            cells = []
            for runner in runners:
                run = next((x for x in self.runs if x.batch == batch and x.runner == runner), None)
                cells.append(_run_text(run))
            rows.append((batch, cells))
        return runners, rows

    def __str__(self):
        # Translators: {verdict} is "PASSED: ..." or "FAILED: ..."
        lines = [_("Export check {verdict}").format(verdict=self._verdict())]
        labels = {"converted": _("converted by"), "spec": _("input spec"), "saved": _("saved model expects"),
                  "files": _("files written")}
        width = max(_width(label) for label in labels.values())  # padded to the longest label

        def row(key, value):
            return f"  {_padded(labels[key], width)}: {value}"

        lines.append(row("converted", self.conversion))
        lines.append(row("spec", _specs_text(self.input_spec)))
        if self.saved_spec:
            lines.append(row("saved", _specs_text(self.saved_spec)))
        if self.files:
            lines.append(row("files", ", ".join(sorted(self.files))))
        runners, rows = self._table()
        if rows and runners:
            batch = _("batch")
            lines.append(f"  {_padded(batch, 5)} | " + " | ".join(_padded(r, 28) for r in runners))
            for size, cells in rows:
                lines.append(f"  {_padded(str(size), max(5, _width(batch)), right=True)} | "
                             + " | ".join(_padded(c, 28) for c in cells))
        for number, p in enumerate(self.problems, 1):
            # Translators: {kind} is the problem's stable label in English, e.g. fixed-batch
            lines.append(_("Problem {number} [{kind}]: {problem}").format(number=number, kind=p.kind,
                                                                            problem=p.problem))
            lines.append(_("  Fix: {fix}").format(fix=p.fix))
        for note in self.notes:
            lines.append(_("Note: {note}").format(note=note))
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self):
        esc = html.escape
        colour = "#1a7f37" if self.ok else "#cf222e"
        verdict = _("Export check {verdict}").format(verdict=self._verdict())
        parts = [f"<div class='paddlecourse-export'><p><b style='color:{colour}'>{esc(verdict)}</b></p>",
                 "<table><tr><td>" + esc(_("converted by")) + "</td><td>" + esc(self.conversion) + "</td></tr>",
                 "<tr><td>" + esc(_("input spec")) + "</td><td><code>" + esc(_specs_text(self.input_spec))
                 + "</code></td></tr>"]
        if self.saved_spec:
            parts.append("<tr><td>" + esc(_("saved model expects")) + "</td><td><code>"
                         + esc(_specs_text(self.saved_spec)) + "</code></td></tr>")
        if self.files:
            parts.append("<tr><td>" + esc(_("files written")) + "</td><td>" + esc(", ".join(sorted(self.files)))
                         + "</td></tr>")
        parts.append("</table>")
        runners, rows = self._table()
        if rows and runners:
            # Translators: a column head of the export table; {runner} is jit.load or predictor
            heads = [_("{runner} vs eager").format(runner=r) for r in runners]
            head = "".join(f"<th>{esc(h)}</th>" for h in heads)
            body = "".join("<tr><td>" + str(b) + "</td>" + "".join(f"<td>{esc(c)}</td>" for c in cells) + "</tr>"
                           for b, cells in rows)
            parts.append("<table><tr><th>" + esc(_("batch")) + f"</th>{head}</tr>{body}</table>")
        if self.problems:
            fixes = [_("Fix: {fix}").format(fix=p.fix) for p in self.problems]
            items = "".join(f"<li><b>{esc(p.problem)}</b><br>{esc(fix)}</li>" for p, fix in zip(self.problems, fixes))
            parts.append(f"<ol>{items}</ol>")
        if self.notes:
            notes = [_("Note: {note}").format(note=n) for n in self.notes]
            parts.append("<ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes) + "</ul>")
        parts.append("</div>")
        return "".join(parts)


def _width(text):
    """How many columns ``text`` takes in a terminal or a <pre>: a Chinese character takes two."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _padded(text, width, right=False):
    space = " " * max(0, width - _width(text))
    return space + text if right else text + space


def _run_text(run):
    if run is None:
        return "-"
    if run.status == "same":
        return _("✓ same")
    if run.status == "differs":
        # Translators: {detail} says how, e.g. "max |diff| 0.3"
        return _("✗ differs ({detail})").format(detail=run.detail)
    return _("✗ error")


def _dims_text(shape):
    return "[" + ", ".join("None" if d is None or d == -1 else str(int(d)) for d in shape) + "]"


def _dtype_text(dtype):
    return str(dtype).replace("paddle.", "")


def _specs_text(specs):
    if not specs:
        return _("(none)")
    return ", ".join(f"{_dims_text(s.shape)} {_dtype_text(s.dtype)}" for s in specs)


def _short(obj, limit=40):
    text = " ".join(repr(obj).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _is_dynamic(dim):
    return dim is None or int(dim) < 0
