"""The dates as extended (LAW.md § 11: "the calendar, the halt and any later escalation
read the extended date"): the letters granting a later date read back (:func:`extended`),
a notice's case with each date as extended (:func:`as_extended`), and a correction that
would take a granted date back refused (:func:`refuse_shortened`). Granting one, with its
letter, is docgen.register.matter.extensions, which issues through the issuing module
that reads this one."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from copy import deepcopy
from datetime import date
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.documents import the_kind
from docgen.law.deadlines import long_date
from docgen.law.packs import load_pack
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Document

Dates = dict[tuple[str, int], date]  # (deficiency|remedy, its number) -> the date as extended


def _granted(
    session: Session, ids: Iterable[int] | None
) -> Iterator[tuple[int, str, tuple[str, int], date]]:
    """Each letter granting a later date (about which document, its number, the item,
    the date granted), for the documents ``ids`` (None: every document)."""
    query = select(Document.about_id, Document.number, Document.case).where(
        Document.kind == the_kind(extends=True)
    )
    if ids is not None:
        query = query.where(Document.about_id.in_(list(ids)))
    for about, letter, case in session.execute(query):
        item = case["item"]
        yield about, letter, (item["of"], int(item["index"])), date.fromisoformat(item["now"])


def extended(session: Session, ids: Iterable[int] | None = None) -> dict[int, Dates]:
    """The extended dates of each document that has any (by its id): the latest granted."""
    out: dict[int, Dates] = {}
    for about, _, key, day in _granted(session, ids):
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
    granted: dict[tuple[str, int], tuple[date, str]] = {}
    for _, letter, key, day in _granted(session, [old.id]):
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
