"""The course website, built once per test session by the real command (`paddlecourse site`), into a
temporary folder: nothing is published, and build/site/ is left alone."""
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))  # site_helpers
from site_helpers import BRANCH, HUB, REPO, ROOT, BuiltSite  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives a page in headless Chromium (slow; needs chromium)")


@pytest.fixture(scope="session")
def built_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "html"
    command = [sys.executable, "-m", "paddlecourse", "site", "--out", str(out), "--hub-url", HUB,
               "--repo", REPO, "--branch", BRANCH]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    seconds = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # the build and its Sphinx runs
    assert result.returncode == 0, f"`paddlecourse site` failed:\n{result.stdout}\n{result.stderr}"
    print(f"site built in {seconds:.1f} s ({cpu:.1f} s of CPU):\n{result.stdout}")
    return BuiltSite(out, seconds, result.stdout, cpu)
