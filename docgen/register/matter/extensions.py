"""Extensions of a date (LAW.md § 11): "an officer may grant a later date for a corrective
action or a remedial measure, recorded as an event (who, when, why, the new date) with a
short letter to the person it binds; the calendar, the halt and any later escalation read
the extended date." Compliance dates are extended, never shortened: an earlier or equal
date is refused.

The event is the letter itself (a document about the notice, issued in the transaction
that records it); :func:`extended` reads them back, and :func:`as_extended` gives a
notice's case with each date as extended, for every reader of a schedule."""

from __future__ import annotations

from collections.abc import Iterable
from copy import deepcopy
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.api import FORMATS
from docgen.documents import kind_named, the_kind
from docgen.documents.affidavit_of_service import persons_served
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.rules.rows import document_row, in_effect
from docgen.register.storage import db
from docgen.register.storage.audit import actor
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.records import Issued

Dates = dict[tuple[str, int], date]  # (deficiency|remedy, its number) -> the date as extended


def extended(session: Session, ids: Iterable[int] | None = None) -> dict[int, Dates]:
    """The extended dates of each document that has any (by its id): the latest granted."""
    query = select(Document.about_id, Document.case).where(Document.kind == the_kind(extends=True))
    if ids is not None:
        query = query.where(Document.about_id.in_(list(ids)))
    out: dict[int, Dates] = {}
    for about, case in session.execute(query):
        item = case["item"]
        key, day = (item["of"], int(item["index"])), date.fromisoformat(item["now"])
        dates = out.setdefault(about, {})
        dates[key] = max(day, dates.get(key, day))
    return out


def as_extended(case: dict[str, Any], dates: Dates | None) -> dict[str, Any]:
    """``case`` with each corrective action's and remedial measure's date as extended."""
    if not dates:
        return case
    out = deepcopy(case)
    for d in out.get("deficiencies") or []:
        if ("deficiency", int(d["item"])) in dates:
            d["due"] = dates["deficiency", int(d["item"])].isoformat()
    for index, r in enumerate(out.get("remedies") or [], start=1):
        if ("remedy", index) in dates:
            r["due"] = dates["remedy", index].isoformat()
    return out


def refuse_shortened(session: Session, old: Document, case: dict[str, Any]) -> None:
    """A correction of ``old`` never states a date earlier than one granted on ``old``: a
    RegisterError naming each such date and the letter that granted it. (Compliance dates
    are extended, never shortened: a correction that went back to the date first written
    would take away, unsaid, the later date the person was told in writing.)"""
    query = select(Document.number, Document.case).where(
        Document.kind == the_kind(extends=True), Document.about_id == old.id
    )
    granted: dict[tuple[str, int], tuple[date, str]] = {}
    for letter, written in session.execute(query):
        item = written["item"]
        key, day = (item["of"], int(item["index"])), date.fromisoformat(item["now"])
        if key not in granted or day > granted[key][0]:
            granted[key] = (day, letter)
    if not granted:
        return
    typed = {("deficiency", int(d["item"])): d.get("due") for d in case.get("deficiencies") or []}
    for index, r in enumerate(case.get("remedies") or [], start=1):
        typed["remedy", index] = r.get("due")
    ref = load_pack(old.jurisdiction, old.issued).cite("extensions.rule")
    said = []
    for (of, index), (day, letter) in sorted(granted.items()):
        due = typed.get((of, index))
        if due and date.fromisoformat(str(due)) < day:
            word = "deficiency" if of == "deficiency" else "remedial measure"
            said.append(
                f"{word} {index}: {due} is before {long_date(day)}, the later date granted in "
                f"{letter}; a date is extended, never shortened: give {day} or later"
            )
    if said:
        raise RegisterError(f"a correction of {old.number}: " + "; ".join(said) + f" ({ref})")


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
        pack.require(kind)
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
