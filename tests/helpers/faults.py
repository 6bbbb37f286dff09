"""Faults for the batch tests that must happen inside a worker process."""

from __future__ import annotations

import os
import signal
import threading

from docgen.batch.worker import render_case


def killed_on_doomed(index, case):
    """Render as usual, except that a case whose name holds 'doomed' kills its worker the
    way the kernel's out-of-memory killer does (SIGKILL: no cleanup, no answer)."""
    if "doomed" in case.name:
        os.kill(os.getpid(), signal.SIGKILL)
    return render_case(index, case)


def stuck_on_doomed(index, case):
    """Render as usual, except that a case whose name holds 'doomed' never finishes (a
    runaway render: a loop in a C library, say) until its process is stopped."""
    if "doomed" in case.name:
        threading.Event().wait()
    return render_case(index, case)


def held_at(step: str, args: list, folder, env: dict | None = None):
    """``docgen ARGS`` (a process of its own) held at ``step`` (docgen.faults.pause):
    (the process, the pause file: touch ``PATH.go`` to let it go on, or kill it)."""
    import subprocess
    import sys
    import time
    from pathlib import Path

    pause = Path(folder) / f"pause-{step}"
    env = {**os.environ, **(env or {}), "DOCGEN_PAUSE_AT": step, "DOCGEN_PAUSE_FILE": str(pause)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "docgen.cli", *map(str, args)],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not Path(f"{pause}.reached").exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"never came to {step}: {proc.communicate()}")
        time.sleep(0.02)
    return proc, pause
