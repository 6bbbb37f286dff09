"""Release wheels for the deployment tests: built without fetching a build backend
(hatchling and hatch-vcs are in the test extra), and throwaway virtual environments whose
only docgen is the one pip installs into them."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path


def run(*args: object, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, check=False, timeout=300, **kw
    )


def built(source: Path, out: Path) -> Path:
    """The wheel of the project at ``source``, written into ``out`` (its only wheel)."""
    out.mkdir(parents=True, exist_ok=True)
    done = run(
        sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
        "-w", out, source,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (wheel,) = out.glob("docgen-*.whl")
    return wheel


def environment(folder: Path) -> Path:
    """A virtual environment at ``folder`` (its python) that reaches docgen's dependencies
    through a .pth line to this environment's site-packages: that adds the folder and
    nothing else (its own .pth files, this checkout's editable install among them, are not
    read), so the environment's docgen is the one installed into it."""
    made = run(sys.executable, "-m", "venv", "--without-pip", folder)
    assert made.returncode == 0, made.stderr
    (site,) = (folder / "lib").glob("python3*/site-packages")
    (site / "docgen-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    return folder / "bin" / "python"


def pip_install(python: Path, *args: object) -> subprocess.CompletedProcess:
    """``pip install --no-deps ARGS`` into the environment of ``python``."""
    return run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", *args)
