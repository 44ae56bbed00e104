"""The course kernel: a Jupyter kernelspec that starts Python with Paddle already quiet.

glog reads GLOG_minloglevel only once, at the first `import paddle`, so the
kernel's environment is the one place where it always wins.

The kernel also loads this module as an IPython extension when it starts, so
`%catchup l02-ex3` works (and progress is recorded) before a lesson's setup
cell has run - e.g. right after a kernel restart.

`paddlecourse kernel` installs, with the kernelspec, JupyterLab's defaults for the environment
(LAB_DEFAULTS), so `make lab`, Binder and a hub's learners start the same Lab.
"""
import json
import sys
from pathlib import Path

from .session import HARMLESS_WARNINGS

KERNEL_NAME = "paddlecourse"
DISPLAY_NAME = "Python 3 (paddlecourse)"
KERNEL_ENV = {
    "GLOG_minloglevel": "2",
    # The same warnings setup() filters, silenced from the first line of the kernel on.
    "PYTHONWARNINGS": ",".join(f"ignore:{text}:UserWarning" for text in HARMLESS_WARNINGS),
}
# extra_extensions adds to (does not replace) extensions a user configured themselves.
STARTUP_ARGUMENTS = ["--IPKernelApp.extra_extensions=paddlecourse.kernel"]


# Lab reads these from <prefix>/share/jupyter/lab/settings/overrides.d/ as its own defaults (a learner can still
# change each in Settings): no "Would you like to get notified about official Jupyter news?" toast over the first
# lesson, and no request to jupyter.org for news or a newer Lab (a class's environment is pinned, and a workshop
# room may have no internet at all).
LAB_DEFAULTS = {
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def install_kernel(prefix=None, user=False):
    """Install the course kernelspec; returns the folder it was written to.

    By default it goes into the running environment (``sys.prefix``), so a
    venv, a conda env and a Binder image each get their own copy.
    """
    from ipykernel.kernelspec import install

    folder = install(
        kernel_name=KERNEL_NAME,
        display_name=DISPLAY_NAME,
        user=user,
        prefix=None if user else (prefix or sys.prefix),
        env=dict(KERNEL_ENV),
    )
    # ipykernel's install() has no parameter for kernel arguments: add them to the written spec.
    spec_file = Path(folder) / "kernel.json"
    spec = json.loads(spec_file.read_text())
    spec["argv"] = [a for a in spec["argv"] if a not in STARTUP_ARGUMENTS] + STARTUP_ARGUMENTS
    spec_file.write_text(json.dumps(spec, indent=1))
    return folder


def install_lab_defaults(prefix=None):
    """Write LAB_DEFAULTS for the Lab of the environment at `prefix` (the running one by default); returns the file."""
    target = Path(prefix or sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "paddlecourse.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(LAB_DEFAULTS, indent=1) + "\n", encoding="utf-8")
    return target


def load_ipython_extension(shell):
    """Run by the course kernel at start, before any setup(): `%catchup`, progress recording, and
    the one-sentence display of failed checks and undefined names (setup() does the same again)."""
    from .catchup import load_ipython_extension as load_catchup
    from .progress import register
    from .session import _friendly_errors

    load_catchup(shell)
    register(shell)
    _friendly_errors()
