"""Penalties under § 228-79C(4), as pure functions of dates and a pack.

Each reading of the text (shared/LAW.md §4) sits under the words it reads. The figures
come from the pack's ``penalties.tiers`` brackets; nothing here holds a dollar amount.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from docgen.cases.penalty import Offense, PriorOffense
from docgen.errors import CaseInvalid, Problem
from docgen.law.calendar import years_from
from docgen.law.pack import Pack, PenaltyTier

ZERO = Decimal("0.00")


@dataclass(frozen=True)
class PriorFinding:
    index: int
    prior: PriorOffense
    counted: bool
    reason: str


@dataclass(frozen=True)
class Assessment:
    citation: str
    offense: Offense
    statement_date: date
    lookback_start: date
    offense_number: int
    tier: PenaltyTier
    violations: int
    findings: tuple[PriorFinding, ...] = field(default_factory=tuple)

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

    def as_json(self, jurisdiction: str) -> dict:
        """The `docgen penalty --json` contract (issue #2): money as two-decimal strings."""

        def prior(f: PriorFinding) -> dict:
            out = {
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


def check_history(
    offense: Offense, priors: Sequence[PriorOffense], statement_date: date
) -> list[Problem]:
    """Reading 6: histories that cannot be true are errors, each named by its field."""
    p = "§ 228-79C(4)"
    problems = []
    if offense.committed > statement_date:
        problems.append(
            Problem(
                "offense.committed",
                f"{offense.committed} is after the statement date {statement_date}",
                p,
            )
        )
    if offense.continued_through is not None:
        if offense.continued_through < offense.committed:
            problems.append(
                Problem(
                    "offense.continued_through",
                    f"{offense.continued_through} "
                    f"is before the offense was committed ({offense.committed})",
                    p,
                )
            )
        elif offense.continued_through > statement_date:
            problems.append(
                Problem(
                    "offense.continued_through",
                    f"{offense.continued_through} is after the statement date {statement_date}",
                    p,
                )
            )
    for i, prior in enumerate(priors):
        where = f"prior_offenses[{i}]"
        if prior.committed > statement_date:
            problems.append(
                Problem(
                    f"{where}.committed",
                    f"{prior.committed} is after the statement date {statement_date}",
                    p,
                )
            )
        if prior.disposition == "convicted":
            if prior.convicted is None:
                problems.append(
                    Problem(
                        f"{where}.convicted",
                        "is required when the disposition is convicted (the conviction date)",
                        p,
                    )
                )
            elif prior.convicted < prior.committed:
                problems.append(
                    Problem(
                        f"{where}.convicted",
                        f"conviction {prior.convicted} is "
                        f"before its offense was committed ({prior.committed})",
                        p,
                    )
                )
            elif prior.convicted > statement_date:
                problems.append(
                    Problem(
                        f"{where}.convicted",
                        f"{prior.convicted} is after the statement date {statement_date}",
                        p,
                    )
                )
        elif prior.convicted is not None:
            problems.append(
                Problem(
                    f"{where}.convicted",
                    f"a conviction date is given but the disposition is {prior.disposition}",
                    p,
                )
            )
    return problems


def assess(
    offense: Offense, priors: Sequence[PriorOffense], statement_date: date, pack: Pack
) -> Assessment:
    """The penalty for ``offense`` given ``priors``, as of ``statement_date``."""
    citation = pack.require("penalty-statement")
    problems = check_history(offense, priors, statement_date)
    if problems:
        raise CaseInvalid(problems)

    penalties = pack.part("penalties")
    lookback = penalties.lookback_years.value
    # "for conviction of a second offense both of which were committed within a period of
    # five years": reading 2, inclusive, counted back from the current offense.
    window_start = years_before(offense.committed, lookback)

    findings = []
    for i, prior in enumerate(priors):
        # Reading 1: "upon conviction" -- only convictions count.
        if prior.disposition != "convicted":
            reason = f"not counted: disposition is {prior.disposition}, not a conviction"
            findings.append(PriorFinding(i, prior, False, reason))
        elif prior.committed > offense.committed:
            reason = (
                f"not counted: committed {prior.committed}, after the current offense "
                f"({offense.committed})"
            )
            findings.append(PriorFinding(i, prior, False, reason))
        elif prior.committed < window_start:
            reason = (
                f"not counted: committed {prior.committed}, more than {lookback} years "
                f"before the current offense (window opens {window_start})"
            )
            findings.append(PriorFinding(i, prior, False, reason))
        else:
            reason = (
                f"counted: convicted {prior.convicted}, committed {prior.committed}, "
                f"within {lookback} years of the current offense"
            )
            findings.append(PriorFinding(i, prior, True, reason))

    # Reading 3: offense number = 1 + counted priors; "third or subsequent" caps the tier.
    offense_number = 1 + sum(f.counted for f in findings)
    table = penalties.tiers
    tier = table[min(offense_number, len(table)) - 1]

    days = penalties.continued_violation_days.value
    violations = weekly_violations(offense.committed, offense.continued_through, days)
    return Assessment(
        citation=citation,
        offense=offense,
        statement_date=statement_date,
        lookback_start=window_start,
        offense_number=offense_number,
        tier=tier,
        violations=violations,
        findings=tuple(findings),
    )
