"""The appeal deadline of a notice of violation, as a pure function of a date and a pack.

§ 228-79C(1)(f): "... by filing a written notice of appeal within 15 days of service of
notice of violation." Day 15 is the service date plus ``enforcement.appeal_days``.

Reading chosen (LAW.md §2): the period is set by law, so N.Y. General Construction Law
§ 25-a applies: a period that "ends on a Saturday, Sunday or a public holiday" may be
met "on the next succeeding business day". Public holidays are those of GCL § 24, listed
by name in the pack (``enforcement.appeal_deadline.public_holidays``).

Holiday dates come from the maintained ``holidays`` library, ``holidays.US(subdiv="NY")``
with ``observed=False``, matched to the GCL § 24 list as follows (checked for 2024-2030):

- kept, renamed where the library's name differs: "Juneteenth National Independence
  Day" is GCL § 24's "Juneteenth";
- dropped: "Susan B. Anthony Day" (Feb 15), a New York commemoration, not a GCL § 24
  public holiday;
- added: "Flag Day", the second Sunday in June (GCL § 24); it always falls on a Sunday,
  so it never moves a deadline, but the list is the statute's;
- the library's "(observed)" days are not used: they follow the federal rule (a Saturday
  holiday observed on Friday), which GCL § 24 does not have. GCL § 24's own rule, "if any
  of such days except Flag day is Sunday, the next day thereafter" is a holiday, is
  applied here instead.

A library name that is neither kept nor dropped raises an error, so a change in the
library is noticed, never silently absorbed.

The list has a history (``enforcement.appeal_deadline.holidays_added``): a holiday added
by an amendment is a public holiday from the day the amendment took effect, so a year
before it simply has no such day (Juneteenth: L.2020, c. 249, in effect October 14,
2020; 2021 is its first year), and the library's silence for that year is no error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import cache, lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from docgen.errors import CaseInvalid, DocgenError, Problem
from docgen.law.pack import Pack

# holidays.US(subdiv="NY") name -> the GCL § 24 name (None: not a GCL § 24 holiday).
LIBRARY_NAMES: dict[str, str | None] = {
    "New Year's Day": "New Year's Day",
    "Martin Luther King Jr. Day": "Martin Luther King Jr. Day",
    "Lincoln's Birthday": "Lincoln's Birthday",
    "Susan B. Anthony Day": None,
    "Washington's Birthday": "Washington's Birthday",
    "Memorial Day": "Memorial Day",
    "Juneteenth National Independence Day": "Juneteenth",
    "Independence Day": "Independence Day",
    "Labor Day": "Labor Day",
    "Columbus Day": "Columbus Day",
    "Election Day": "Election Day",
    "Veterans Day": "Veterans Day",
    "Thanksgiving Day": "Thanksgiving Day",
    "Christmas Day": "Christmas Day",
}
FLAG_DAY = "Flag Day"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


class Closed(str):
    """Why a day is not a business day, as the notice says it in English ("July 4, 2026 is
    Independence Day"), keeping what it says (the day, the holiday's or weekday's name, and
    the holiday that fell on the Sunday before) for a courtesy copy to say it in its own
    language (LAW.md § 13)."""

    day: date
    name: str
    sunday_of: str | None

    def __new__(cls, day: date, name: str, sunday_of: str | None = None) -> Closed:
        if sunday_of is not None:
            text = f"{long_date(day)} is a public holiday, because {sunday_of} fell on Sunday"
        elif name in WEEKDAYS:
            text = f"{long_date(day)} is a {name}"
        else:
            text = f"{long_date(day)} is {name}"
        made = super().__new__(cls, text)
        made.day, made.name, made.sunday_of = day, name, sunday_of
        return made

    def __reduce__(self) -> tuple[type[Closed], tuple[date, str, str | None]]:
        return (Closed, (self.day, self.name, self.sunday_of))


@dataclass(frozen=True)
class Deadline:
    """Day ``days`` after service, and the last day to file once GCL § 25-a has moved it."""

    served: date
    days: int
    nominal: date  # served + days
    last_day: date  # the first business day on or after ``nominal``
    reasons: tuple[str, ...] = field(default_factory=tuple)  # why each day was skipped
    period_ref: str = ""  # § 228-79C(1)(f)
    rule_ref: str = ""  # GCL § 25-a
    holidays_ref: str = ""  # GCL § 24

    @property
    def moved(self) -> bool:
        return self.last_day != self.nominal


@lru_cache(maxsize=4096)  # a calendar of a town's register writes a few days many times
def long_date(day: date) -> str:
    """November 3, 2026: the long form every document prints."""
    return f"{day:%B} {day.day}, {day.year}"


def local_time(moment: datetime | None, here: ZoneInfo) -> str:
    """ "December 2, 2026, 09:14 EST": a moment as the municipality's clock shows it, the
    date as the documents print it, the time on a 24-hour clock and the zone's abbreviation
    (EST or EDT as the day has it). One wording for one instant wherever it is shown: a
    firm's electronic signature on its certification, `docgen verify`, the public check,
    `docgen certify list` and the desk (LAW.md § 5)."""
    if moment is None:
        return ""
    shown = moment.astimezone(here)
    return f"{long_date(shown.date())}, {shown:%H:%M} {shown:%Z}"


def _flag_day(year: int) -> date:
    """The second Sunday in June (GCL § 24)."""
    first = date(year, 6, 1)
    return first + timedelta(days=(6 - first.weekday()) % 7 + 7)


@cache
def _statute_holidays(
    year: int,
    names: tuple[str, ...],
    excepts: tuple[str, ...],
    added: tuple[tuple[str, date], ...] = (),
) -> dict[date, Closed]:
    """{date: reason} of the GCL § 24 public holidays in ``year`` (and Sunday carry-overs);
    ``added``: (name, the day it became one) for the holidays added by an amendment."""
    import holidays  # 45 ms to import: only when a deadline is computed

    since = dict(added)
    wanted = {name for name in names if name not in since or since[name].year <= year}
    found: dict[date, str] = {}
    calendar = holidays.country_holidays("US", subdiv="NY", years=year, observed=False)
    for day, label in calendar.items():
        for name in label.split("; "):
            if name not in LIBRARY_NAMES:
                raise DocgenError(
                    f"the holidays library lists {name!r} for New York, which docgen does not "
                    "know; check it against GCL § 24 and update docgen/law/deadlines.py"
                )
            statute_name = LIBRARY_NAMES[name]
            if statute_name in wanted and day >= since.get(statute_name, day):
                found[day] = statute_name
    if FLAG_DAY in wanted:
        found[_flag_day(year)] = FLAG_DAY
    # a holiday added during ``year`` may have fallen before it took effect: none that year
    missing = wanted - set(found.values()) - {n for n in since if since[n].year == year}
    if missing:
        raise DocgenError(
            f"no date found for {', '.join(sorted(missing))} in {year} (GCL § 24); "
            "check the holidays library"
        )
    reasons = {day: Closed(day, name) for day, name in found.items()}
    for day, name in found.items():
        if day.weekday() == 6 and name not in excepts:
            monday = day + timedelta(days=1)
            reasons.setdefault(monday, Closed(monday, "a public holiday", sunday_of=name))
    return reasons


def public_holidays(year: int, pack: Pack) -> dict[date, Closed]:
    """The GCL § 24 public holidays of ``year``, each with the sentence naming it."""
    node = pack.part("enforcement").appeal_deadline
    names = tuple(node.public_holidays.value)
    excepts = tuple(node.sunday_rule_excepts.value) if node.sunday_moves_to_monday.value else names
    added = tuple(sorted(node.holidays_added.value.items()))
    return dict(_statute_holidays(year, names, excepts, added))


@dataclass(frozen=True)
class Service:
    """The day the appeal period runs from, and the sentence saying which rule gave it."""

    start: date
    rule: str  # printed on the notice
    ref: str
    # The pack's words the rule was made from, and the dates filled in ({start}, {date},
    # {received}, {mailed}): a courtesy copy says the same rule in its language.
    wording: str = ""
    dates: tuple[tuple[str, date], ...] = ()


def service_start(served: Any, pack: Pack) -> Service:
    """When service was complete for the appeal period, by the pack's rule for each means
    (LAW.md §2): in person, on delivery; by mail, on the later of the receipt (when known)
    and the mailing date plus the pack's days; by posting with a copy mailed, on the later
    of the posting and the mailing date plus the pack's days. Never earlier than a court
    could accept.

    ``served`` is a case's ``served`` block, already checked to carry what its means needs.
    """
    start, entry = _service_rule(served.means, served.date, served.received, served.mailed, pack)
    days = {"date": served.date}
    if served.means == "mail" and served.received is not None:
        days["received"] = served.received
    elif served.means not in ("personal", "mail"):
        days["mailed"] = served.mailed
    days["start"] = start
    words = {key: long_date(day) for key, day in days.items()}
    return Service(start, entry.value.format(**words), entry.ref, entry.value, tuple(days.items()))


def service_day(
    means: str, on: date, received: date | None, mailed: date | None, pack: Pack
) -> date:
    """The day of :func:`service_start` alone, without the sentence saying its rule: what
    the register's readers of many notices (the Due list) want, a town's thousands of
    events each read without formatting its wording."""
    return _service_rule(means, on, received, mailed, pack)[0]


def _service_rule(
    means: str, on: date, received: date | None, mailed: date | None, pack: Pack
) -> tuple[date, Any]:
    """The day service by ``means`` was complete and the pack's entry giving its rule."""
    node = pack.part("enforcement").service
    if means == "personal":
        return on, node.personal
    added = timedelta(days=node.mail.days_added.value)
    if means == "mail" and received is not None:
        return max(received, on + added), node.mail.received
    if means == "mail":
        return on + added, node.mail.not_received
    # A posting counts only with its copy mailed: a case's served block is checked to give
    # the day, and the register refuses a posting before its mailing; mailed is never None.
    return max(on, mailed + added), node.posting  # type: ignore[operator,return-value]


def non_business_day(day: date, pack: Pack) -> Closed | None:
    """Why ``day`` is a Saturday, Sunday or public holiday (GCL §§ 24, 25-a), or None."""
    holiday = public_holidays(day.year, pack).get(day)
    if holiday:
        return holiday
    weekend = set(pack.part("enforcement").appeal_deadline.weekend_days.value)
    name = WEEKDAYS[day.weekday()]
    return Closed(day, name) if name in weekend else None


def appeal_deadline(served: date | None, pack: Pack) -> Deadline:
    """The last day to file a written notice of appeal (§ 228-79C(1)(f); GCL §§ 24, 25-a)."""
    enforcement = pack.part("enforcement")
    period_ref = enforcement.appeal_days.ref
    if served is None:
        raise CaseInvalid(
            [
                Problem(
                    "served.date",
                    "no service date: the appeal period runs from service, so the notice "
                    "cannot state the last day to appeal",
                    period_ref,
                )
            ]
        )
    node = enforcement.appeal_deadline
    days = enforcement.appeal_days.value
    nominal = served + timedelta(days=days)
    day, reasons = nominal, []
    while why := non_business_day(day, pack):
        reasons.append(why)
        day += timedelta(days=1)
    return Deadline(
        served=served,
        days=days,
        nominal=nominal,
        last_day=day,
        reasons=tuple(reasons),
        period_ref=period_ref,
        rule_ref=node.ref,
        holidays_ref=node.public_holidays.ref,
    )
