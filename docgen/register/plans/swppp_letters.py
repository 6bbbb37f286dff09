"""The approval and the return letter, issued from a plan's last review (LAW.md § 15;
§ 228-77D(4); § 301-71A, B), each in one transaction with the decision it records.

Never an approval with an item open: refused with the items named (and what to do: return
the plan). Never a return letter with none open. One decision per review; the letter is
dated on or after the review and not after today.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select

from docgen.api import FORMATS
from docgen.documents.swppp_review import APPROVAL, RETURN
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.plans.swppp import SAID, Review, latest_review_row, review_from_row, swppp_list
from docgen.register.sites.invitations import today_in
from docgen.register.storage import db
from docgen.register.storage.audit import actor
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import (
    CertificationSite,
    Document,
    Invitation,
    SwpppDecision,
    SwpppPlan,
)
from docgen.register.storage.records import Issued


def _case(review: Review, site: CertificationSite, amended: str | None, on: date) -> dict[str, Any]:
    p = review.plan
    plan: dict[str, Any] = {
        "title": p.title,
        "revision": p.revision,
        "preparer": p.preparer,
        "qualification": p.qualification,
    }
    if p.dated:
        plan["dated"] = p.dated.isoformat()
    if p.permit:
        plan["permit"] = p.permit
    if amended:
        plan["amends"] = amended
    items = []
    for f in review.findings:
        entry: dict[str, Any] = {
            "id": f.item.id,
            "label": f.item.label,
            "ref": f.item.ref,
            "finding": f.finding,
        }
        if f.words:
            entry["words"] = f.words
        if f.carried_from is not None and amended:
            entry["review"] = "carried"
        items.append(entry)
    reviewer, _, title = review.reviewer.partition(",")
    law = swppp_list(site.jurisdiction)
    case: dict[str, Any] = {
        "jurisdiction": site.jurisdiction,
        "issued": on.isoformat(),
        "reviewed": review.day.isoformat(),
        "reviewer": {"name": reviewer.strip(), "title": title.strip() or law.received_by.value},
        "project": site.project["name"],
        "site": site.site,
        "plan": plan,
        "items": items,
    }
    if p.applicant:
        case["applicant"] = p.applicant
    return case


def decide(
    reg: Any,
    plan_id: int,
    outcome: str,
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
) -> Issued:
    """Approve (``approved``) or return (``returned``) the plan on its last review."""
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        row = session.get(SwpppPlan, plan_id)
        if row is None:
            raise RegisterError(f"plan {plan_id}: no such SWPPP in this register")
        site = session.get(CertificationSite, row.site_id)
        assert site is not None
        law = swppp_list(site.jurisdiction)
        last = latest_review_row(session, plan_id)
        if last is None:
            raise RegisterError(
                f"plan {plan_id} has no review: record the review (`docgen swppp review "
                f"{plan_id}`) first; the approval or return letter is issued from it"
            )
        review = review_from_row(session, last)
        if review.decision is not None:
            raise RegisterError(
                f"plan {plan_id}'s review of {review.day.isoformat()} was already "
                f"{review.decision} ({review.document}); an amended plan is a new revision"
            )
        today = today_in(site.jurisdiction)
        if on > today:
            raise RegisterError(
                f"--date {on.isoformat()} is after today ({today.isoformat()}): a letter is "
                "dated the day it is issued"
            )
        if on < review.day:
            raise RegisterError(
                f"--date {on.isoformat()} is before the review ({review.day.isoformat()})"
            )
        open_items = review.open_items
        if outcome == "approved" and open_items:
            named = "; ".join(
                f"{f.item.label} ({f.item.ref}): {SAID[f.finding]}" for f in open_items
            )
            why = law.approve.ref if law.approve else law.ref
            raise RegisterError(
                f"plan {plan_id} is not approved: {len(open_items)} item(s) open: {named}. "
                f"A SWPPP is approved if it complies ({why}): return it "
                f"(`docgen swppp return {plan_id}`) naming what to add"
            )
        if outcome == "returned" and not open_items:
            raise RegisterError(
                f"plan {plan_id}: every item of {law.ref} is present on its review; it is "
                f"approved (`docgen swppp approve {plan_id}`), not returned"
            )
        amended = None
        if row.amends_id is not None:
            old = session.get(SwpppPlan, row.amends_id)
            amended = old.revision if old is not None else None
        case = _case(review, site, amended, on)
        kind = APPROVAL if outcome == "approved" else RETURN
        if kind == APPROVAL:
            held = session.execute(
                select(Document.number, Invitation.firm)
                .join(Invitation, Invitation.document_id == Document.id)
                .where(Invitation.site_id == site.id)
                .order_by(Invitation.signed_at, Invitation.id)
            )
            case["certifications"] = [{"number": n, "firm": f} for n, f in held]
        request = Request(
            kind,
            case,
            f"plan {plan_id} {outcome}",
            None,
            tuple(formats),
            out,
            who,
            force=force,
            made_by_register=True,
        )
        issued, targets = issue_in(session, request)
        taken = session.scalar(select(SwpppDecision.id).where(SwpppDecision.review_id == review.id))
        if taken is None:
            session.add(
                SwpppDecision(review_id=review.id, document_id=issued.id, outcome=outcome, day=on)
            )
    return write_out(issued, targets, force)
