"""Lifting a stop-work order (§ 228-79C(2); LAW.md § 3): the Village's confirmation of
compliance, recorded and issued as a written notice lifting the order, in one
transaction; the register, its filters and the desk then show the order as lifted."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select

from docgen.api import FORMATS
from docgen.documents import get_kind, kinds_with
from docgen.documents.affidavit_of_service import issuing_officer, persons_served
from docgen.errors import Problem
from docgen.law.packs import load_pack
from docgen.register.audit import actor
from docgen.register.copies import refuse_copies
from docgen.register.db import Refused, RegisterError
from docgen.register.issuing import Request, issue_in, write_out
from docgen.register.lost import recording
from docgen.register.models import Document
from docgen.register.queries import document_row
from docgen.register.records import Issued


def lift(
    reg: Any,
    number: str,
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    copies: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Record that the order ``number`` (of ``jurisdiction``, when two municipalities
    sharing the register hold that number) was lifted on ``on`` and issue the notice.
    ``copies``: also a copy of the notice for each other person the order was served on,
    addressed to them and kept with it (docgen.register.copies; LAW.md § 9)."""
    who = actor(by)
    (kind,) = kinds_with(lifts=True)
    again, safe = f"lift {number} again", "an order already lifted is refused, never lifted twice"
    with recording(reg, again, safe, f"the lifting of {number}") as (session, held):
        order: Document = document_row(session, number, jurisdiction)
        section = load_pack(order.jurisdiction, order.issued).provisions
        why = section["stop-work-order"].ref if "stop-work-order" in section else "LAW.md § 3"
        if not get_kind(order.kind).liftable:
            raise RegisterError(
                f"{number} is a {order.kind}; only a stop-work order is lifted ({why})"
            )
        done = session.scalar(
            select(Document.number).where(Document.about_id == order.id, Document.kind == kind)
        )
        if done:
            raise RegisterError(f"{number} was already lifted by {done}")
        served = [e.date for e in order.services]
        if not served:
            message = (
                f"{on}: {number} has no recorded service; an order takes effect on service, "
                "so it is lifted only after it was served"
            )
            raise Refused([Problem("date", message, f"{why}; LAW.md § 3")])
        if on < min(served):
            message = (
                f"{on}: before {number} was served ({min(served)}); an order is lifted only "
                "after it took effect"
            )
            raise Refused([Problem("date", message, f"{why}; LAW.md § 3")])
        people = persons_served(order.case)
        case = {
            "jurisdiction": order.jurisdiction,
            "issued": on.isoformat(),
            "order": {
                "number": order.number,
                "issued": order.issued.isoformat(),
                "served": min(served).isoformat(),
            },
            "officer": issuing_officer(order.case),
            "recipient": people[0],
            "copies_to": people[1:],
            "site": order.case["site"],
        }
        if copies:
            refuse_copies(kind, case)
        request = Request(
            kind,
            case,
            f"{number} lifted",
            order.respondent_id,
            tuple(formats),
            out,
            who,
            force=force,
            about=order.id,
            copies=copies,
        )
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)
