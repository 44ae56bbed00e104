"""The course website, built once per test session by the real command (`paddlecourse site`), into a
temporary folder: nothing is published, and build/site/ is left alone."""
import subprocess
import sys
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
    # How long it takes is measured by benchmarks/build_site.py, not asserted here: a time limit
    # fails on a busy machine and proves nothing about speed.
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, f"`paddlecourse site` failed:\n{result.stdout}\n{result.stderr}"
    return BuiltSite(out, result.stdout)
