"""The municipality's year (LAW.md § 15, a reading chosen: the State's MS4 permit asks each
regulated municipality for yearly counts of its construction-site oversight): the report's
categories in plain words, and the reporting period a pack names. Pure functions.

The seeds name no reporting period and none of the State form's items: the period is the
municipality's practice (the pack's ``year.starts``), and the form's item numbers are the
pack's map (``year.form_items``), empty unless the municipality gives them.
"""

from __future__ import annotations

from datetime import date, timedelta

# (id, the category in plain words), in the report's order
CATEGORIES = (
    ("plans-reviewed", "Plans reviewed"),
    ("plans-approved", "Plans approved"),
    ("plans-returned", "Plans returned"),
    ("sites-active", "Sites active"),
    ("inspections", "Inspections"),
    ("notices-of-deficiency", "Notices of deficiency"),
    ("notices-of-violation", "Notices of violation"),
    ("stop-work-orders", "Stop-work orders"),
    ("penalties", "Penalties"),
    ("court-outcomes", "Court outcomes"),
)
CATEGORY_IDS = tuple(c for c, _ in CATEGORIES)

MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip


def month_day(text: str) -> tuple[int, int]:
    """``"03-10"`` as (3, 10); ValueError naming what is wrong."""
    try:
        month, day = (int(part) for part in text.split("-"))
        date(2024, month, day)  # a leap year: February 29 is a day
    except ValueError as err:
        raise ValueError(
            f"{text!r} is not a month and day written MM-DD (March 10 is 03-10)"
        ) from err
    if (month, day) == (2, 29):
        raise ValueError("a reporting period cannot start on February 29: choose 03-01")
    return month, day


def period(starts: str, year: int) -> tuple[date, date]:
    """The reporting period named ``year``: the twelve months from ``starts`` (MM-DD) that
    end in ``year`` (the municipality's practice: a period is named by the year it ends in,
    as the MS4 permit's year March 10, 2025 to March 9, 2026 is reported in 2026; a period
    starting January 1 is that calendar year)."""
    month, day = month_day(starts)
    first = date(year, month, day)
    if (month, day) != (1, 1):
        first = first.replace(year=year - 1)
    last = first.replace(year=first.year + 1) - timedelta(days=1)
    return first, last


def describe_start(starts: str) -> str:
    """``"03-10"`` in words: ``"March 10 to March 9"``."""
    month, day = month_day(starts)
    first = date(2025, month, day)
    last = first.replace(year=2026) - timedelta(days=1)
    return f"{MONTHS[first.month - 1]} {first.day} to {MONTHS[last.month - 1]} {last.day}"


def named_holding(starts: str, day: date) -> int:
    """The name (the year it ends in) of the reporting period from ``starts`` that holds
    ``day``."""
    month, first = month_day(starts)
    later = (month, first) != (1, 1) and (day.month, day.day) >= (month, first)
    return day.year + 1 if later else day.year
