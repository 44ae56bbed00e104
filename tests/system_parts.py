"""Checks for parts of the system that pip cannot install (Chromium, Graphviz's `dot`).

A test that needs one calls `require_system_part`. On a laptop a missing part
skips the test with a loud reason saying how to install it; under CI (`CI=true`)
it fails instead, so a broken CI image cannot pass by skipping everything.
"""
import os
import shutil

import pytest


def require_system_part(name, binary, install_hint):
    """Return the full path of `binary`, or skip (fail under CI=true) saying how to install `name`.

    `binary` is a command name looked up on PATH, or an absolute path.
    """
    path = shutil.which(binary)
    if path:
        return path
    reason = f"SYSTEM PART MISSING: {name} (`{binary}` not found). Install it with: {install_hint}"
    if os.environ.get("CI") == "true":
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)
