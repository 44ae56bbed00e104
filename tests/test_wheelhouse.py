"""Offline wheelhouse: built here for this machine, then installed into a fresh venv with the index off.

The test uses a reduced requirement set (numpy and packaging, which `import paddlecourse`
needs) so it stays small; the full course (about 450 MB with Paddle) goes through the
same code with the course's pins. The `pip download` step needs the package index
(or a mirror); the install step runs with no index and no pip configuration at all.
"""
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from paddlecourse.teach.wheelhouse import TARGETS, build_wheelhouse, course_requirements, download_command

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.timeout(600)


def offline_env():
    """An environment in which pip can reach nothing but what the command line names."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
               http_proxy="http://127.0.0.1:9", https_proxy="http://127.0.0.1:9")
    return env


def test_wheelhouse_installs_the_course_with_the_index_disabled(tmp_path):
    house = tmp_path / "wheelhouse"
    try:
        wheels = build_wheelhouse(house, requirements=["numpy==2.4.6", "packaging==26.4"])
    except subprocess.CalledProcessError as error:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"could not download wheels (no index reachable?): {error}")
    names = sorted(w.name for w in wheels)
    assert [n.split("-")[0] for n in names] == ["numpy", "packaging", "paddlecourse"], names
    with zipfile.ZipFile(next(w for w in wheels if w.name.startswith("paddlecourse-"))) as course_wheel:
        listed = course_wheel.namelist()
    # one module of each room, the old name nbgrader configs use, and the translations read at run time;
    # checks/, export/, perf/, author/, teach/ and the rest: below
    for module in ("catchup", "grading", "author/build", "teach/live_coding", "teach/wheelhouse"):
        assert f"paddlecourse/{module}.py" in listed
    assert "paddlecourse/locale/zh/LC_MESSAGES/paddlecourse.po" in listed
    # the lessons travel with the package (both editions: `paddlecourse lessons`), the solutions %catchup reads,
    # and the lock the wheelhouse takes its versions from
    for folder in ("lessons", "lessons/zh", "solutions", "solutions/zh"):
        shipped = sorted(p.name for p in (ROOT / folder).glob("*.ipynb"))
        assert shipped and all(f"paddlecourse/{folder}/{name}" in listed for name in shipped), folder
    assert "paddlecourse/requirements.lock" in listed
    # the licence travels with the course, and its metadata names it as setuptools will keep building it
    (info,) = {name.split("/")[0] for name in listed if name.split("/")[0].endswith(".dist-info")}
    assert f"{info}/licenses/LICENSE" in listed
    with zipfile.ZipFile(next(w for w in wheels if w.name.startswith("paddlecourse-"))) as course_wheel:
        assert "License-Expression: Apache-2.0" in course_wheel.read(f"{info}/METADATA").decode()
    # every subpackage the lessons import must travel in the wheel too
    for package in sorted(p.parent for p in (ROOT / "paddlecourse").rglob("__init__.py")):
        name = package.relative_to(ROOT).as_posix() + "/__init__.py"
        assert name in listed, f"{name} is missing from the course wheel (pyproject [tool.setuptools] packages)"
    assert "--no-index" in (house / "INSTALL.txt").read_text()

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--no-index", "--find-links", str(house)]
    env = offline_env()
    subprocess.run(pip + ["numpy==2.4.6", "packaging==26.4"], check=True, env=env)
    # paddle and Jupyter are left out of this small wheelhouse, so the course itself goes in without them
    subprocess.run(pip + ["--no-deps", "paddlecourse"], check=True, env=env)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import paddlecourse, numpy; paddlecourse.check_value('x', numpy.float32(42), 42)"],
        check=True, env=env, capture_output=True, text=True, cwd=tmp_path,
    )
    assert "✓ x: 42" in done.stdout
    assert subprocess.run([str(venv / "bin" / "paddlecourse"), "--help"], env=env, capture_output=True).returncode == 0


def test_an_installed_package_needs_the_index_when_the_wheel_is_missing(tmp_path):
    """The index really is off in that environment: a wheel that is not in the house cannot be found."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-d", str(tmp_path / "x"),
                           "--find-links", str(tmp_path), "packaging==26.4"],
                          env=offline_env(), capture_output=True, text=True)
    assert done.returncode != 0


def test_named_targets_become_pip_platform_options(tmp_path):
    command = download_command(tmp_path, ["paddlepaddle==3.3.1"], platform=TARGETS["windows"], python_version="3.11")
    text = " ".join(command)
    assert "download" in command and "--only-binary=:all:" in command
    assert "--platform win_amd64" in text and "--python-version 311" in text and "--abi cp311" in text
    linux = " ".join(download_command(tmp_path, [], platform=TARGETS["linux"], python_version="3.11"))
    assert "--platform linux_x86_64" in linux  # Paddle's own Linux wheel is tagged plain linux_x86_64
    # with no platform named, pip picks wheels for this machine
    assert "--platform" not in download_command(tmp_path, ["numpy"])


def test_the_full_set_is_the_package_with_lab_at_the_locks_versions():
    wanted, constraints = course_requirements(python_version="3.11")
    assert wanted == ["paddlecourse[lab]"]
    assert constraints == ["-c", str(ROOT / "requirements.lock")]
    # another Python: the lock's exact versions may have no wheel there, so the ranges decide
    assert course_requirements(("lab", "teach"), python_version="3.12") == (["paddlecourse[lab,teach]"], [])
