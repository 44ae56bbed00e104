"""verify(): the five post-install checks as one report, each with what to do if it fails."""
import contextlib
import html
import io
from dataclasses import dataclass
from importlib import metadata

from .errors import error_message
from .language import _, N_
from .modes import static_mode


@dataclass
class CheckResult:
    """One line of the report: did the check pass, what was seen, what to do if not."""

    name: str
    ok: bool
    seen: str
    fix: str = ""
    note: bool = False   # passed, with something to read: ``fix`` holds the note


# The Paddle the stored outputs come from: the course's own environment installs it (requirements.lock;
# tests/test_lock.py keeps the two equal). The package itself accepts any 3.x, so this is not read from its
# requirements.
CHECKED_PADDLE = "3.3.1"


def pinned_paddle_version():
    """The paddlepaddle version the course is checked on (its stored outputs come from it)."""
    return CHECKED_PADDLE


def check_version():
    """The pinned version passes; another 3.x passes with a note (the lessons run on it and say where it
    differs); anything else fails."""
    import paddle
    from packaging.version import InvalidVersion, Version

    pinned = pinned_paddle_version()
    seen = f"paddle {paddle.__version__}"
    if pinned is None or paddle.__version__ == pinned:
        return True, seen, ""
    install = _("Install the pinned version in this environment: pip install paddlepaddle=={pinned}").format(
        pinned=pinned)
    try:
        same_major = Version(paddle.__version__).major == Version(pinned).major
    except InvalidVersion:
        same_major = False
    if same_major:
        note = _("The lessons run on every Paddle {major}.x and say where this version differs. "
                 "Run `paddlecourse verify --facts` to see which of the course's statements about Paddle hold here; "
                 "or: {install}").format(major=Version(pinned).major, install=install)
        return True, _("{seen}; the course is checked on {pinned}").format(seen=seen, pinned=pinned), note, True
    return False, _("{seen}, but the course is pinned to {pinned}").format(seen=seen, pinned=pinned), install


def check_device():
    import paddle

    device = paddle.device.get_device()
    if paddle.is_compiled_with_cuda() and device == "cpu":
        return False, _("a GPU build of Paddle that sees no GPU"), (
            _("Check `nvidia-smi`, and that the CUDA version matches the paddlepaddle-gpu wheel you installed. "
              "The course itself runs fine on the CPU package `paddlepaddle`.")
        )
    build = _("GPU build") if paddle.is_compiled_with_cuda() else _("CPU build (package paddlepaddle)")
    return True, f"{device} - {build}", ""


def check_run_check():
    import paddle

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        paddle.utils.run_check()
    lines = [line.strip() for line in printed.getvalue().splitlines() if line.strip()]
    works = [line for line in lines if line.startswith("PaddlePaddle works well")]
    if works and any("installed successfully" in line for line in lines):
        return True, works[0], ""
    return False, " / ".join(lines[-2:]) or _("run_check printed nothing"), (
        _("Reinstall into a clean virtual environment: python -m venv env && env/bin/pip install paddlepaddle")
    )


def check_dynamic_backward():
    """Forward and backward in dynamic mode, with a gradient that really exists.

    `paddle.randn` makes tensors with stop_gradient=True, so a check that forgets
    to flip it calls backward() and silently gets no gradient at all.
    """
    import numpy as np
    import paddle

    a = paddle.randn([4, 3])
    a.stop_gradient = False
    b = paddle.randn([3, 5])
    paddle.matmul(a, b).sum().backward()
    if a.grad is None:
        return False, _("backward() ran but a.grad is None"), _("Make sure `a.stop_gradient = False` before the "
                                                                 "forward pass.")
    # d sum(a @ b) / d a[i, k] = sum_j b[k, j], the same for every row i
    by_hand = np.tile(b.numpy().sum(axis=1), (4, 1))
    if not np.allclose(a.grad.numpy(), by_hand, atol=1e-5):
        return False, _("a.grad exists but differs from the chain rule"), _("Reinstall Paddle; its autograd gives "
                                                                             "wrong numbers.")
    return True, _("a.grad has shape [4, 3] and matches the chain rule"), ""


def check_static_executor():
    import numpy as np
    import paddle

    with static_mode():
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.static.program_guard(main, startup):
            x = paddle.static.data(name="x", shape=[-1, 4], dtype="float32")
            y = paddle.mean(x * 2 + 1)
        exe = paddle.static.Executor(paddle.CPUPlace())
        exe.run(startup)
        (out,) = exe.run(main, feed={"x": np.ones((2, 4), dtype="float32")}, fetch_list=[y])
    if float(out) != 3.0:
        return False, _("mean(2x + 1) at x = 1 gave {value}").format(value=float(out)), _(
            "Reinstall Paddle; its static executor gives wrong numbers.")
    return True, _("an Executor ran a Program: mean(2x + 1) at x = 1 is 3.0"), ""


# Translators: the five checks' titles in verify()'s report
CHECKS = [
    (N_("1. import and version"), check_version),
    (N_("2. device"), check_device),
    ("3. paddle.utils.run_check()", check_run_check),
    (N_("4. dynamic forward + backward"), check_dynamic_backward),
    (N_("5. static program on an Executor"), check_static_executor),
]


class Report:
    """The checks' results; shows as a table in a notebook and as text elsewhere."""

    def __init__(self, results):
        self.results = list(results)

    @property
    def ok(self):
        return all(r.ok for r in self.results)

    def __str__(self):
        lines = []
        for r in self.results:
            # Translators: one line of verify()'s report: a check's title, then what it saw
            lines.append(f"{self._mark(r)} " + _("{check}: {seen}").format(check=r.name, seen=r.seen))
            if not r.ok:
                lines.append(_("    what to do: {fix}").format(fix=r.fix))
            elif r.note:
                lines.append(_("    note: {fix}").format(fix=r.fix))
        lines.append(self._verdict(_("Some checks failed: see 'what to do' above.")))
        return "\n".join(lines)

    @staticmethod
    def _mark(result):
        return "!" if result.ok and result.note else "✓" if result.ok else "✗"

    def _verdict(self, failed):
        if not self.ok:
            return failed
        if any(r.note for r in self.results):
            return _("All five checks passed; read the note above.")
        return _("All five checks passed.")

    __repr__ = __str__

    def _repr_html_(self):
        rows = "".join(
            f"<tr><td>{self._mark(r)}</td><td>{html.escape(r.name)}</td><td>{html.escape(r.seen)}</td>"
            f"<td>{html.escape(r.fix)}</td></tr>"
            for r in self.results
        )
        verdict = self._verdict(_("Some checks failed: see the last column."))
        # Translators: the verify table's column heads
        heads = "".join(f"<th>{html.escape(h)}</th>" for h in (_("check"), _("seen"), _("what to do")))
        return (
            f"<table class='paddlecourse-verify'><tr><th></th>{heads}</tr>"
            f"{rows}</table><p>{html.escape(verdict)}</p>"
        )


def run_checks(checks):
    """Run ``(name, function)`` pairs; a check that raises is reported, not propagated."""
    results = []
    for name, check in checks:
        note = False
        try:
            ok, seen, fix, *rest = check()
            note = bool(rest and rest[0])
        except Exception as error:  # the report must finish even when Paddle is broken
            # whole sentences, without Paddle's C++ locations: never a message cut mid-word
            # Translators: {error} is Paddle's or Python's own error, "TypeName: message" (English)
            ok, seen = False, _("raised {error}").format(error=error_message(error))
            fix = _("Read the error above; a clean virtual environment and a reinstall fix most install problems.")
        results.append(CheckResult(_(name), ok, seen, fix, note))
    return Report(results)


def verify():
    """Run the five post-install checks and return a report (it displays itself)."""
    return run_checks(CHECKS)
