"""One set of pins: pyproject.toml, environment.yml and binder/environment.yml must agree."""
import re
import tomllib
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PINS = PYPROJECT["project"]["dependencies"]


def conda_environment(path):
    env = yaml.safe_load((ROOT / path).read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    return conda, pip


def test_every_runtime_dependency_is_pinned_exactly():
    loose = [d for d in PINS + PYPROJECT["project"]["optional-dependencies"]["test"] if not re.fullmatch(r"[\w.-]+==[\w.]+", d)]
    assert not loose, f"pin these with ==: {loose}"


@pytest.mark.parametrize("path", ["environment.yml", "binder/environment.yml"])
def test_conda_environments_repeat_the_pins(path):
    conda, pip = conda_environment(path)
    assert pip == PINS, f"{path}'s pip section differs from pyproject.toml's dependencies"
    assert "graphviz" in conda, "the Graphviz program comes from conda-forge"
    python = [d for d in conda if d.startswith("python=")]
    assert python == ["python=3.11"], "an unpinned Python gets 3.10 on Binder"
    assert PYPROJECT["project"]["requires-python"] == ">=3.11,<3.12"


def test_the_jupyter_stack_is_the_one_nbgrader_supports():
    pins = dict(p.split("==") for p in PINS)
    lab = tuple(int(x) for x in pins["jupyterlab"].split(".")[:2])
    notebook = tuple(int(x) for x in pins["notebook"].split(".")[:2])
    assert pins["nbgrader"].startswith("0.9.")
    assert (4, 2) <= lab < (5, 0), "nbgrader 0.9 needs JupyterLab >=4.2,<5"
    assert (7, 2) <= notebook < (8, 0), "nbgrader 0.9 needs Notebook >=7.2,<8"


def test_binder_postbuild_stops_on_errors_and_installs_the_kernel():
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert "set -e" in post_build
    assert "paddlecourse kernel" in post_build
