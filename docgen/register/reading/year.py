"""The municipality's year in figures (LAW.md § 15, a reading: the State's MS4 permit asks
each regulated municipality for yearly counts of its construction-site oversight),
computed from the register only: for a period, each count in plain words, the rule it
follows, and the document numbers behind it, so that every figure can be checked.

A count never includes a superseded document (its correction is counted, once), a
withdrawn notice of violation (no offense at all; its withdrawal is a court outcome) nor,
for the court outcomes, a matter still pending. Queries: one per category, each on indexed
columns (kind, issued), so that a register of thousands of documents answers at once.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import aliased

from docgen.documents.inspection_report import KIND as INSPECTION
from docgen.documents.municipal_year import KIND as REPORT
from docgen.documents.notice_of_deficiency import KIND as DEFICIENCY
from docgen.documents.notice_of_violation import KIND as VIOLATION
from docgen.documents.penalty_statement import KIND as PENALTY
from docgen.documents.stop_work_order import KIND as ORDER
from docgen.errors import DocgenError
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.law.year import CATEGORIES, MONTHS, period
from docgen.register.rules.rows import corrections
from docgen.register.storage import db
from docgen.register.storage.models import (
    CertificationSite,
    Document,
    Offense,
    SwpppDecision,
    SwpppPlan,
    SwpppReview,
)

KEYS = {words: key for key, words in CATEGORIES}
CURRENT = "issued in the period and not superseded (a correction counts once)"
LETTER = "a corrected letter counted once, under the number of its correction"


@dataclass(frozen=True)
class Figure:
    category: str  # in plain words
    rule: str  # what it counts
    numbers: tuple[str, ...]
    days: tuple[date, ...] = ()  # each document's issue date (the kinds the chart shows)

    @property
    def count(self) -> int:
        return len(self.numbers)

    @property
    def key(self) -> str:
        """The category's id (docgen.law.year.CATEGORIES), the pack's ``form_items`` key."""
        return KEYS[self.category]


@dataclass(frozen=True)
class Period:
    """The period reported on: its first and last days, and the day the figures run to
    (today, while the period has not ended)."""

    start: date
    end: date
    through: date

    @property
    def ended(self) -> bool:
        return self.through == self.end


def reporting_period(
    jurisdiction: str, year: int | None, start: date | None, end: date | None
) -> Period:
    """The period: ``start`` to ``end`` as given, else the pack's reporting period named
    ``year``. Refused (what to do instead): neither given, a pack naming no period, a period
    that has not begun, a last day before the first."""
    pack = load_pack(jurisdiction)
    today = municipal_today(pack)
    if start is None and end is None:
        if year is None:
            raise DocgenError(
                "which period? Give --period YEAR (the pack's reporting period ending in "
                "that year), or --from and --to"
            )
        if pack.year is None:
            raise DocgenError(
                f"{pack.name.value}: its pack names no reporting period; give the period's "
                "first and last days with --from and --to"
            )
        start, end = period(pack.year.starts.value, year)
    elif start is None or end is None or year is not None:
        raise DocgenError(
            "give --from and --to together (the period's first and last days), or --period alone"
        )
    if end < start:
        raise DocgenError(
            f"--to: {end.isoformat()} is before --from {start.isoformat()}; the period's last "
            "day comes after its first"
        )
    if start > today:
        raise DocgenError(
            f"the period from {start.isoformat()} has not begun (today is {today.isoformat()}): "
            "nothing can be recorded in it yet; choose a period that has begun"
        )
    return Period(start, end, min(end, today))


def _current(
    session: Any,
    category: str,
    rule: str,
    kind: str,
    jurisdiction: str,
    start: date,
    end: date,
    *,
    charges: bool = False,
) -> Figure:
    """Each ``kind`` issued in the period and not superseded; with ``charges`` (a notice of
    violation), not withdrawn either: a withdrawn notice is no offense at all."""
    successor = aliased(Document)
    query = select(Document.number, Document.issued).where(
        Document.kind == kind,
        Document.jurisdiction == jurisdiction,
        Document.issued.between(start, end),
        ~select(successor.id).where(successor.supersedes_id == Document.id).exists(),
    )
    if charges:
        query = query.where(
            ~select(Offense.id)
            .where(Offense.document_id == Document.id, Offense.disposition == "withdrawn")
            .exists()
        )
    rows = session.execute(query.order_by(Document.issued, Document.number)).all()
    return Figure(category, rule, tuple(r.number for r in rows), tuple(r.issued for r in rows))


def figures(engine: Any, jurisdiction: str, start: date, end: date) -> list[Figure]:
    """The year's figures for ``jurisdiction`` from ``start`` to ``end``."""
    with db.read_session(engine) as session:
        reviews = session.execute(
            select(SwpppReview.day, SwpppPlan.title, SwpppPlan.revision)
            .join(SwpppPlan, SwpppPlan.id == SwpppReview.plan_id)
            .join(CertificationSite, CertificationSite.id == SwpppPlan.site_id)
            .where(
                SwpppReview.day.between(start, end),
                CertificationSite.jurisdiction == jurisdiction,
            )
            .order_by(SwpppReview.day, SwpppReview.id)
        ).all()
        reviewed = tuple(
            f"review {r.day.isoformat()} of {r.title}, revision {r.revision}" for r in reviews
        )
        decided = {
            outcome: tuple(
                corrections(session, letter)[-1]  # the letter in effect: a correction once
                for letter in session.scalars(
                    select(Document)
                    .join(SwpppDecision, SwpppDecision.document_id == Document.id)
                    .where(
                        SwpppDecision.outcome == outcome,
                        Document.jurisdiction == jurisdiction,
                        SwpppDecision.day.between(start, end),
                    )
                    .order_by(SwpppDecision.day, Document.number)
                )
            )
            for outcome in ("approved", "returned")
        }
        successor = aliased(Document)
        active = session.execute(
            select(Document.site_id, Document.number)
            .where(
                Document.jurisdiction == jurisdiction,
                Document.issued.between(start, end),
                Document.site_id.is_not(None),
                ~select(successor.id).where(successor.supersedes_id == Document.id).exists(),
            )
            .order_by(Document.issued, Document.number)
        ).all()
        first: dict[int, str] = {}
        for site_id, number in active:
            if site_id is not None:  # only sites: the query asks for them
                first.setdefault(site_id, number)
        outcomes = tuple(
            f"{number}: {disposition} {day.isoformat()}"
            for number, disposition, day in session.execute(
                select(Document.number, Offense.disposition, Offense.disposition_date)
                .join(Document, Document.id == Offense.document_id)
                .where(
                    Offense.jurisdiction == jurisdiction,
                    Offense.disposition != "pending",
                    Offense.disposition_date.between(start, end),
                )
                .order_by(Offense.disposition_date, Document.number)
            )
            if day is not None  # decided in the period: the query asks for a date
        )
        return [
            Figure("Plans reviewed", "each review of a SWPPP dated in the period", reviewed),
            Figure(
                "Plans approved",
                f"each approval dated in the period, {LETTER}",
                decided["approved"],
            ),
            Figure(
                "Plans returned",
                f"each return letter dated in the period, {LETTER}",
                decided["returned"],
            ),
            Figure(
                "Sites active",
                "each site with a document issued in the period (the first listed)",
                tuple(first.values()),
            ),
            _current(
                session,
                "Inspections",
                f"each inspection report {CURRENT}",
                INSPECTION.name,
                jurisdiction,
                start,
                end,
            ),
            _current(
                session,
                "Notices of deficiency",
                f"each notice {CURRENT}",
                DEFICIENCY.name,
                jurisdiction,
                start,
                end,
            ),
            _current(
                session,
                "Notices of violation",
                f"each notice {CURRENT}, nor withdrawn (its withdrawal is a court outcome)",
                VIOLATION.name,
                jurisdiction,
                start,
                end,
                charges=True,
            ),
            _current(
                session,
                "Stop-work orders",
                f"each order {CURRENT}",
                ORDER.name,
                jurisdiction,
                start,
                end,
            ),
            _current(
                session,
                "Penalties",
                f"each penalty statement {CURRENT}",
                PENALTY.name,
                jurisdiction,
                start,
                end,
            ),
            Figure(
                "Court outcomes",
                "each disposition other than pending recorded for a day in the period",
                outcomes,
            ),
        ]


CHARTED = ("inspections", "notices-of-deficiency", "notices-of-violation", "stop-work-orders")


@dataclass(frozen=True)
class Month:
    label: str  # "March 2026" (from the 10th: "March 10-31, 2026")
    counts: dict[str, int]  # category id -> documents issued in the month


def by_month(found: list[Figure], when: Period) -> list[Month]:
    """The charted categories' counts in each month of the period, to its last day or
    today: a month the period begins or ends within is labelled with its days."""
    charted = [f for f in found if f.key in CHARTED]
    months: list[Month] = []
    first = when.start
    while first <= when.through:
        following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
        last = min(following - timedelta(days=1), when.through)
        name = MONTHS[first.month - 1]
        whole = first.day == 1 and last == following - timedelta(days=1)
        label = f"{name} {first.year}" if whole else f"{name} {first.day}-{last.day}, {first.year}"
        counts = {f.key: sum(first <= d <= last for d in f.days) for f in charted}
        months.append(Month(label, counts))
        first = following
    return months


def as_csv(found: list[Figure]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["category", "count", "rule", "documents"])
    for f in found:
        writer.writerow([f.category, f.count, f.rule, "; ".join(f.numbers)])
    return out.getvalue()


def case_of(
    jurisdiction: str, when: Period, found: list[Figure], prepared: date, by: dict[str, str]
) -> dict[str, Any]:
    """The case of the municipal-year document (docgen.documents.municipal_year): the
    figures and the months, as the register gives them."""
    return {
        "jurisdiction": jurisdiction,
        "prepared": prepared.isoformat(),
        "prepared_by": by,
        "period_from": when.start.isoformat(),
        "period_to": when.end.isoformat(),
        "through": when.through.isoformat(),
        "categories": [
            {"key": f.key, "words": f.category, "rule": f.rule, "numbers": list(f.numbers)}
            for f in found
        ],
        "months": [
            {"label": m.label, **{k.replace("-", "_"): n for k, n in m.counts.items()}}
            for m in by_month(found, when)
        ],
    }


def write_report(
    jurisdiction: str, when: Period, found: list[Figure], by: dict[str, str], out: Any
) -> list[Any]:
    """The draft report (docgen.documents.municipal_year) in every format, in ``out``:
    the paths written. Dated today in the municipality; a file already there is replaced
    (a draft is made again as the register grows)."""
    from docgen import api  # the renderers (+1 s): only when a report is written

    prepared = municipal_today(load_pack(jurisdiction))
    case = case_of(jurisdiction, when, found, prepared, by)
    return list(api.render(REPORT.name, case, out=out, force=True).files)
