"""The course's wheel outside the course's own environment: a slice of `make matrix` (noxfile.py) in the suite.

- **Another Python, the newest dependencies.** A fresh uv venv of CPython 3.13 (else 3.12), the wheel installed
  with the newest versions its ranges allow (binary wheels only), then `import paddlecourse`, `paddlecourse lessons
  --help`, and lessons 00, 02 and 05 on that venv's plain `python3` kernel (ipykernel's own, not the course's
  `paddlecourse` kernelspec), with no error cell.
- **An existing Jupyter stays as it was.** A venv of CPython 3.12 (else 3.13) that already holds JupyterLab,
  ipykernel, numpy and Paddle at other allowed versions than requirements.lock's; the wheel installed with a plain
  `pip install`, as a learner would; no package that was there before is replaced, and lesson 02 runs there on the
  `python3` kernel with no error cell.

The course's own environment (.venv, CPython 3.11, the lock) is what every other test uses; these two are the
only ones that would notice a range that no longer installs, a lesson that needs the lock's versions, or a
requirement that pulls a learner's Jupyter up or down. They download wheels on a machine's first run (Paddle's
is about 195 MB; uv's and pip's caches keep them). No interpreter is ever downloaded: without one, the test skips
loudly, and fails under CI=true.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "tools" / "run_solutions.py"
LOCK = ROOT / "requirements.lock"
# the cheaper solutions, measured by `make matrix` (CPython 3.10-3.13): about 20-45 s each on a busy 2-core machine
NEWEST_LESSONS = ["00_setup_and_first_run.ipynb", "02_autograd_by_hand.ipynb", "05_dual_mode_mlp.ipynb"]
EXISTING_LESSON = "02_autograd_by_hand.ipynb"
# A learner's existing Jupyter: every version allowed by pyproject.toml's ranges (JupyterLab is none of its
# requirements) and none of them the lock's (asserted below, so the test keeps proving something when the lock moves)
EXISTING = {"jupyterlab": "4.3.8", "ipykernel": "6.29.5", "numpy": "2.2.6", "paddlepaddle": "3.2.2"}
# what the course wheel must carry to build: setup.py copies lessons/, solutions/ and the lock into it
SOURCES = ["pyproject.toml", "setup.py", "MANIFEST.in", "LICENSE", "README.md", "requirements.lock",
           "paddlecourse", "lessons", "solutions"]

pytestmark = pytest.mark.timeout(1500)


def missing(reason):
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def find_python(*versions):
    """(path, "3.X") of the first CPython of `versions` found on PATH or in ~/.pyenv/versions; else skip/fail."""
    for version in versions:
        candidates = [shutil.which(f"python{version}"),
                      *sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}.*/bin/python{version}")))]
        for candidate in filter(None, candidates):
            found = subprocess.run([candidate, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                   capture_output=True, text=True)
            if found.returncode == 0 and found.stdout.strip() == version:
                return candidate, version
    missing(f"PORTABILITY INTERPRETER MISSING: none of CPython {', '.join(versions)} on PATH or in ~/.pyenv/versions "
            f"(install one, e.g. `pyenv install {versions[0]}` or `apt-get install python{versions[0]}-venv`); "
            "the course's wheel is then not tried outside the course's own Python")


def uv():
    try:
        from uv import find_uv_bin
        return find_uv_bin()
    except (ImportError, FileNotFoundError):
        path = shutil.which("uv")
        if not path:
            missing("uv is not installed (it is in the test extra: pip install -c requirements.lock -e '.[test]')")
        return path


def clean_env(**extra):
    """This process's environment without what points at the course's own venv or Jupyter."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "CONDA_PREFIX")
           and not k.startswith(("JUPYTER_", "PIP_", "UV_"))}
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", UV_PYTHON_DOWNLOADS="never",
               JUPYTER_PREFER_ENV_PATH="1", **extra)
    return env


def run(command, **kwargs):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=clean_env(), **kwargs)
    assert done.returncode == 0, (f"`{' '.join(map(str, command))}` exited {done.returncode}:\n"
                                  f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout


@pytest.fixture(scope="module")
def course_wheel(tmp_path_factory):
    """The course's wheel, built from a copy of this checkout's sources (a build in the checkout itself writes
    build/ and *.egg-info there, where another test may be building at the same moment)."""
    source = tmp_path_factory.mktemp("wheel-source")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", ".ipynb_checkpoints")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, source / name)
    out = tmp_path_factory.mktemp("wheel")
    run([uv(), "build", "--wheel", "--out-dir", out, source])
    (wheel,) = out.glob("paddlecourse-*.whl")
    return wheel


def lesson_errors(venv, notebooks, work):
    """Run `notebooks` (copies of solutions/) on the venv's plain python3 kernel; every error cell, as text."""
    work.mkdir()
    for name in notebooks:
        shutil.copy(ROOT / "solutions" / name, work / name)
    results = work / "results.json"
    done = subprocess.run([venv / "bin" / "python", RUNNER, "--kernel", "python3", *(f"--only={n}" for n in notebooks),
                           work, results], capture_output=True, text=True, env=clean_env(), cwd=work)
    assert done.returncode in (0, 1), (f"the runner could not run the lessons on {venv}'s own python3 kernel "
                                       f"(exit {done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    found = json.loads(results.read_text())
    assert sorted(found) == sorted(notebooks), found
    errors = []
    for name, result in found.items():
        errors += [f"{name} cell [{e['index']}] {e['ename']}: {e['evalue'][:300]}" for e in result["errors"]]
        if result["failure"]:
            errors.append(f"{name}: the run stopped: {result['failure']}")
    return errors


def installed(venv):
    listed = json.loads(run([venv / "bin" / "python", "-m", "pip", "list", "--format=json"]))
    return {p["name"].lower().replace("_", "-"): p["version"] for p in listed}


def test_newest_dependencies_on_another_python(course_wheel, tmp_path):
    python, version = find_python("3.13", "3.12")
    venv = tmp_path / f"venv-{version}"
    run([uv(), "venv", "--seed", "--python", python, venv])
    run([uv(), "pip", "install", "--python", venv / "bin" / "python", "--only-binary", ":all:", course_wheel])
    # the runner's one extra (ipykernel already brings jupyter_client, nbformat and traitlets), nothing lifted
    frozen = tmp_path / "frozen.txt"
    frozen.write_text(run([uv(), "pip", "freeze", "--python", venv / "bin" / "python"]))
    run([uv(), "pip", "install", "--python", venv / "bin" / "python", "--only-binary", ":all:", "-c", frozen, "nbclient"])
    versions = installed(venv)

    imported = run([venv / "bin" / "python", "-c",
                    "import sys, paddlecourse; print(sys.version.split()[0], paddlecourse.__file__)"],
                   cwd=tmp_path)   # not the checkout, whose paddlecourse/ `python -c` would find first
    assert imported.startswith(version + ".") and str(venv) in imported, imported
    helped = run([venv / "bin" / "paddlecourse", "lessons", "--help"])
    assert "usage:" in helped and "lessons" in helped, helped

    errors = lesson_errors(venv, NEWEST_LESSONS, tmp_path / "lessons")
    assert not errors, (f"on CPython {version} with the newest allowed dependencies (paddlepaddle "
                        f"{versions.get('paddlepaddle')}, numpy {versions.get('numpy')}, ipykernel "
                        f"{versions.get('ipykernel')}, matplotlib {versions.get('matplotlib')}), "
                        f"{len(errors)} error cells:\n" + "\n".join(errors))


def lock_versions():
    pins = {}
    for line in LOCK.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            requirement = Requirement(line)
            pins[requirement.name.lower()] = str(requirement.specifier).removeprefix("==")
    return pins


def test_installing_into_an_existing_jupyter_replaces_nothing(course_wheel, tmp_path):
    python, version = find_python("3.12", "3.13")
    pins = lock_versions()
    same = {name: v for name, v in EXISTING.items() if pins.get(name) == v}
    assert not same, f"the existing Jupyter must differ from requirements.lock, but these are the lock's: {same}"
    venv = tmp_path / f"existing-{version}"
    run([uv(), "venv", "--seed", "--python", python, venv])
    run([uv(), "pip", "install", "--python", venv / "bin" / "python", "--only-binary", ":all:",
         *(f"{name}=={v}" for name, v in EXISTING.items())])
    before = installed(venv)
    assert {name: before.get(name) for name in EXISTING} == EXISTING, before

    run([venv / "bin" / "python", "-m", "pip", "install", course_wheel])   # as a learner would: plain pip
    after = installed(venv)
    changed = {name: (v, after.get(name)) for name, v in before.items() if after.get(name) != v}
    added = sorted(f"{name}=={v}" for name, v in after.items() if name not in before)
    record = ROOT / "test-artifacts" / "portability-existing-jupyter.json"
    record.parent.mkdir(exist_ok=True)
    record.write_text(json.dumps({"python": version, "before": before, "after": after, "added": added}, indent=1))
    print(f"CPython {version}, an existing Jupyter:", {name: before[name] for name in EXISTING},
          f"kept; `pip install {course_wheel.name}` added {', '.join(added)}")
    assert "paddlecourse" in after, added
    assert not changed, ("`pip install` of the course's wheel replaced packages of the existing environment "
                         "(name: (before, after)): " + ", ".join(f"{n}: {b} -> {a}" for n, (b, a) in changed.items()))

    errors = lesson_errors(venv, [EXISTING_LESSON], tmp_path / "lessons")
    assert not errors, (f"in an existing Jupyter on CPython {version} ({', '.join(f'{n} {v}' for n, v in EXISTING.items())}),"
                        f" {len(errors)} error cells:\n" + "\n".join(errors))
