"""Programs the tests drive, installed by scripts/setup.sh --test: a test that needs one
is skipped on a workstation without it, and fails in CI (the environment variable CI is
set), whose set-up installs it."""

from __future__ import annotations

import os
import shutil

import pytest


def unavailable(message: str) -> None:
    """Skip the calling test, or fail it in CI."""
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def need(program: str, package: str | None = None) -> str:
    """The path of ``program`` (from Debian's ``package``, when its name differs)."""
    found = shutil.which(program)
    if found is None:
        unavailable(f"{program} not found: scripts/setup.sh --test installs {package or program}")
    return found
