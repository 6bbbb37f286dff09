"""Missing inspections in a site's log book, computed, never guessed (LAW.md § 12).

§ 228-78D(2)(b): a qualified inspector "at least once every seven calendar days";
(d): "twice every seven days" where DEC authorized disturbing one acre or more at once
(reading chosen: the first and third of any three consecutive inspections lie no more than
seven days apart); (c): the exempt activities have no seven-day inspections at all.
§ 301-73A(2): "every seven days and within 24 hours of any storm event producing
0.5 inch of precipitation or more" (reading chosen: within 24 hours after the time the
rainfall was recorded). Every figure is the pack's (``logbook``); a gap names its provision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

from docgen.law.pack import Pack

QUALIFIED = "qualified-inspector"


@dataclass(frozen=True)
class Entry:
    when: datetime
    role: str  # qualified-inspector | trained-contractor | rain-gauge
    rainfall: str | None  # inches, as written


@dataclass(frozen=True)
class Rule:
    interval_days: int | None  # None: exempt from the periodic inspections
    per_interval: int
    provision: str
    storm_inches: Decimal | None
    storm_hours: int | None
    storm_provision: str | None


@dataclass(frozen=True)
class Gap:
    start: date  # the last inspection (or the start of the work) before the gap
    due: date  # the last day an inspection was due
    why: str
    provision: str


def site_rule(pack: Pack, exemption: str | None, acre_authorized: bool) -> Rule:
    """The site's interval from the pack and the site's facts (LAW.md § 12)."""
    book = pack.part("logbook")
    interval: int | None = book.interval_days.value
    per, provision = book.inspections_per_interval.value, book.interval_days.ref
    if exemption is not None:
        interval, provision = None, book.exemptions.ref
    elif acre_authorized and book.acre_inspections_per_interval is not None:
        per, provision = (
            book.acre_inspections_per_interval.value,
            book.acre_inspections_per_interval.ref,
        )
    storm = book.storm_inches
    return Rule(
        interval,
        per,
        provision,
        storm.value if storm else None,
        book.storm_hours.value if book.storm_hours else None,
        storm.ref if storm else None,
    )


def inches(text: str | None) -> Decimal | None:
    if text is None or not text.strip():
        return None
    try:
        return Decimal(text.strip())
    except InvalidOperation:
        return None


def gaps(entries: list[Entry], started: date, through: date, rule: Rule) -> list[Gap]:
    """Every missing inspection from ``started`` to ``through`` (both inclusive)."""
    found: list[Gap] = []
    inspections = sorted(e.when for e in entries if e.role == QUALIFIED)
    if rule.interval_days is not None:
        days = [d.date() for d in inspections]
        # The work's start counts as the reference day before the first inspection.
        marks = [started] * rule.per_interval + days
        for i in range(rule.per_interval, len(marks) + 1):
            reference = marks[i - rule.per_interval]
            due = reference + timedelta(days=rule.interval_days)
            nxt = marks[i] if i < len(marks) else None
            if (nxt is None and due < through) or (nxt is not None and nxt > due):
                what = (
                    "inspection" if rule.per_interval == 1 else f"{rule.per_interval} inspections"
                )
                found.append(
                    Gap(
                        reference,
                        due,
                        f"no {what} within {rule.interval_days} days of {reference}"
                        + (f" (next on {nxt})" if nxt else f" (none through {through})"),
                        rule.provision,
                    )
                )
    if rule.storm_inches is not None and rule.storm_hours is not None:
        window = timedelta(hours=rule.storm_hours)
        for e in entries:
            amount = inches(e.rainfall)
            if amount is None or amount < rule.storm_inches:
                continue
            if not any(e.when <= when <= e.when + window for when in inspections):
                found.append(
                    Gap(
                        e.when.date(),
                        (e.when + window).date(),
                        f"no inspection within {rule.storm_hours} hours after {amount} inch of "
                        f"rain recorded {e.when:%Y-%m-%d %H:%M}",
                        rule.storm_provision or rule.provision,
                    )
                )
    return sorted(found, key=lambda g: g.due)


def next_inspection(entries: list[Entry], started: date, rule: Rule) -> date | None:
    """The last day the next periodic inspection is due (None: the site is exempt)."""
    if rule.interval_days is None:
        return None
    days = sorted(e.when.date() for e in entries if e.role == QUALIFIED)
    marks = [started] * rule.per_interval + days
    return marks[-rule.per_interval] + timedelta(days=rule.interval_days)
