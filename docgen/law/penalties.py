"""Penalties under § 228-79C(4), as pure functions of dates and a pack.

Each reading of the text (shared/LAW.md §4) sits under the words it reads. The figures
come from the pack's ``penalties.tiers`` brackets; nothing here holds a dollar amount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from docgen.errors import CaseInvalid, Problem
from docgen.law.calendar import years_from
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack, PenaltyTier
from docgen.law.provisions import cited_problems, normalized

ZERO = Decimal("0.00")
PENALTIES = "@penalties"  # the penalty section, as the pack cites it


class PriorOffense(Protocol):
    """A prior offense as a case or the register gives it (docgen.cases.penalty)."""

    @property
    def committed(self) -> date: ...
    @property
    def disposition(self) -> str: ...
    @property
    def convicted(self) -> date | None: ...
    @property
    def reference(self) -> str | None: ...


class Offense(Protocol):
    """The current offense's dates (docgen.cases.penalty.Offense)."""

    @property
    def committed(self) -> date: ...
    @property
    def continued_through(self) -> date | None: ...


@dataclass(frozen=True)
class PriorFinding:
    index: int
    prior: PriorOffense
    counted: bool
    reason: str
    same_day: int = 0  # counted: how many other convictions entered that day it stands for


@dataclass(frozen=True)
class ViolationCount:
    """One listed violation and how many violations it counts for (reading 7)."""

    index: int
    committed: date
    continued_through: date | None
    count: int  # 1 + the full weeks it continued

    @property
    def days(self) -> int:
        return (self.continued_through - self.committed).days if self.continued_through else 0


@dataclass(frozen=True)
class Assessment:
    citation: str
    counts: tuple[ViolationCount, ...]
    statement_date: date
    lookback_start: date
    offense_number: int
    tier: PenaltyTier
    findings: tuple[PriorFinding, ...] = field(default_factory=tuple)
    lookback_years: int = 5  # the pack's look-back, as the counted priors' reasons say it

    @property
    def committed(self) -> date:
        """Reading 7: for the look-back, the offense is committed on the earliest date."""
        return min(c.committed for c in self.counts)

    @property
    def violations(self) -> int:
        return sum(c.count for c in self.counts)

    @property
    def fine_min(self) -> Decimal:
        return self.tier.fine_min if self.tier.fine_min is not None else ZERO

    @property
    def fine_max(self) -> Decimal:
        return self.tier.fine_max

    @property
    def total_min(self) -> Decimal:
        return self.fine_min * self.violations

    @property
    def total_max(self) -> Decimal:
        return self.fine_max * self.violations

    @property
    def counted(self) -> list[PriorFinding]:
        return [f for f in self.findings if f.counted]

    @property
    def excluded(self) -> list[PriorFinding]:
        return [f for f in self.findings if not f.counted]

    def as_json(self, jurisdiction: str) -> dict[str, Any]:
        """The `docgen penalty --json` contract (issue #2): money as two-decimal strings."""

        def prior(f: PriorFinding) -> dict[str, Any]:
            out: dict[str, Any] = {
                "index": f.index,
                "committed": f.prior.committed.isoformat(),
                "disposition": f.prior.disposition,
                "convicted": f.prior.convicted.isoformat() if f.prior.convicted else None,
            }
            if f.prior.reference:
                out["reference"] = f.prior.reference
            return out | {"reason": f.reason}

        return {
            "jurisdiction": jurisdiction,
            "citation": self.citation,
            "offense_number": self.offense_number,
            "tier": self.tier.offense,
            "fine_min_per_violation": f"{self.fine_min:.2f}",
            "fine_max_per_violation": f"{self.fine_max:.2f}",
            "imprisonment_max_months": self.tier.imprisonment_max_months,
            "violations": self.violations,
            "counts": [
                {
                    "index": c.index,
                    "committed": c.committed.isoformat(),
                    "continued_through": (
                        c.continued_through.isoformat() if c.continued_through else None
                    ),
                    "count": c.count,
                }
                for c in self.counts
            ],
            "total_fine_min": f"{self.total_min:.2f}",
            "total_fine_max": f"{self.total_max:.2f}",
            "counted_priors": [prior(f) for f in self.counted],
            "excluded_priors": [prior(f) for f in self.excluded],
        }


def years_before(day: date, years: int) -> date:
    """The same calendar day ``years`` earlier; from Feb 29 it lands on Feb 28."""
    return years_from(day, -years)


def weekly_violations(committed: date, continued_through: date | None, days_per: int) -> int:
    # "Each week's continued violation shall constitute a separate additional violation."
    # Reading 4: the first day is one violation, and each full week after it adds one.
    if continued_through is None:
        return 1
    return (continued_through - committed).days // days_per + 1


@dataclass(frozen=True)
class Charged:
    """One violation as the penalty reads it: its first date, the last day it continued,
    and where the case holds them (so an error names the field)."""

    committed: date
    continued_through: date | None = None
    where: str = "offense"  # the field path of this violation in the case
    first_key: str = "committed"  # "observed" on a listed violation

    @classmethod
    def offense(cls, offense: Offense) -> Charged:
        return cls(offense.committed, offense.continued_through)

    @classmethod
    def listed(cls, index: int, observed: date, continued_through: date | None) -> Charged:
        return cls(observed, continued_through, f"violations[{index}]", "observed")


def _problem(field: str, message: str) -> Problem:
    return Problem(field, message, PENALTIES)


def disposition_problem(on: date, committed: date, latest: date, latest_words: str) -> str | None:
    """Reading 13: a disposition (a conviction above all) is entered after the offense, and
    on or before the day it is recorded (``latest``: today, or a statement's date). What
    is wrong with ``on``, or None. The register calls this before recording one."""
    if on < committed:
        return (
            f"{long_date(on)} is before the offense was committed ({long_date(committed)}); "
            "a disposition comes after its offense"
        )
    if on > latest:
        return (
            f"{long_date(on)} is after {latest_words}; a disposition is recorded on or after "
            "the day it is entered, never ahead of it"
        )
    return None


def is_current_offense(
    number: str | None,
    violations: Sequence[Mapping[str, object]],
    notice: str | None,
    charged: Sequence[tuple[str, date]],
) -> bool:
    """Reading 11: an offense is never its own prior. A recorded offense (charged by the
    notice ``number``, with its ``violations`` as recorded) is the current offense when the
    document names that notice as the one it follows, or charges any of its violations:
    the same provision, first observed on the same day."""
    if notice is not None and number is not None and normalized(notice) == normalized(number):
        return True
    recorded = {
        (normalized(str(v.get("provision", ""))), str(v.get("observed", ""))) for v in violations
    }
    return any((normalized(provision), day.isoformat()) in recorded for provision, day in charged)


def check_history(
    charged: Sequence[Charged], priors: Sequence[PriorOffense], statement_date: date
) -> list[Problem]:
    """Reading 6: histories that cannot be true are errors, each named by its field."""
    on = long_date(statement_date)
    problems = []
    for c in charged:
        first = f"{c.where}.{c.first_key}"
        if c.committed > statement_date:
            problems.append(_problem(first, f"{long_date(c.committed)} is after the date {on}"))
        if c.continued_through is None:
            continue
        last = f"{c.where}.continued_through"
        if c.continued_through < c.committed:
            problems.append(
                _problem(
                    last,
                    f"{long_date(c.continued_through)} is before the violation began "
                    f"({first}: {long_date(c.committed)})",
                )
            )
        elif c.continued_through > statement_date:
            problems.append(
                _problem(last, f"{long_date(c.continued_through)} is after the date {on}")
            )
    for i, prior in enumerate(priors):
        where = f"prior_offenses[{i}]"
        if prior.committed > statement_date:
            problems.append(
                _problem(
                    f"{where}.committed", f"{long_date(prior.committed)} is after the date {on}"
                )
            )
        if prior.disposition == "convicted":
            if prior.convicted is None:
                problems.append(
                    _problem(
                        f"{where}.convicted",
                        "is required when the disposition is convicted (the conviction date)",
                    )
                )
            else:
                wrong = disposition_problem(
                    prior.convicted, prior.committed, statement_date, f"the date {on}"
                )
                if wrong:
                    problems.append(_problem(f"{where}.convicted", wrong))
        elif prior.convicted is not None:
            problems.append(
                _problem(
                    f"{where}.convicted",
                    f"a conviction date is given but the disposition is {prior.disposition}",
                )
            )
    return problems


def _finding(
    i: int, prior: PriorOffense, committed: date, window_start: date, years: int
) -> PriorFinding:
    # Reading 1: "upon conviction" -- only convictions count.
    if prior.disposition != "convicted":
        return PriorFinding(
            i, prior, False, f"not counted: disposition is {prior.disposition}, not a conviction"
        )
    if prior.committed > committed:
        return PriorFinding(
            i,
            prior,
            False,
            f"not counted: committed {long_date(prior.committed)}, after the current offense "
            f"({long_date(committed)})",
        )
    if prior.committed < window_start:
        return PriorFinding(
            i,
            prior,
            False,
            f"not counted: committed {long_date(prior.committed)}, more than {years} years "
            f"before the current offense (the period opens {long_date(window_start)})",
        )
    # Reading 9 (revised, lenity): an escalated penalty presumes a conviction the offender
    # had before offending again; a conviction entered on or after the day the current
    # offense was committed does not raise it.
    if prior.convicted is not None and prior.convicted >= committed:
        return PriorFinding(
            i,
            prior,
            False,
            f"not counted: convicted {long_date(prior.convicted)}, not before the current "
            f"offense was committed ({long_date(committed)}); a prior counts only if its "
            "conviction was entered before the current offense",
        )
    return PriorFinding(
        i,
        prior,
        True,
        f"counted: committed {long_date(prior.committed)}, within {years} years before the "
        f"current offense; convicted {long_date(prior.convicted)}, before it was committed",
    )


def one_per_conviction_date(findings: Sequence[PriorFinding]) -> list[PriorFinding]:
    """Reading 8 (lenity): a prior offense is one conviction event; convictions entered on
    the same date count as one prior. The first listed counts and says with how many
    others; the others are listed as counted with it, not again."""
    events: dict[date, list[PriorFinding]] = {}
    for f in findings:
        if f.counted and f.prior.convicted is not None:
            events.setdefault(f.prior.convicted, []).append(f)
    why = "convictions entered on one date are one prior offense"
    out = []
    for f in findings:
        convicted = f.prior.convicted
        event = events.get(convicted, []) if f.counted and convicted is not None else []
        if len(event) < 2:
            out.append(f)
        elif event[0] is f:
            others = len(event) - 1
            with_them = "the other conviction" if others == 1 else f"the {others} other convictions"
            reason = f"{f.reason}; one prior with {with_them} entered the same day ({why})"
            out.append(replace(f, reason=reason, same_day=others))
        else:
            reason = (
                f"counted once with prior No. {event[0].index + 1}: convicted the same day, "
                f"{long_date(f.prior.convicted)} ({why})"
            )
            out.append(replace(f, counted=False, reason=reason))
    return out


def assess(
    charged: Sequence[Charged],
    priors: Sequence[PriorOffense],
    statement_date: date,
    pack: Pack,
    citation: str,
) -> Assessment:
    """The penalty for the ``charged`` violations given ``priors``, as of ``statement_date``;
    ``citation``: the article's penalty provision, as the pack gives it (§ 228-79C(4))."""
    if not charged:
        problems = [_problem("violations", "no violation to assess a penalty for")]
    else:
        problems = check_history(charged, priors, statement_date)
    if problems:
        raise CaseInvalid(cited_problems(problems, pack))

    penalties = pack.part("penalties")
    days = penalties.continued_violation_days.value
    # Reading 7: each listed violation counts on its own, with its own weeks.
    counts = tuple(
        ViolationCount(
            i,
            c.committed,
            c.continued_through,
            weekly_violations(c.committed, c.continued_through, days),
        )
        for i, c in enumerate(charged)
    )
    committed = min(c.committed for c in charged)

    lookback = penalties.lookback_years.value
    # "for conviction of a second offense both of which were committed within a period of
    # five years": reading 2, inclusive, counted back from the current offense.
    window_start = years_before(committed, lookback)
    findings = one_per_conviction_date(
        [_finding(i, p, committed, window_start, lookback) for i, p in enumerate(priors)]
    )

    # Reading 3: offense number = 1 + counted priors; "third or subsequent" caps the tier.
    offense_number = 1 + sum(f.counted for f in findings)
    table = penalties.tiers
    tier = table[min(offense_number, len(table)) - 1]
    return Assessment(
        citation=citation,
        counts=counts,
        statement_date=statement_date,
        lookback_start=window_start,
        offense_number=offense_number,
        tier=tier,
        findings=tuple(findings),
        lookback_years=lookback,
    )
