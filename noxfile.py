"""The portability matrix: every lesson on every CPython requires-python admits (3.9-3.13), each with the lowest
and the newest dependencies pyproject.toml allows, installed from the course's wheel as a learner installs it (not the course's lock).

    make matrix                      every session (two at a time with MATRIX_JOBS=2), then the table
    .venv/bin/nox -s wheel           the course wheel, once, into build/matrix/wheel/
    .venv/bin/nox -s "lessons-3.12(newest)"
    .venv/bin/nox -s report          the Markdown table of every result in build/matrix/results/

Each `lessons` session: a fresh uv venv of that CPython, the wheel installed with its ranges (lowest:
`--resolution lowest-direct`; newest: the default; both binary-only, as a learner's pip would rarely build
Paddle's dependencies), pip as a learner has it (lowest: the one that CPython bundles, `ensurepip`; newest: the
newest), nbclient to run the notebooks (it adds nothing else: ipykernel already brings its dependencies), then
every English solution copied to build/matrix/work/<session>/ run on that venv's plain `python3` kernel
(ipykernel's own, not the course's `paddlecourse` kernelspec) by tools/run_solutions.py. One JSON result per
session in build/matrix/results/. The pyenv interpreters in ~/.pyenv/versions/*/bin are found when present; no
interpreter is ever downloaded (UV_PYTHON_DOWNLOADS=never).
"""
import glob
import json
import os
import shutil
import sys
import time
import zipfile
from pathlib import Path

import nox

from paddlecourse.lesson_index import lesson_paths   # nox runs from the course's .venv

ROOT = Path(__file__).resolve().parent
MATRIX = ROOT / "build" / "matrix"
WHEELS = MATRIX / "wheel"
RESULTS = MATRIX / "results"


def allowed_pythons():
    """Every CPython 3.x minor release pyproject.toml's requires-python admits (3.9-3.13 today)."""
    import tomllib

    from packaging.specifiers import SpecifierSet

    allowed = SpecifierSet(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"])
    return [f"3.{minor}" for minor in range(6, 20) if allowed.contains(f"3.{minor}.0")]


PYTHONS = allowed_pythons()
# what the JSON records: the lesson kernel's main parts, as installed
REPORTED = ["paddlepaddle", "numpy", "pip", "ipykernel", "matplotlib"]

# nox (and uv under it) look interpreters up on PATH: put pyenv's in front (each bin/ holds its own python3.X),
# and the bin/ of the Python running nox (the course's .venv holds uv) before them
_pyenv = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.*/bin")))
os.environ["PATH"] = os.pathsep.join([os.path.dirname(sys.executable)] + _pyenv + [os.environ.get("PATH", "")])
os.environ.setdefault("UV_PYTHON_DOWNLOADS", "never")

nox.options.sessions = ["wheel", "lessons", "report"]
nox.options.reuse_existing_virtualenvs = False
nox.options.envdir = str(MATRIX / "nox")   # the venvs, under git-ignored build/


def base_requirements(wheel_file):
    """The wheel's own Requires-Dist without the extras' (what a plain `pip install paddlecourse` installs)."""
    from packaging.requirements import Requirement

    with zipfile.ZipFile(wheel_file) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        lines = archive.read(metadata).decode().splitlines()
    requirements = [Requirement(line.split(":", 1)[1].strip()) for line in lines if line.startswith("Requires-Dist:")]
    return [str(r) for r in requirements if not (r.marker and "extra" in str(r.marker))]


def course_wheel():
    wheels = sorted(WHEELS.glob("paddlecourse-*.whl"))
    if len(wheels) != 1:
        raise RuntimeError(f"expected one course wheel in {WHEELS}, found {[w.name for w in wheels]}: "
                           "run `nox -s wheel` first")
    return wheels[0]


@nox.session(python=False)
def wheel(session):
    """Build the course wheel once (from this checkout's working tree) into build/matrix/wheel/."""
    shutil.rmtree(WHEELS, ignore_errors=True)
    session.run("uv", "build", "--wheel", "--out-dir", str(WHEELS), str(ROOT), external=True)
    session.log(f"built {course_wheel().name}")


@nox.session(python=PYTHONS, venv_backend="uv")
@nox.parametrize("deps", ["lowest", "newest"], ids=["lowest", "newest"])
def lessons(session, deps):
    """Every English solution on this CPython's plain python3 kernel, with the lowest or newest allowed deps."""
    started = time.time()
    wheel_file = course_wheel()
    if deps == "lowest":
        # lowest-direct lowers only what the command line names: name the wheel's own requirements too, so each
        # of them is at the lowest version that installs from a wheel on this CPython (the rest at the newest)
        session.install("--resolution", "lowest-direct", "--only-binary", ":all:", str(wheel_file),
                        *base_requirements(wheel_file))
    else:
        session.install("--only-binary", ":all:", str(wheel_file))
    if deps == "lowest":
        session.run("python", "-m", "ensurepip", "--default-pip")   # the pip this CPython bundles
    else:
        session.install("--only-binary", ":all:", "--upgrade", "pip")
    name = f"{session.python}-{deps}"
    work = MATRIX / "work" / name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    # the runner's one extra (jupyter_client, nbformat and traitlets are already there), with everything installed
    # held where it is (a newest nbclient must not lift the lowest nbformat)
    frozen = work.parent / f"{name}.frozen.txt"
    session.run("python", "-c", "import importlib.metadata as m, sys; open(sys.argv[1], 'w').write(''.join("
                "f'{d.metadata[\"Name\"]}=={d.version}\\n' for d in m.distributions()))", str(frozen))
    session.install("--only-binary", ":all:", "-c", str(frozen), "nbclient")
    for notebook in lesson_paths(ROOT / "solutions"):
        shutil.copy(notebook, work)
    RESULTS.mkdir(parents=True, exist_ok=True)
    cells = MATRIX / "work" / f"{name}.cells.json"
    env = {"JUPYTER_PREFER_ENV_PATH": "1", "PYTHONNOUSERSITE": "1"}
    status = "passed"
    try:
        session.run("python", str(ROOT / "tools" / "run_solutions.py"), "--kernel", "python3", str(work),
                    str(cells), env=env)
    except nox.command.CommandFailed:
        status = "failed"   # error cells (exit 1) or the wrong kernel (exit 2): the JSON says which
    versions = json.loads(session.run(
        "python", "-c",
        "import importlib.metadata as m, json, platform; "
        f"print(json.dumps({{'python': platform.python_version(), **{{n: m.version(n) for n in {REPORTED!r}}}}}))",
        silent=True))
    notebooks = json.loads(cells.read_text()) if cells.exists() else {}
    result = {"session": session.name, "python": versions.pop("python"), "deps": deps, "versions": versions,
              "wheel": wheel_file.name, "notebooks": notebooks, "kernel_ok": cells.exists(),
              "error_cells": sum(len(n["errors"]) + (n["failure"] is not None) for n in notebooks.values()),
              "seconds": round(time.time() - started, 1), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    (RESULTS / f"{name}.json").write_text(json.dumps(result, indent=1))
    session.log(f"{name}: {result['error_cells']} error cells, {result['seconds']} s -> {RESULTS / (name + '.json')}")
    if status == "failed":
        session.error(f"{name}: error cells or the wrong kernel (see {RESULTS / (name + '.json')})")


@nox.session(python=False)
def report(session):
    """One Markdown table of every result in build/matrix/results/."""
    session.run("python3", str(ROOT / "tools" / "matrix_report.py"), str(RESULTS), external=True)
