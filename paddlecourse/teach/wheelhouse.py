"""Offline wheelhouse: every wheel the course needs, for a named platform and Python, in one folder.

    paddlecourse wheelhouse wheelhouse-linux/ --target linux --python-version 3.11
    paddlecourse wheelhouse wheelhouse-mac/ --target mac-arm64 --python-version 3.11
    paddlecourse wheelhouse wheelhouse-win/ --target windows --python-version 3.11
    paddlecourse wheelhouse wheelhouse/ --platform manylinux_2_28_x86_64 --platform linux_x86_64   # any pip platform tags

Built with pip's own ``pip download --only-binary=:all:`` (and ``pip wheel`` for the
course itself): the package with JupyterLab (the ``lab`` extra), at the exact versions of
requirements.lock for Python 3.11, else at the package's ranges. The course wheel carries the
lessons, so the laptops need no copy of the repository. On the offline machine:

    python -m venv .venv
    .venv/bin/pip install --no-index --find-links wheelhouse/ "paddlecourse[lab]"
    .venv/bin/paddlecourse kernel
    .venv/bin/paddlecourse lessons paddlecourse-lessons
    .venv/bin/jupyter lab paddlecourse-lessons

Without ``--platform`` the wheels are for the machine running the command. The
full set for Linux is about 330 MB (the Paddle wheel alone about 195 MB).
"""
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]  # paddlecourse/teach/ -> the repository

# Named targets -> pip platform tags. Paddle's Linux wheel is tagged plain
# `linux_x86_64`, numpy's `manylinux_2_28`, most others `manylinux2014`: a Linux
# wheelhouse needs all three. pip counts older macOS/manylinux versions in.
TARGETS = {
    "linux": ["manylinux_2_28_x86_64", "manylinux2014_x86_64", "linux_x86_64"],
    "linux-aarch64": ["manylinux_2_28_aarch64", "manylinux2014_aarch64", "linux_aarch64"],
    "mac-arm64": ["macosx_14_0_arm64"],
    "mac-x86_64": ["macosx_14_0_x86_64"],
    "windows": ["win_amd64"],
}


# The lock is for the course's interpreter; on another Python its exact versions may have no wheel (numpy 2.4
# has none for 3.10), so there the wheelhouse takes the newest wheels the package's ranges allow.
LOCK_PYTHON = "3.11"


def course_lock(repo=REPO_ROOT):
    """requirements.lock: the repository's, else the installed wheel's copy (setup.py puts one there)."""
    for path in (Path(repo) / "requirements.lock", Path(__file__).resolve().parents[1] / "requirements.lock"):
        if path.exists():
            return path
    return None


def course_requirements(extras=("lab",), python_version=None, repo=REPO_ROOT):
    """(requirements, pip arguments) for the course's wheels: the package with ``extras``, at the lock's exact
    versions (pip reads it as constraints) when the wheels are for the lock's Python, else at its ranges."""
    wanted = [f"paddlecourse[{','.join(extras)}]" if extras else "paddlecourse"]
    version = python_version or "%d.%d" % sys.version_info[:2]
    lock = course_lock(repo)
    return wanted, (["-c", str(lock)] if lock and version == LOCK_PYTHON else [])


def python_tags(python_version):
    """'3.11' -> ('311', 'cp311') for pip's --python-version / --abi."""
    digits = python_version.replace(".", "")
    return digits, f"cp{digits}"


def download_command(dest, requirements, platform=None, python_version=None, pip_args=()):
    """The `pip download` command line for the wheelhouse (binary wheels only, so nothing builds offline)."""
    command = [sys.executable, "-m", "pip", "download", "--dest", str(dest), "--only-binary=:all:"]
    if platform or python_version:
        version = python_version or f"{sys.version_info.major}.{sys.version_info.minor}"
        digits, abi = python_tags(version)
        command += ["--python-version", digits, "--implementation", "cp", "--abi", abi, "--abi", "none", "--abi", "abi3"]
        for name in [platform] if isinstance(platform, str) else (platform or []):
            command += ["--platform", name]
    command += list(pip_args) + list(requirements)
    return command


def build_course_wheel(dest, repo=REPO_ROOT, pip_args=()):
    """The course's own wheel (paddlecourse-<version>-py3-none-any.whl) into ``dest``."""
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(dest), *pip_args, str(repo)]
    subprocess.run(command, check=True)
    return sorted(Path(dest).glob("paddlecourse-*.whl"))[-1]


def build_wheelhouse(dest, platform=None, python_version=None, extras=("lab",), requirements=None,
                     include_course=True, pip_args=(), repo=REPO_ROOT):
    """Fill ``dest`` with wheels for the course; returns the sorted wheel paths.

    ``requirements`` replaces the course's own set (tests use a small one);
    ``pip_args`` go to pip as they are (e.g. ``["-i", MIRROR]``).
    """
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    if include_course:
        build_course_wheel(dest, repo, pip_args)
    if requirements is None:
        wanted, constraints = course_requirements(extras, python_version, repo)
    else:
        wanted, constraints = list(requirements), []
    if wanted:
        # --find-links: the course's own wheel, just built, is found here (it is on no index)
        subprocess.run(download_command(dest, wanted, platform, python_version,
                                        [*pip_args, "--find-links", str(dest), *constraints]), check=True)
    (dest / "requirements.txt").write_text("\n".join(wanted) + "\n", encoding="utf-8")
    target = f"{platform or 'this machine'}, Python {python_version or '%d.%d' % sys.version_info[:2]}"
    (dest / "INSTALL.txt").write_text(
        f"Wheels for the paddlecourse course ({target}).\n"
        "Install with no network, beside this folder (the lessons come with the package):\n\n"
        "    python -m venv .venv\n"
        f"    .venv/bin/pip install --no-index --find-links {dest.name}/ \"paddlecourse"
        f"{'[' + ','.join(extras) + ']' if extras else ''}\"\n"
        "    .venv/bin/paddlecourse kernel\n"
        "    .venv/bin/paddlecourse lessons paddlecourse-lessons\n"
        "    .venv/bin/jupyter lab paddlecourse-lessons\n"
        "(Windows: .venv\\Scripts\\ instead of .venv/bin/)\n",
        encoding="utf-8",
    )
    return sorted(dest.glob("*.whl"))
