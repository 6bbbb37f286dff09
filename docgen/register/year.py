"""The municipality's year in figures (LAW.md § 15, a reading: the State's MS4 permit asks
each regulated municipality for yearly counts of its construction-site oversight),
computed from the register only: for a period, each count in plain words, the rule it
follows, and the document numbers behind it, so that every figure can be checked.

A count never includes a superseded document (its correction is counted, once) nor, for
the court outcomes, a matter still pending. Queries: one per category, each on indexed
columns (kind, issued), so that a register of thousands of documents answers at once.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import aliased

from docgen.documents.inspection_report import KIND as INSPECTION
from docgen.documents.notice_of_deficiency import KIND as DEFICIENCY
from docgen.documents.notice_of_violation import KIND as VIOLATION
from docgen.documents.penalty_statement import KIND as PENALTY
from docgen.documents.stop_work_order import KIND as ORDER
from docgen.register import db
from docgen.register.models import (
    CertificationSite,
    Document,
    Offense,
    SwpppDecision,
    SwpppPlan,
    SwpppReview,
)

CURRENT = "issued in the period and not superseded (a correction counts once)"


@dataclass(frozen=True)
class Figure:
    category: str  # in plain words
    rule: str  # what it counts
    numbers: tuple[str, ...]

    @property
    def count(self) -> int:
        return len(self.numbers)


def _current(session: Any, kind: str, jurisdiction: str, start: date, end: date) -> tuple:
    successor = aliased(Document)
    rows = session.scalars(
        select(Document.number)
        .where(
            Document.kind == kind,
            Document.jurisdiction == jurisdiction,
            Document.issued.between(start, end),
            ~select(successor.id).where(successor.supersedes_id == Document.id).exists(),
        )
        .order_by(Document.issued, Document.number)
    )
    return tuple(rows)


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
                session.scalars(
                    select(Document.number)
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
        inspections = _current(session, INSPECTION.name, jurisdiction, start, end)
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
        )
        return [
            Figure("Plans reviewed", "each review of a SWPPP dated in the period", reviewed),
            Figure("Plans approved", "each approval dated in the period", decided["approved"]),
            Figure("Plans returned", "each return letter dated in the period", decided["returned"]),
            Figure(
                "Sites active",
                "each site with a document issued in the period (the first listed)",
                tuple(first.values()),
            ),
            Figure("Inspections", f"each inspection report {CURRENT}", inspections),
            Figure(
                "Notices of deficiency",
                f"each notice {CURRENT}",
                _current(session, DEFICIENCY.name, jurisdiction, start, end),
            ),
            Figure(
                "Notices of violation",
                f"each notice {CURRENT}",
                _current(session, VIOLATION.name, jurisdiction, start, end),
            ),
            Figure(
                "Stop-work orders",
                f"each order {CURRENT}",
                _current(session, ORDER.name, jurisdiction, start, end),
            ),
            Figure(
                "Penalties",
                f"each penalty statement {CURRENT}",
                _current(session, PENALTY.name, jurisdiction, start, end),
            ),
            Figure(
                "Court outcomes",
                "each disposition other than pending recorded for a day in the period",
                outcomes,
            ),
        ]


def as_csv(found: list[Figure]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["category", "count", "rule", "documents"])
    for f in found:
        writer.writerow([f.category, f.count, f.rule, "; ".join(f.numbers)])
    return out.getvalue()
