"""Running the docgen command in tests: in process through click's CliRunner (fast, and a
failure shows its traceback), or as a fresh process for the few smoke tests of the
installed command."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from contextlib import chdir, nullcontext
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from docgen.cli import main


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def docgen(
    *args: object,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    stdin: str | None = None,
) -> Run:
    """``docgen ARGS`` in this process (in the folder ``cwd``, as a user would run it
    there; ``stdin`` its standard input). An exception the command let escape is
    re-raised."""
    with chdir(cwd) if cwd is not None else nullcontext():
        result = CliRunner().invoke(main, [str(a) for a in args], input=stdin, env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def docgen_process(*args: object) -> subprocess.CompletedProcess[str]:
    """``python -m docgen.cli ARGS`` in a fresh process (start-up, exit codes, streams)."""
    return subprocess.run(
        [sys.executable, "-m", "docgen.cli", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def python_process(
    code: str, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``python -c CODE`` in a fresh process (what a process does as it starts), in this
    process's environment or ``env``."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
