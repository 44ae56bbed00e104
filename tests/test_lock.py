"""One lock: requirements.lock holds the course environment's exact versions, pyproject.toml the ranges.

The course's own environments (make, Binder, the hub image, CI) install the lock; a learner installs the
package's ranges into their own Python. These tests keep the two honest with each other and with the conda
files, which must repeat the lock because repo2docker cannot read another file while it builds them.
"""
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
LOCK_LINE = re.compile(r"([A-Za-z0-9][\w.-]*)==([\w.+!-]+)")


def pins(lines):
    found = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if not line:
            continue
        match = LOCK_LINE.fullmatch(line)
        assert match, f"not an exact pin: {line!r}"
        found[canonicalize_name(match.group(1))] = match.group(2)
    return found


LOCK = pins((ROOT / "requirements.lock").read_text().splitlines())


def requirements(*extras):
    listed = [Requirement(r) for r in PROJECT["dependencies"]]
    for extra in extras:
        listed += [Requirement(r) for r in PROJECT["optional-dependencies"][extra]]
    return [r for r in listed if canonicalize_name(r.name) != "paddlecourse"]


def conda_environment(path):
    env = yaml.safe_load((ROOT / path).read_text())
    conda = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict))
    return conda, pins(pip)


def test_the_package_declares_ranges_not_pins():
    exact = [str(r) for r in requirements() if any(s.operator in ("==", "===") for s in r.specifier)]
    assert not exact, f"a learner's Python could not keep its own versions of: {exact}"


def test_a_learners_kernel_needs_no_jupyter_front_end_grading_hub_or_site_package():
    base = {canonicalize_name(r.name) for r in requirements()}
    servers = {"jupyterlab", "notebook", "nbgrader", "jupyterhub", "nbgitpuller", "sphinx", "pytest",
               "jupyterlab-language-pack-zh-cn", "nbclient", "nbconvert", "jupyter-server"}
    assert not base & servers, f"these belong in an extra: {sorted(base & servers)}"
    assert {"lab", "teach", "hub", "site", "test"} <= set(PROJECT["optional-dependencies"])


def test_requires_python_covers_every_cpython_paddle_3_3_1_has_wheels_for():
    from packaging.specifiers import SpecifierSet

    allowed = SpecifierSet(PROJECT["requires-python"])
    assert all(version in allowed for version in ["3.9.0", "3.10.0", "3.11.7", "3.12.1", "3.13.0"]), \
        "Paddle 3.3.1 has wheels for cp39 to cp313"
    assert "3.8.18" not in allowed and "3.14.0" not in allowed, "Paddle 3.3.1 has no wheel for 3.8 or 3.14"


@pytest.mark.parametrize("extras", [(), ("lab", "teach", "hub", "site", "test")], ids=["package", "all extras"])
def test_the_lock_satisfies_every_range(extras):
    for requirement in requirements(*extras):
        if requirement.marker and not requirement.marker.evaluate({"python_version": "3.11"}):
            continue
        version = LOCK.get(canonicalize_name(requirement.name))
        assert version, f"{requirement.name} is not in requirements.lock: run `make lock`"
        assert requirement.specifier.contains(version, prereleases=True), \
            f"requirements.lock has {requirement.name}=={version}, outside pyproject.toml's {requirement}: run `make lock`"


@pytest.mark.parametrize("path", ["environment.yml", "binder/environment.yml"])
def test_conda_environments_repeat_the_lock(path):
    conda, pip = conda_environment(path)
    differ = {name: (version, LOCK.get(name)) for name, version in pip.items() if LOCK.get(name) != version}
    assert not differ, f"{path} differs from requirements.lock (theirs, lock's): {differ}; run `make lock`"
    needed = {canonicalize_name(r.name) for r in requirements("lab", "teach", "hub")}
    assert needed <= set(pip), f"{path} lacks {sorted(needed - set(pip))}; run `make lock`"
    assert "graphviz" in conda, "the Graphviz program comes from conda-forge"
    assert [d for d in conda if d.startswith("python=")] == ["python=3.11"], \
        "the lock is for CPython 3.11 (an unpinned Python gets 3.10 on Binder)"


def test_the_course_environments_install_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    installs = [line for line in makefile.splitlines() if "pip install" in line and "-e " in line]
    assert installs and all("-c requirements.lock" in line for line in installs), installs
    hub_install = [line for line in (ROOT / "deploy" / "install.sh").read_text().splitlines() if "pip\" install" in line
                   and "[" in line]
    assert hub_install and all("-c " in line and "requirements.lock" in line for line in hub_install), hub_install


def test_the_jupyter_stack_is_the_one_nbgrader_supports():
    lab = tuple(int(x) for x in LOCK["jupyterlab"].split(".")[:2])
    notebook = tuple(int(x) for x in LOCK["notebook"].split(".")[:2])
    assert LOCK["nbgrader"].startswith("0.9.")
    assert (4, 2) <= lab < (5, 0), "nbgrader 0.9 needs JupyterLab >=4.2,<5"
    assert (7, 2) <= notebook < (8, 0), "nbgrader 0.9 needs Notebook >=7.2,<8"
    from paddlecourse.verify import CHECKED_PADDLE

    assert LOCK["paddlepaddle"] == CHECKED_PADDLE, "verify() and the stored outputs name the lock's Paddle"


def test_binder_postbuild_stops_on_errors_and_installs_the_kernel():
    post_build = (ROOT / "binder" / "postBuild").read_text()
    assert "set -e" in post_build
    assert "paddlecourse kernel" in post_build
