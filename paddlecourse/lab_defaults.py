"""JupyterLab's defaults for the course's environment: installed with the kernel (`paddlecourse kernel`),
so `make lab`, Binder and a hub's learners start the same Lab.

Lab reads them from <prefix>/share/jupyter/lab/settings/overrides.d/ as its own defaults: a learner can still
change each one in Settings.
"""
import json
import sys
from pathlib import Path

DEFAULTS = {
    # no "Would you like to get notified about official Jupyter news?" toast over the first lesson, and no
    # request to jupyter.org for news or a newer JupyterLab: a class's environment is pinned, and a workshop
    # room may have no internet at all
    "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False},
}


def install_lab_defaults(prefix=None):
    """Write DEFAULTS for the Lab of the environment at `prefix` (the running one by default); returns the file."""
    target = Path(prefix or sys.prefix) / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "paddlecourse.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(DEFAULTS, indent=1) + "\n", encoding="utf-8")
    return target
