"""Numbers a deputy sets in the environment (the systemd unit's environment file): each read
the same way, and a value that is not a finite number in its range is an error naming the
variable, the range and the default, never a traceback."""

from __future__ import annotations

import math
import os

from docgen.errors import DocgenError


def number(
    name: str,
    default: float,
    low: float,
    high: float = math.inf,
    *,
    unit: str = "",
    error: type[DocgenError] = DocgenError,
) -> float:
    """The number in the environment variable ``name`` (``default`` when unset or blank),
    from ``low`` to ``high``; otherwise ``error``, naming what was found and what is
    wanted."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and low <= value <= high):
        span = f"at least {low:g}" if high == math.inf else f"from {low:g} to {high:g}"
        wanted = f"a number of {unit} {span}" if unit else f"a number {span}"
        raise error(f"{name}={raw[:40]!r} is not {wanted} (unset: {default:g})")
    return value
