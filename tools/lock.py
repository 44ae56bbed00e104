"""Write the course's one lock, requirements.lock, and the two conda environments' pip sections from it.

    .venv/bin/python tools/lock.py              (or: make lock)
    .venv/bin/python tools/lock.py --upgrade    every package to the newest its range allows

The lock is what the course's own environments install (make lab, make test, Binder, the hub image, CI):
every package, direct or not, at one exact version, for the course's interpreter (CPython 3.11 on Linux
x86_64). pip reads it as constraints (`pip install -c requirements.lock -e ".[test]"`), so each environment
takes only the part it needs. uv keeps the versions already in requirements.lock unless --upgrade is given, so
adding a package to pyproject.toml moves nothing else.

environment.yml and binder/environment.yml cannot read another file (repo2docker builds the conda environment
before the repository is copied in), so their pip sections repeat the lock's part that a learner's server needs
(the package, Lab, grading, hub), version for version; tests/test_lock.py checks both.
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
# the course's interpreter: CPython 3.11 on Linux, as environment.yml, binder/ and deploy/ install it. Resolved
# for 3.11.0, so every 3.11.x can install the lock: Debian 12's is 3.11.2, and soupsieve 4.1 (say) needs 3.11.5
PYTHON = ["--python-version", "3.11", "--python-platform", "x86_64-unknown-linux-gnu"]
SERVER_EXTRAS = ["lab", "teach", "hub"]   # a learner's server: Binder, the hub image, conda users
CONDA_FILES = [ROOT / "environment.yml", ROOT / "binder" / "environment.yml"]


def uv():
    found = shutil.which("uv", path=str(Path(sys.executable).parent)) or shutil.which("uv")
    if not found:
        sys.exit("uv is missing: .venv/bin/pip install uv (it comes with the test extra)")
    return found


def compile_lock(upgrade=False):
    command = [uv(), "pip", "compile", "pyproject.toml", "--all-extras", *PYTHON, "--no-emit-package",
               "paddlecourse", "--custom-compile-command", "python tools/lock.py", "--quiet", "-o", LOCK.name]
    subprocess.run(command + (["--upgrade"] if upgrade else []), cwd=ROOT, check=True)


def server_pins():
    """The lock's part for a learner's server, as `name==version` lines."""
    command = [uv(), "pip", "compile", "pyproject.toml", *[f"--extra={e}" for e in SERVER_EXTRAS], *PYTHON,
               "-c", LOCK.name, "--no-emit-package", "paddlecourse", "--no-annotate", "--no-header", "--quiet"]
    out = subprocess.run(command, cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip() and not line.startswith("#")]


def write_pip_section(path, pins):
    """Replace the `- pip:` list of a conda environment file, keeping every other line as written."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"\s*- pip:\s*$", line))
    end = start + 1
    while end < len(lines) and re.match(r"\s+- ", lines[end]) and len(lines[end]) - len(lines[end].lstrip()) > \
            len(lines[start]) - len(lines[start].lstrip()):
        end += 1
    indent = " " * (len(lines[start]) - len(lines[start].lstrip()) + 4)
    lines[start + 1:end] = [f"{indent}- {pin}" for pin in pins]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upgrade", action="store_true", help="move every package to the newest its range allows")
    args = parser.parse_args()
    compile_lock(args.upgrade)
    pins = server_pins()
    for path in CONDA_FILES:
        write_pip_section(path, pins)
        print(f"wrote {path.relative_to(ROOT)} ({len(pins)} pins)")
    print(f"wrote {LOCK.name} ({sum(1 for line in LOCK.read_text().splitlines() if '==' in line)} pins)")


if __name__ == "__main__":
    main()
