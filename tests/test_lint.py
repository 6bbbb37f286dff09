"""The lint, as tests of the suite: ruff's rules, its formatter, and mypy (strict on the
whole package, pyproject.toml). Run here, each in a test process beside the others'
tests, they keep both cores busy: run before the suite (`make lint`, still there for a
commit), mypy held one core for about 20 s of every `make test` while the other waited.
Each test fails with what the tool printed."""

from __future__ import annotations

import subprocess
import sys

from conftest import ROOT

from tests.helpers.wheels import run


def tool(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ARGS`` of this environment, in the checkout."""
    return run(sys.executable, "-m", module, *args, cwd=ROOT)


def test_ruff_finds_nothing() -> None:
    done = tool("ruff", "check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_ruff_would_reformat_nothing() -> None:
    done = tool("ruff", "format", "--check", ".")
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_finds_nothing() -> None:
    done = tool("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout
