"""A statement of fees from the register (§ 228-79D; LAW.md § 15), and the payments
recorded against it.

The services are those the register holds for the site in the period, and only those: each
review of the site's SWPPP (docgen.register.plans.swppp), and each inspection report whose site
is the site's (by its address or description as recorded), a superseded report left out
(its correction is counted). The rate of each is the municipality's fee schedule, a
setting (docgen.settings.FeeSchedule); without one the statement is refused.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from docgen.api import FORMATS
from docgen.cases.common import Site as SiteModel
from docgen.documents import a_title
from docgen.documents.fee_statement import KIND as STATEMENT
from docgen.documents.inspection_report import KIND as INSPECTION
from docgen.law.packs import load_pack
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.rules.rows import document_row
from docgen.register.sites.invitations import today_in
from docgen.register.storage import db
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import (
    CertificationSite,
    Document,
    FeePayment,
    SwpppDecision,
    SwpppPlan,
    SwpppReview,
)
from docgen.register.storage.records import Issued
from docgen.settings import FeeSchedule, load_settings


def _place(site: dict[str, Any]) -> str:
    """The site as recorded, to match an inspection's site: its address, else its
    description (case and spacing aside)."""
    model = SiteModel.model_validate(site)
    text = model.address.one_line() if model.address else (model.description or "")
    return " ".join(text.split()).casefold()


def fee_schedule(jurisdiction: str) -> FeeSchedule:
    """The municipality's fee schedule, as its settings adopt it; refused where none is."""
    local = load_settings(jurisdiction)
    schedule = local.settings.fee_schedule if local else None
    if schedule is None:
        raise RegisterError(
            f"{load_pack(jurisdiction).name.value} has no fee schedule in its settings "
            "(fee_schedule: adopted, swppp_review, inspection): a fee is stated at the "
            "rate of the municipality's schedule"
        )
    return schedule


def services(
    session: Session, site: CertificationSite, start: date, end: date
) -> list[dict[str, str]]:
    """Each service the register holds for ``site`` from ``start`` to ``end``, by date."""
    schedule = fee_schedule(site.jurisdiction)
    found: list[dict[str, str]] = []
    reviews = session.execute(
        select(SwpppReview, SwpppPlan)
        .join(SwpppPlan, SwpppPlan.id == SwpppReview.plan_id)
        .where(SwpppPlan.site_id == site.id, SwpppReview.day.between(start, end))
        .order_by(SwpppReview.day, SwpppReview.id)
    )
    for review, plan in reviews:
        letter = session.scalar(
            select(Document.number)
            .join(SwpppDecision, SwpppDecision.document_id == Document.id)
            .where(SwpppDecision.review_id == review.id)
        )
        found.append(
            {
                "day": review.day.isoformat(),
                "service": f"Review of the SWPPP “{plan.title}”, revision {plan.revision}",
                "reference": letter or f"review of {review.day.isoformat()} (no letter yet)",
                "rate": str(schedule.swppp_review),
                "amount": str(schedule.swppp_review),
            }
        )
    successor = aliased(Document)
    reports = session.scalars(
        select(Document)
        .where(
            Document.kind == INSPECTION.name,
            Document.jurisdiction == site.jurisdiction,
            ~select(successor.id).where(successor.supersedes_id == Document.id).exists(),
        )
        .order_by(Document.issued, Document.id)
    )
    where = _place(site.site)
    for report in reports:
        day = date.fromisoformat(report.case["inspected"])
        if not start <= day <= end or _place(report.case["site"]) != where:
            continue
        found.append(
            {
                "day": day.isoformat(),
                "service": "Inspection of the site",
                "reference": f"Inspection Report No. {report.number}",
                "rate": str(schedule.inspection),
                "amount": str(schedule.inspection),
            }
        )
    return sorted(found, key=lambda s: s["day"])


def statement(
    reg: Any,
    site_id: int,
    start: date,
    end: date,
    on: date,
    *,
    payer: str,
    officer: dict[str, str],
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
) -> Issued:
    """Issue the statement of fees for the site's services from ``start`` to ``end``."""
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        site = session.get(CertificationSite, site_id)
        if site is None:
            raise RegisterError(f"site {site_id}: no such site in this register")
        pack = load_pack(site.jurisdiction)
        pack.require(STATEMENT)
        today = today_in(site.jurisdiction)
        if on > today:
            raise RegisterError(f"--date {on.isoformat()} is after today ({today.isoformat()})")
        if end < start or end > on:
            raise RegisterError(
                f"--to {end.isoformat()}: the period ends on or after it starts and not after "
                "the statement's date"
            )
        listed = services(session, site, start, end)
        if not listed:
            raise RegisterError(
                f"site {site_id}: the register holds no review or inspection from "
                f"{start.isoformat()} to {end.isoformat()}: no fee is stated for a service "
                f"it has no record of ({pack.enforcement.fees.ref if pack.enforcement else ''})"
            )
        schedule = fee_schedule(site.jurisdiction)
        total = sum((Decimal(s["amount"]) for s in listed), Decimal(0))
        case = {
            "jurisdiction": site.jurisdiction,
            "issued": on.isoformat(),
            "officer": officer,
            "payer": payer,
            "project": site.project["name"],
            "site": site.site,
            "period_from": start.isoformat(),
            "period_to": end.isoformat(),
            "schedule": f"{pack.name.value} fee schedule, {schedule.adopted}",
            "services": listed,
            "total": str(total),
        }
        request = Request(
            STATEMENT.name,
            case,
            f"fees of site {site_id}",
            None,
            tuple(formats),
            out,
            who,
            force=force,
            made_by_register=True,
        )
        issued, targets = issue_in(session, request)
    return write_out(issued, targets, force)


def balance(reg: Any, number: str) -> tuple[Decimal, Decimal]:
    """(the statement's total, what has been paid against it)."""
    with db.read_session(reg.engine) as session:
        doc = document_row(session, number)
        paid = session.scalar(
            select(func.coalesce(func.sum(FeePayment.amount), 0)).where(
                FeePayment.document_id == doc.id
            )
        )
        return Decimal(str(doc.case["total"])), Decimal(str(paid))


def pay(
    reg: Any, number: str, amount: str, on: date, method: str, by: str | None = None
) -> Decimal:
    """Record a payment of ``amount`` against the statement ``number``."""
    who = actor(by)
    try:
        paid = Decimal(amount.replace("$", "").replace(",", "").strip()).quantize(Decimal("0.01"))
    except InvalidOperation:
        raise RegisterError(f"--amount {amount!r}: an amount in dollars, e.g. 150.00") from None
    if paid <= 0:
        raise RegisterError(f"--amount {amount}: more than nothing")
    if not method.strip():
        raise RegisterError("--method: how it was paid (check no. 1234, cash, card)")
    with guarded(reg.url), db.write_session(reg.engine) as session:
        doc = document_row(session, number)
        if doc.kind != STATEMENT.name:
            raise RegisterError(
                f"{number} is {a_title(doc.kind)}; a payment is of a statement of fees"
            )
        if on > today_in(doc.jurisdiction) or on < doc.issued:
            raise RegisterError(
                f"--date {on.isoformat()}: a payment is dated from the statement's date "
                f"({doc.issued.isoformat()}) to today"
            )
        before = session.scalar(
            select(func.coalesce(func.sum(FeePayment.amount), 0)).where(
                FeePayment.document_id == doc.id
            )
        )
        due = Decimal(str(doc.case["total"])) - Decimal(str(before))
        if paid > due:
            raise RegisterError(f"--amount {paid}: more than the balance due on {number} ({due})")
        row = FeePayment(
            document_id=doc.id,
            day=on,
            amount=paid,
            method=" ".join(method.split()),
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        session.add(row)
        session.flush()
        record(session, who, "pay", "document", doc.id, {"amount": str(paid)})
        return due - paid
