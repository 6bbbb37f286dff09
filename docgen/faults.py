"""Crash points for the fault tests: ``DOCGEN_CRASH_AT=step`` ends the process at that step;
pause points for the concurrency tests (:func:`pause`).

The steps of an issue, in order: ``numbered`` (number taken, nothing rendered),
``rendered`` (bytes made, nothing recorded), ``recorded`` (rows written, not committed),
``committed`` (record committed, no file written yet).
"""

from __future__ import annotations

import os
import time

STEPS = ("numbered", "rendered", "recorded", "committed")
_paused: set[str] = set()


def checkpoint(step: str) -> None:
    if os.environ.get("DOCGEN_CRASH_AT") == step:
        os._exit(70)  # as abrupt as a power cut: no cleanup, no rollback by Python


def pause(step: str) -> None:
    """``DOCGEN_PAUSE_AT=step`` and ``DOCGEN_PAUSE_FILE=PATH``: the first time the process
    comes to ``step`` it writes ``PATH.reached`` and waits until ``PATH.go`` exists, so a
    test's second process acts meanwhile (``rendering``: a document renders, outside the
    register's write transaction; ``committing``: an issue's work is done, its COMMIT
    next; ``staged``: every file of a write is in its temporary beside its target, none
    renamed yet, docgen.render.output.write_files; ``log-recorded``: a log book CSV's
    reports are written, not committed; ``reinspection-recorded``: a reinspection asked
    for, the same), or kills it there (SIGKILL)."""
    if os.environ.get("DOCGEN_PAUSE_AT") != step or step in _paused:
        return
    _paused.add(step)
    path = os.environ["DOCGEN_PAUSE_FILE"]
    with open(path + ".reached", "w") as reached:
        reached.write(str(os.getpid()))
    while not os.path.exists(path + ".go"):
        time.sleep(0.02)
