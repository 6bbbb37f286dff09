"""Another package's warnings are the deputy's, not the clerk's.

A library's own warning (pyHanko importing DSA, which cryptography 51 deprecates, say) says
nothing a clerk can act on, and printed under a command's output it reads as if the command
had gone wrong. :func:`route` sends each such warning, once per process and message, to the
``docgen.libraries`` logger instead of the terminal: the desk logs it for the deputy (its log
is the service's journal); a command keeps it below the terminal's level, shown with
``DOCGEN_DEBUG=1``. A warning raised from docgen's own code is shown as before.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

LOGGER = "docgen.libraries"
OURS = Path(__file__).resolve().parent


def ours(filename: str) -> bool:
    """Whether the warning was raised from docgen's own code (its file is in the package)."""
    try:
        return Path(filename).resolve().is_relative_to(OURS)
    except (OSError, ValueError):
        return False


_level = logging.DEBUG  # the level routed warnings are logged at (route() sets it)
_seen: set[tuple[str, str]] = set()
_hook: Callable[..., None] | None = None


def route(level: int = logging.DEBUG) -> None:
    """From now on, in this process, other packages' warnings go to the ``docgen.libraries``
    logger at ``level`` (a later call changes the level), each message once; docgen's own are
    shown as Python would have shown them."""
    global _level, _hook
    _level = level
    if warnings.showwarning is not _hook:  # not yet, or put back since (catch_warnings)
        _hook = _shown_by(warnings.showwarning)
        warnings.showwarning = _hook


def _shown_by(python_shows: Callable[..., None]) -> Callable[..., None]:
    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        if ours(filename):
            python_shows(message, category, filename, lineno, file, line)
            return
        key = (category.__name__, str(message))
        if key not in _seen:
            _seen.add(key)
            logging.getLogger(LOGGER).log(
                _level,
                "%s from %s:%d: %s", category.__name__, filename, lineno, message,
            )  # fmt: skip

    return show
