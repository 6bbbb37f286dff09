"""Restoration of lands (§ 228-79C(6); LAW.md § 14): "Any violator may be required to
restore land to its undisturbed condition. In the event that restoration is not undertaken
within a reasonable time after notice, the [municipality] may take necessary corrective
action, the cost of which shall become a lien upon the property until paid."

Three documents in order, each one transaction with its event: the notice requiring
restoration (resting on a served notice of violation or stop-work order; the date is the
officer's, the "reasonable time"); after that date and an inspection on or after it that
found the restoration not done, the statement of the cost of the corrective action; the
notice of lien on the property (docgen.register.after_notice.liens: payments and the release).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from docgen.api import FORMATS
from docgen.documents import kind_named
from docgen.documents.affidavit_of_service import issuing_officer, persons_served
from docgen.errors import Problem
from docgen.register.after_notice import (
    dated,
    kind_of,
    of_step,
    once,
    opened,
    refuse,
    rests_on,
    served,
    violations_of,
    without_article,
)
from docgen.register.matter.inspections import INSPECTION
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.rules.rows import document_row, in_effect
from docgen.register.storage.audit import actor
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.records import Issued

RESTORE, COST = "requires-restoration", "states-cost"  # the steps (Kind.step)


def require(
    reg: Any,
    number: str,
    restore: str,
    restore_by: date,
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Issue the notice requiring restoration of ``restore`` by ``restore_by`` (the
    officer's date: the "reasonable time"), resting on the served notice of violation or
    stop-work order ``number``, dated ``on``."""
    who = actor(by)
    kind = kind_of(RESTORE)
    again = f"require-restoration {number} again"
    with recording(reg, again, "the notice is issued once", f"restoration on {number}") as (
        session,
        held,
    ):
        doc, pack, why = opened(session, number, jurisdiction, on, RESTORE)
        day = rests_on(doc, pack, why)
        problems: list[Problem] = []
        if not restore.strip():
            problems.append(Problem("restore", "missing: what is to be restored", why))
        problems += dated(on, pack, day, f"service of {doc.number} was complete", why)
        if restore_by <= on:
            message = (
                f"{restore_by}: not after the notice's date ({on}); restoration is due a "
                "reasonable time after notice"
            )
            problems.append(Problem("restore_by", message, why))
        refuse(problems)
        people = [without_article(p) for p in persons_served(doc.case)]
        case = {
            "jurisdiction": doc.jurisdiction,
            "issued": on.isoformat(),
            "officer": issuing_officer(doc.case),
            "recipient": people[0],
            "copies_to": people[1:],
            "site": doc.case["site"],
            "rests_on": {
                "number": doc.number,
                "title": kind_named(doc.kind).heading or kind_named(doc.kind).title,
                "issued": doc.issued.isoformat(),
                "served": day.isoformat(),
                "violations": violations_of(doc),
            },
            "restore": restore.strip(),
            "restore_by": restore_by.isoformat(),
        }
        request = Request(
            kind, case, f"restoration required on {number}", doc.respondent_id, tuple(formats),
            out, who, force=force, about=doc.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def found_not_done(
    session: Any, notice: Document, number: str, restore_by: date, why: str
) -> dict[str, Any]:
    """The inspection ``number``: a report at the notice's site, in effect, inspected on or
    after ``restore_by``, with a finding that is deficient (restoration not done); what the
    statement says of it. A RegisterError saying what to record first otherwise."""
    first = (
        f"record an inspection of the site on or after {restore_by} that finds the "
        f"restoration not done (docgen record-inspection), then name it"
    )
    report: Document = document_row(session, number, notice.jurisdiction)
    if report.kind != INSPECTION:
        raise RegisterError(f"{report.number} is not an inspection report: {first} ({why})")
    current = in_effect(session, report)
    if current is not None:
        raise RegisterError(f"{report.number} was superseded by {current}: name {current} ({why})")
    if report.site_id != notice.site_id:
        raise RegisterError(f"{report.number} inspected another site: {first} ({why})")
    inspected = date.fromisoformat(report.case["inspected"])
    if inspected < restore_by:
        raise RegisterError(
            f"{report.number} inspected the site on {inspected}, before the date set for "
            f"restoration ({restore_by}): {first} ({why})"
        )
    deficient = [f for f in report.case.get("findings") or [] if f.get("result") == "deficient"]
    if not deficient:
        raise RegisterError(
            f"{report.number} found nothing deficient, so not that the restoration was not "
            f"done: {first} ({why})"
        )
    found = "; ".join(f"{f['practice']}: {f['found']}" for f in deficient)
    return {"number": report.number, "inspected": inspected.isoformat(), "found": found}


def state_cost(
    reg: Any,
    number: str,
    inspection: str,
    items: list[tuple[str, Decimal]],
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Issue the statement of the cost of the corrective action taken after the notice
    requiring restoration ``number``: ``items`` (what, amount), the inspection that found the
    restoration not done named. Refused before the notice's date, without such an
    inspection (saying what to record first), or once a statement was issued."""
    who = actor(by)
    kind = kind_of(COST)
    again = f"state-restoration-cost {number} again"
    with recording(reg, again, "the statement is issued once", f"the cost on {number}") as (
        session,
        held,
    ):
        notice, pack, why = opened(session, number, jurisdiction, on, COST)
        of_step(notice, RESTORE, why)
        once(session, notice, COST, why, "{doc} has its statement of cost: {done}")
        day = served(notice, pack, why)
        restore_by = date.fromisoformat(notice.case["restore_by"])
        problems = dated(on, pack, restore_by, "the date set for restoration", why)
        if not items:
            problems.append(Problem("items", "missing: each item of the corrective action", why))
        refuse(problems)
        found = found_not_done(session, notice, inspection, restore_by, why)
        refuse(dated(on, pack, date.fromisoformat(found["inspected"]), "the inspection", why))
        amounts = [{"item": item, "amount": str(amount)} for item, amount in items]
        case = {
            "jurisdiction": notice.jurisdiction,
            "issued": on.isoformat(),
            "officer": issuing_officer(notice.case),
            "recipient": notice.case["recipient"],
            "copies_to": notice.case.get("copies_to") or [],
            "site": notice.case["site"],
            "notice": {
                "number": notice.number,
                "issued": notice.issued.isoformat(),
                "served": day.isoformat(),
                "restore_by": restore_by.isoformat(),
            },
            "inspection": found,
            "items": amounts,
            "total": str(sum((a for _, a in items), Decimal("0.00"))),
        }
        request = Request(
            kind, case, f"cost of restoring on {number}", notice.respondent_id, tuple(formats),
            out, who, force=force, about=notice.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)
