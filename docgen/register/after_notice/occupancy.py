"""Occupancy withheld (§ 228-79C(5); LAW.md § 14): "the CEO may prevent the occupancy of
said building or land". The order preventing occupancy rests on a notice of violation or
stop-work order in the register (named by number, in effect and served), names the
building or land, is served and proved like a stop-work order (``docgen record-service``),
and a copy goes to the building department; its release is in writing, dated on or after
the day service of the order was complete, and only once.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from docgen.api import FORMATS
from docgen.documents import kind_named
from docgen.documents.affidavit_of_service import issuing_officer, persons_served
from docgen.errors import Problem
from docgen.register.after_notice import (
    dated,
    following,
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
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.storage.audit import actor
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.records import Issued

ORDER, RELEASE = "withholds", "releases-hold"  # the steps (Kind.step)


def _department(pack: Any, why: str) -> str:
    found = pack.enforcement.building_department if pack.enforcement else None
    if found is None:
        raise RegisterError(
            f"the {pack.name.value}'s settings name no building department to send the copy "
            f"to (enforcement.building_department in its pack) ({why})"
        )
    return str(found.value)


def withhold(
    reg: Any,
    number: str,
    premises: str,
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Issue an order preventing the occupancy of ``premises`` (the building or land),
    resting on the notice of violation or stop-work order ``number``, dated ``on``.

    Refused: a document that is neither, one superseded (the one in effect is named), one
    with no recorded service that stands; a date after today or before that service; no
    building or land named; a municipality whose law has no such provision."""
    who = actor(by)
    kind = kind_of(ORDER)
    again = f"withhold-occupancy {number} again"
    with recording(reg, again, "the order is issued once", f"the order resting on {number}") as (
        session,
        held,
    ):
        doc, pack, why = opened(session, number, jurisdiction, on, ORDER)
        day = rests_on(doc, pack, why)
        problems: list[Problem] = []
        if not premises.strip():
            missing = "missing: the building or land whose occupancy is prevented"
            problems.append(Problem("premises", missing, why))
        problems += dated(on, pack, day, f"service of {doc.number} was complete", why)
        refuse(problems)
        people = [without_article(p) for p in persons_served(doc.case)]
        case = {
            "jurisdiction": doc.jurisdiction,
            "issued": on.isoformat(),
            "officer": issuing_officer(doc.case),
            "recipient": people[0],
            "copies_to": people[1:],
            "site": doc.case["site"],
            "premises": premises.strip(),
            "rests_on": {
                "number": doc.number,
                "title": kind_named(doc.kind).heading or kind_named(doc.kind).title,
                "issued": doc.issued.isoformat(),
                "served": day.isoformat(),
                "violations": violations_of(doc),
            },
            "building_department": _department(pack, why),
        }
        request = Request(
            kind, case, f"occupancy prevented on {number}", doc.respondent_id, tuple(formats),
            out, who, force=force, about=doc.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def release(
    reg: Any,
    number: str,
    on: date,
    *,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Release the order preventing occupancy ``number`` in writing as of ``on``.

    Refused: a document that is no such order, an order superseded or not served, a date
    after today or before service of the order was complete, an order already released."""
    who = actor(by)
    kind = kind_of(RELEASE)
    again = f"release-occupancy {number} again"
    with recording(reg, again, "an order is released once", f"the release of {number}") as (
        session,
        held,
    ):
        order, pack, why = opened(session, number, jurisdiction, on, RELEASE)
        of_step(order, ORDER, why)
        once(session, order, RELEASE, why, "{doc} was already released by {done}")
        day = served(order, pack, why)
        refuse(dated(on, pack, day, f"service of {order.number} was complete", why))
        case = {
            "jurisdiction": order.jurisdiction,
            "issued": on.isoformat(),
            "order": {
                "number": order.number,
                "issued": order.issued.isoformat(),
                "served": day.isoformat(),
            },
            "officer": issuing_officer(order.case),
            "recipient": without_article(order.case["recipient"]),
            "copies_to": [without_article(p) for p in order.case.get("copies_to") or []],
            "site": order.case["site"],
            "premises": order.case["premises"],
            "building_department": order.case["building_department"],
        }
        request = Request(
            kind, case, f"{order.number} released", order.respondent_id, tuple(formats), out,
            who, force=force, about=order.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def released_by(session: Any, order: Document) -> Document | None:
    return following(session, order, RELEASE)
