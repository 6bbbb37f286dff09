"""The SWPPP and its review in the register (LAW.md § 15; § 228-77D(2), (4), § 228-78B(1),
(2); § 301-71A, B).

A site's plan is recorded as received (title, revision or date, preparer and
qualification, permit or NOI identifier); each review is an event: the reviewer, the day,
and per item of the pack's list (docgen.law.pack.Swppp) present, missing, not adequate
(with the reviewer's words) or, for an item the law requires only where it applies, not
applicable. An amended plan (a new revision, § 228-78B(1)(b)) names the items it changes
and is reviewed against those only: every other item is carried from the last review of
the revision it amends, never reopened. The approval or return letter is issued from a
review (docgen.register.plans.swppp_letters); never an approval with an item open.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.law.pack import Swppp, SwpppItem
from docgen.law.packs import load_pack
from docgen.register.sites.invitations import today_in
from docgen.register.storage import db
from docgen.register.storage.audit import record
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import (
    CertificationSite,
    Document,
    SwpppDecision,
    SwpppPlan,
    SwpppReview,
)

PRESENT, MISSING, INADEQUATE, NOT_APPLICABLE = "present", "missing", "inadequate", "not-applicable"
FINDINGS = (PRESENT, MISSING, INADEQUATE, NOT_APPLICABLE)
OPEN = (MISSING, INADEQUATE)
# How each finding reads on the checklist and in the letters (the form's words).
SAID = {
    PRESENT: "present",
    MISSING: "missing",
    INADEQUATE: "not adequate",
    NOT_APPLICABLE: "does not apply",
}


@dataclass(frozen=True)
class Finding:
    """One item as a review found it."""

    item: SwpppItem
    finding: str
    words: str | None
    carried_from: int | None  # the review it was carried from (an item not changed)

    @property
    def open(self) -> bool:
        return self.finding in OPEN


@dataclass(frozen=True)
class Plan:
    id: int
    site_id: int
    jurisdiction: str
    title: str
    revision: str
    dated: date | None
    preparer: str
    qualification: str
    permit: str | None
    received: date
    amends: int | None
    changes: tuple[str, ...] | None
    applicant: str | None = None

    @property
    def label(self) -> str:
        dated = f", dated {self.dated.isoformat()}" if self.dated else ""
        return f"{self.title}, revision {self.revision}{dated}"


@dataclass(frozen=True)
class Review:
    id: int
    plan: Plan
    reviewer: str
    day: date
    findings: tuple[Finding, ...]
    decision: str | None  # approved | returned | None
    document: str | None  # the approval's or return letter's number

    @property
    def open_items(self) -> list[Finding]:
        return [f for f in self.findings if f.open]


def swppp_list(jurisdiction: str) -> Swppp:
    """The pack's list, or a RegisterError naming what the pack lacks."""
    pack = load_pack(jurisdiction)
    if pack.swppp is None:
        raise RegisterError(
            f"{pack.name.value}: the pack gives no list of a SWPPP's contents (swppp); "
            "add the list with its citations to the pack"
        )
    return pack.swppp


def _now() -> datetime:
    return datetime.now().astimezone()


def _site(session: Session, site_id: int) -> CertificationSite:
    row = session.get(CertificationSite, site_id)
    if row is None:
        raise RegisterError(f"site {site_id}: no such site in this register")
    return row


def _plan_view(row: SwpppPlan, jurisdiction: str) -> Plan:
    changes = tuple(row.changes) if row.changes is not None else None
    return Plan(
        row.id,
        row.site_id,
        jurisdiction,
        row.title,
        row.revision,
        row.dated,
        row.preparer,
        row.qualification,
        row.permit,
        row.received,
        row.amends_id,
        changes,
        row.applicant,
    )


def _plan_row(session: Session, plan_id: int) -> tuple[SwpppPlan, str]:
    row = session.get(SwpppPlan, plan_id)
    if row is None:
        raise RegisterError(f"plan {plan_id}: no such SWPPP in this register")
    return row, _site(session, row.site_id).jurisdiction


def _not_after_today(on: date, what: str, jurisdiction: str) -> None:
    today = today_in(jurisdiction)
    if on > today:
        raise RegisterError(
            f"{what} {on.isoformat()} is after today ({today.isoformat()}): the register "
            "records what was done, on the day it was done"
        )


def _text(value: str | None, what: str) -> str:
    text = " ".join((value or "").split())
    if not text:
        raise RegisterError(f"{what}: required")
    return text


def add_plan(
    engine: Any,
    site_id: int,
    *,
    title: str | None,
    revision: str,
    preparer: str | None,
    qualification: str | None,
    received: date,
    by: str,
    dated: date | None = None,
    permit: str | None = None,
    applicant: str | None = None,
    amends: int | None = None,
    changes: list[str] | None = None,
) -> Plan:
    """Record a SWPPP received for the site (or, with ``amends``, an amended revision
    naming the items of the law's list it ``changes``)."""
    with db.write_session(engine) as session:
        site = _site(session, site_id)
        law = swppp_list(site.jurisdiction)
        _not_after_today(received, "received", site.jurisdiction)
        if dated is not None and dated > received:
            raise RegisterError(
                f"dated {dated.isoformat()} is after the day it was received "
                f"({received.isoformat()}): a plan is dated on or before it is received"
            )
        known = {i.id for i in law.items}
        if amends is not None:
            old, _ = _plan_row(session, amends)
            if old.site_id != site_id:
                raise RegisterError(f"plan {amends} is another site's SWPPP")
            later = session.scalar(select(SwpppPlan).where(SwpppPlan.amends_id == old.id))
            if later is not None:
                raise RegisterError(
                    f"plan {amends} (revision {old.revision}) was already amended by plan "
                    f"{later.id} (revision {later.revision}): amend plan {later.id}"
                )
            if received < old.received:
                raise RegisterError(
                    f"received {received.isoformat()} is before the revision it amends was "
                    f"received ({old.received.isoformat()})"
                )
            wanted = list(dict.fromkeys(changes or []))
            if not wanted:
                why = _amend_ref(law, site.jurisdiction)
                raise RegisterError(
                    "changes: name the items of the list the amendment changes "
                    f"({law.ref}); it is reviewed against those ({why})"
                )
            unknown = [c for c in wanted if c not in known]
            if unknown:
                raise RegisterError(
                    f"changes: {', '.join(unknown)} not on the list of {law.ref} "
                    f"(its items: {', '.join(i.id for i in law.items)})"
                )
            changes = wanted
            # an amendment keeps what it does not restate
            title, preparer = title or old.title, preparer or old.preparer
            qualification = qualification or old.qualification
            permit, applicant = permit or old.permit, applicant or old.applicant
        elif changes:
            raise RegisterError("changes: only an amended plan names the items it changes")
        fields = {
            "title": _text(title, "title (the SWPPP's title)"),
            "revision": _text(revision, "revision (the SWPPP's revision or date)"),
            "preparer": _text(preparer, "preparer (who prepared the SWPPP)"),
            "qualification": _text(qualification, "qualification (the preparer's)"),
        }
        row = SwpppPlan(
            site_id=site_id,
            amends_id=amends,
            dated=dated,
            permit=" ".join(permit.split()) if permit and permit.strip() else None,
            applicant=" ".join(applicant.split()) if applicant and applicant.strip() else None,
            changes=changes if amends is not None else None,
            received=received,
            recorded_at=_now(),
            recorded_by=by,
            **fields,
        )
        session.add(row)
        session.flush()
        record(session, by, "add", "swppp-plan", row.id, {"site": site_id, "amends": amends})
        return _plan_view(row, site.jurisdiction)


def _amend_ref(law: Swppp, jurisdiction: str) -> str:
    if law.amend is not None:
        return law.amend.ref
    return f"{load_pack(jurisdiction).name.value} practice"


def plan(engine: Any, plan_id: int) -> Plan:
    with db.read_session(engine) as session:
        row, jurisdiction = _plan_row(session, plan_id)
        return _plan_view(row, jurisdiction)


def plans(engine: Any, site_id: int) -> list[Plan]:
    """The site's plans, each revision in the order received."""
    with db.read_session(engine) as session:
        site = _site(session, site_id)
        rows = session.scalars(
            select(SwpppPlan).where(SwpppPlan.site_id == site_id).order_by(SwpppPlan.id)
        )
        return [_plan_view(r, site.jurisdiction) for r in rows]


def latest_review_row(session: Session, plan_id: int) -> SwpppReview | None:
    """The plan's latest review as stored (None: not reviewed yet), in ``session``: what
    last_review shows, and what the approval or return letter is issued from."""
    return session.scalars(
        select(SwpppReview)
        .where(SwpppReview.plan_id == plan_id)
        .order_by(SwpppReview.id.desc())
        .limit(1)
    ).first()


def _decision(session: Session, review_id: int) -> tuple[str, str] | None:
    found = session.execute(
        select(SwpppDecision.outcome, Document.number)
        .join(Document, Document.id == SwpppDecision.document_id)
        .where(SwpppDecision.review_id == review_id)
    ).first()
    return (found[0], found[1]) if found else None


def review_from_row(session: Session, row: SwpppReview) -> Review:
    """The review as read: each item of the municipality's checklist with its finding (an
    item added after the review: not reviewed), and the decision issued from it."""
    plan_row, jurisdiction = _plan_row(session, row.plan_id)
    law = swppp_list(jurisdiction)
    findings = []
    for item in law.items:
        entry = row.findings.get(item.id)
        if entry is None:  # an item the pack added after this review: not reviewed
            findings.append(Finding(item, MISSING, "not reviewed", None))
            continue
        findings.append(
            Finding(item, entry["finding"], entry.get("words"), entry.get("carried_from"))
        )
    decided = _decision(session, row.id)
    return Review(
        row.id,
        _plan_view(plan_row, jurisdiction),
        row.reviewer,
        row.day,
        tuple(findings),
        decided[0] if decided else None,
        decided[1] if decided else None,
    )


def review_of(engine: Any, review_id: int) -> Review:
    with db.read_session(engine) as session:
        row = session.get(SwpppReview, review_id)
        if row is None:
            raise RegisterError(f"review {review_id}: no such review in this register")
        return review_from_row(session, row)


def last_review(engine: Any, plan_id: int) -> Review | None:
    """The plan's latest review (None: not reviewed yet)."""
    with db.read_session(engine) as session:
        _plan_row(session, plan_id)
        row = latest_review_row(session, plan_id)
        return review_from_row(session, row) if row is not None else None


def prefill(engine: Any, plan_id: int) -> dict[str, tuple[str, str | None]]:
    """What the checklist starts from: the previous review of the same plan, or for an
    amendment the findings it carries from the revision it amends."""
    with db.read_session(engine) as session:
        row, _ = _plan_row(session, plan_id)
        last = latest_review_row(session, plan_id)
        if last is None and row.amends_id is not None:
            last = latest_review_row(session, row.amends_id)
        if last is None:
            return {}
        return {k: (v["finding"], v.get("words")) for k, v in last.findings.items()}


Given = Mapping[str, tuple[str, str | None]]


def _checked(law: Swppp, given: Given) -> dict[str, dict[str, Any]]:
    """The findings as typed, checked item by item (every problem at once)."""
    problems: list[str] = []
    out: dict[str, dict[str, Any]] = {}
    for item_id, (finding, words) in given.items():
        item = law.item(item_id)
        if item is None:
            problems.append(f"{item_id}: not an item of the list of {law.ref}")
            continue
        if finding not in FINDINGS:
            problems.append(
                f"{item_id} ({item.ref}): {finding!r} is not a finding "
                "(present, missing, inadequate, or not-applicable)"
            )
            continue
        text = " ".join((words or "").split()) or None
        if finding == INADEQUATE and text is None:
            problems.append(
                f"{item_id} ({item.ref}): not adequate needs the reviewer's words: what is "
                "wrong and what the applicant must add"
            )
        if finding == NOT_APPLICABLE and not item.may_not_apply:
            problems.append(
                f"{item_id} ({item.ref}): every SWPPP must contain it; only an item the law "
                "requires where it applies may be found not to apply"
            )
        out[item_id] = {"finding": finding, "words": text}
    if problems:
        raise RegisterError("the review was not recorded: " + "; ".join(problems))
    return out


def record_review(
    engine: Any, plan_id: int, given: Given, *, reviewer: str, on: date, by: str
) -> Review:
    """Record a review of the plan: every item of the list for a first plan; for an
    amendment, the items it changes, the others carried from the last review of the
    revision it amends (never reopened)."""
    reviewer = _text(reviewer, "reviewer (who reviewed the SWPPP)")
    with db.write_session(engine) as session:
        row, jurisdiction = _plan_row(session, plan_id)
        law = swppp_list(jurisdiction)
        _not_after_today(on, "the review's date", jurisdiction)
        if on < row.received:
            raise RegisterError(
                f"the review's date {on.isoformat()} is before the plan was received "
                f"({row.received.isoformat()})"
            )
        later = session.scalar(select(SwpppPlan).where(SwpppPlan.amends_id == row.id))
        if later is not None:
            raise RegisterError(
                f"plan {plan_id} (revision {row.revision}) was amended by plan {later.id} "
                f"(revision {later.revision}): review plan {later.id}"
            )
        last = latest_review_row(session, plan_id)
        decided = _decision(session, last.id) if last is not None else None
        if decided is not None and decided[0] == "approved":
            raise RegisterError(
                f"plan {plan_id} was approved ({decided[1]}): an amendment is recorded as a "
                "new revision and reviewed against the items it changes"
            )
        if last is not None and on < last.day:
            raise RegisterError(
                f"the review's date {on.isoformat()} is before the plan's last review "
                f"({last.day.isoformat()})"
            )
        findings = _checked(law, given)
        if row.amends_id is None:
            wanted = [i.id for i in law.items]
            carried: dict[str, dict[str, Any]] = {}
        else:
            wanted = list(row.changes or [])
            before = latest_review_row(session, row.amends_id)
            if before is None:
                raise RegisterError(
                    f"plan {plan_id} amends plan {row.amends_id}, which has no review: "
                    f"review plan {row.amends_id} first; the items an amendment does not "
                    "change are carried from it"
                )
            if on < before.day:
                raise RegisterError(
                    f"the review's date {on.isoformat()} is before the review of the "
                    f"revision it amends ({before.day.isoformat()})"
                )
            reopened = [k for k in findings if k not in wanted]
            if reopened:
                raise RegisterError(
                    "the review was not recorded: "
                    + ", ".join(_named(law, k) for k in reopened)
                    + f" not changed by revision {row.revision}: the finding of the last "
                    "review stands and is not reopened; record an amendment that changes it"
                )
            carried = {
                k: {
                    "finding": v["finding"],
                    "words": v.get("words"),
                    "carried_from": v.get("carried_from") or before.id,
                }
                for k, v in before.findings.items()
                if k not in wanted
            }
        unfound = [k for k in wanted if k not in findings]
        if unfound:
            raise RegisterError(
                "the review was not recorded: no finding for "
                + ", ".join(_named(law, k) for k in unfound)
                + " (each is present, missing, inadequate, or not-applicable)"
            )
        review = SwpppReview(
            plan_id=plan_id,
            reviewer=reviewer,
            day=on,
            findings={**carried, **findings},
            recorded_at=_now(),
            recorded_by=by,
        )
        session.add(review)
        session.flush()
        opened = sorted(k for k, v in review.findings.items() if v["finding"] in OPEN)
        record(session, by, "review", "swppp-plan", plan_id, {"review": review.id, "open": opened})
        return review_from_row(session, review)


def _named(law: Swppp, item_id: str) -> str:
    item = law.item(item_id)
    return f"{item.label} ({item.ref})" if item else item_id


def state(engine: Any, site_id: int) -> str:
    """The plan's state, as the site's page says it."""
    with db.read_session(engine) as session:
        site = _site(session, site_id)
        row = session.scalars(
            select(SwpppPlan)
            .where(SwpppPlan.site_id == site_id)
            .order_by(SwpppPlan.id.desc())
            .limit(1)
        ).first()
        if row is None:
            return "no SWPPP received"
        view = _plan_view(row, site.jurisdiction)
        last = latest_review_row(session, row.id)
        if last is None:
            return f"{view.label}: received {row.received.isoformat()}, not yet reviewed"
        review = review_from_row(session, last)
        if review.decision == "approved":
            return f"{view.label}: approved ({review.document})"
        if review.decision == "returned":
            return f"{view.label}: returned ({review.document})"
        shut = len(review.open_items)
        return f"{view.label}: reviewed {last.day.isoformat()}, {shut} item(s) open"


def approved(engine: Any, site_id: int) -> str | None:
    """The site's approved SWPPP, as the invitations name it: '“Title”, revision R
    (approval SWA-...)'; None while no revision is approved."""
    with db.read_session(engine) as session:
        found = session.execute(
            select(SwpppPlan, Document.number)
            .join(SwpppReview, SwpppReview.plan_id == SwpppPlan.id)
            .join(SwpppDecision, SwpppDecision.review_id == SwpppReview.id)
            .join(Document, Document.id == SwpppDecision.document_id)
            .where(SwpppPlan.site_id == site_id, SwpppDecision.outcome == "approved")
            .order_by(SwpppPlan.id.desc())
            .limit(1)
        ).first()
        if found is None:
            return None
        plan, number = found
        return f"“{plan.title}”, revision {plan.revision} (approval {number})"
