"""Crash points for the fault tests: ``DOCGEN_CRASH_AT=step`` ends the process at that step.

The steps of an issue, in order: ``numbered`` (number taken, nothing rendered),
``rendered`` (bytes made, nothing recorded), ``recorded`` (rows written, not committed),
``committed`` (record committed, no file written yet).
"""

from __future__ import annotations

import os

STEPS = ("numbered", "rendered", "recorded", "committed")


def checkpoint(step: str) -> None:
    if os.environ.get("DOCGEN_CRASH_AT") == step:
        os._exit(70)  # as abrupt as a power cut: no cleanup, no rollback by Python
