"""Calendar arithmetic the law's periods share."""

from __future__ import annotations

from datetime import date


def years_from(day: date, years: int) -> date:
    """The same calendar day ``years`` later (earlier when negative); from Feb 29 into a
    year without one it lands on Feb 28 (LAW.md §4, the look-back; §5, training)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # Feb 29 in a year that has none
        return day.replace(year=day.year + years, day=28)
