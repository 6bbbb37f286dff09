"""A standard stream closed before docgen starts (`>&-`, `<&-`, a service manager) is a
one-line error with exit 1 (docgen.cli: 1 is an error the user can fix), never an
"internal error"."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT

CASE = ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml"


def without(fd: int, *args: object, env: dict[str, str] | None = None):
    """``docgen ARGS`` in a process started with file descriptor ``fd`` closed."""
    return subprocess.run(
        [sys.executable, "-m", "docgen.cli", *map(str, args)],
        stdout=subprocess.DEVNULL if fd == 1 else subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        preexec_fn=lambda: os.close(fd),
        check=False,
    )


def test_render_to_a_closed_standard_output(tmp_path):
    done = without(1, "render", "penalty-statement", CASE, "-o", "-", "-f", "html")
    assert done.returncode == 1
    assert done.stderr.strip() == (
        "error: standard output: closed (docgen was started without one); nothing was "
        "written: give a file or folder with -o instead of -"
    )


def test_a_password_from_a_closed_standard_input(tmp_path):
    home = {"DOCGEN_HOME": str(tmp_path / "home")}
    for fd in (0, None):  # closed, and open but empty (/dev/null)
        args = ("users", "add", "zed", "--role", "clerk", "--password-stdin")
        done = without(fd, *args, env=home) if fd is not None else subprocess.run(
            [sys.executable, "-m", "docgen.cli", *args], stdin=subprocess.DEVNULL,
            capture_output=True, text=True, env={**os.environ, **home}, check=False,
        )  # fmt: skip
        assert done.returncode == 1, done.stderr
        (line,) = done.stderr.strip().splitlines()
        assert line.startswith("error: --password-stdin: standard input is closed or empty;")
    listed = subprocess.run(
        [sys.executable, "-m", "docgen.cli", "users", "list"],
        capture_output=True, text=True, env={**os.environ, **home}, check=False,
    )  # fmt: skip
    assert "zed" not in listed.stdout  # nobody was added
