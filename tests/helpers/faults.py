"""Faults for the batch tests that must happen inside a worker process."""

from __future__ import annotations

import os
import signal

from docgen.batch.worker import render_case


def killed_on_doomed(index, case):
    """Render as usual, except that a case whose name holds 'doomed' kills its worker the
    way the kernel's out-of-memory killer does (SIGKILL: no cleanup, no answer)."""
    if "doomed" in case.name:
        os.kill(os.getpid(), signal.SIGKILL)
    return render_case(index, case)
