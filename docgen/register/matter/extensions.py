"""Extensions of a date (LAW.md § 11): "an officer may grant a later date for a corrective
action or a remedial measure, recorded as an event (who, when, why, the new date) with a
short letter to the person it binds; the calendar, the halt and any later escalation read
the extended date." Compliance dates are extended, never shortened: an earlier or equal
date is refused.

The event is the letter itself (a document about the notice, issued in the transaction
that records it); docgen.register.matter.extended reads them back, for every reader of a
schedule."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from pathlib import Path
from typing import Any

from docgen.api import FORMATS
from docgen.documents import kind_named, the_kind
from docgen.documents.affidavit_of_service import persons_served
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.extended import extended
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.rules.rows import document_row, in_effect
from docgen.register.storage import db
from docgen.register.storage.audit import actor
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.records import Issued


def _items(doc: Document) -> tuple[str, dict[int, tuple[str, date]]]:
    """What ``doc`` schedules: ("deficiency", {item: (corrective action, date)}) for a
    notice of deficiency, ("remedy", {n: (measure, date)}) for a notice of violation."""
    if kind_named(doc.kind).halts:
        return "deficiency", {
            int(d["item"]): (d["corrective_action"], date.fromisoformat(d["due"]))
            for d in doc.case["deficiencies"]
        }
    return "remedy", {
        n: (r["measure"], date.fromisoformat(str(r["due"])))
        for n, r in enumerate(doc.case.get("remedies") or [], start=1)
        if r.get("due")
    }


def extend(
    reg: Any,
    number: str,
    item: int,
    until: date,
    *,
    granted_by: str,
    reason: str,
    on: date | None = None,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Grant ``until`` for corrective action ``item`` of the notice of deficiency ``number``
    (or remedial measure ``item`` of the notice of violation ``number``), granted by
    ``granted_by`` on ``on`` (today) for ``reason``, and issue the letter to the person it
    binds, copied to the others the notice went to."""
    who = actor(by)
    kind = the_kind(extends=True)
    with recording(reg, f"extend {number} again", "", f"the extension of {number}") as (
        session,
        held,
    ):
        doc = document_row(session, number, jurisdiction)
        pack = load_pack(doc.jurisdiction, doc.issued)
        pack.require(kind_named(kind))
        ref = pack.cite("extensions.rule")
        spec = kind_named(doc.kind)
        if not (spec.halts or spec.charges_offense):
            raise RegisterError(
                f"{number} is a {spec.title.lower()}; a date is extended on a notice of "
                "deficiency (a corrective action) or a notice of violation (a remedial measure)"
            )
        current = in_effect(session, doc)
        if current is not None:
            raise RegisterError(
                f"{number} was corrected by {current}: extend the date on {current}"
            )
        of, scheduled = _items(doc)
        word = "deficiency" if of == "deficiency" else "remedial measure"
        if item not in scheduled:
            listed = ", ".join(map(str, scheduled)) or "none"
            message = f"{item}: {number} has no {word} {item} with a date ({listed})"
            raise Refused([Problem("item", message, ref)])
        what, original = scheduled[item]
        was = extended(session, [doc.id]).get(doc.id, {}).get((of, item), original)
        today = municipal_today(pack)
        on = on or today
        problems = []
        if until <= was:
            problems.append(
                Problem(
                    "until",
                    f"{until}: not later than the date now in force for {word} {item} of "
                    f"{number}, {long_date(was)}; a date is extended, never shortened or kept "
                    "(give a later date)",
                    ref,
                )
            )
        if on > today:
            message = f"{on}: after today ({today}); a date is granted, never ahead"
            problems.append(Problem("date", message, ref))
        if on < doc.issued:
            message = f"{on}: before {number} was issued ({doc.issued})"
            problems.append(Problem("date", message, ref))
        for field, value in (("granted_by", granted_by), ("reason", reason)):
            if not value or not value.strip():
                problems.append(Problem(field, "missing: who granted it, and why", ref))
        if problems:
            raise Refused(problems)
        people = [
            {k: v for k, v in p.items() if k in ("name", "role", "address", "entity")}
            for p in persons_served(doc.case)
        ]
        officer = doc.case.get("officer") or {}
        case = {
            "jurisdiction": doc.jurisdiction,
            "issued": on.isoformat(),
            "document": {
                "number": doc.number,
                "heading": spec.heading or spec.title,
                "issued": doc.issued.isoformat(),
            },
            "item": {
                "of": of,
                "index": item,
                "what": what,
                "was": was.isoformat(),
                "now": until.isoformat(),
            },
            "reason": reason.strip(),
            "granted_by": {
                "name": granted_by.strip(),
                "title": officer.get("title") or (pack.officer.value if pack.officer else None),
            },
            "recipient": people[0],
            "copies_to": people[1:],
            "site": doc.case["site"],
        }
        request = Request(
            kind, case, f"extension of {number}, item {item}", doc.respondent_id,
            tuple(formats), out, who, force=force, about=doc.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def schedule(reg: Any, number: str, jurisdiction: str | None = None) -> list[tuple[int, str, date]]:
    """(number, corrective action or remedial measure, its date as extended) of each item
    of ``number`` that has a date: what its page offers to extend."""
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        doc = document_row(session, number, jurisdiction)
        spec = kind_named(doc.kind)
        if not (spec.halts or spec.charges_offense):
            return []
        of, items = _items(doc)
        later = extended(session, [doc.id]).get(doc.id, {})
        return [(n, what, later.get((of, n), day)) for n, (what, day) in items.items()]
