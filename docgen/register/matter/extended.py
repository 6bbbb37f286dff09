"""The dates as extended (LAW.md § 11: "the calendar, the halt and any later escalation
read the extended date"): the letters granting a later date and the decisions on appeal
that set a remedial measure's date (§ 228-79C(1)(f); LAW.md § 14: "Remedial measure 2, now
due") read back, the latest act by its date winning (:func:`extended`), a notice's case
with each date as extended (:func:`as_extended`), and a correction that would take a date
in force back refused (:func:`refuse_shortened`). Granting one, with its letter, is
docgen.register.matter.extensions, which issues through the issuing module that reads
this one; a decision is docgen.register.after_notice.appeals."""

from __future__ import annotations

from collections.abc import Iterable
from copy import deepcopy
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Act:
    """A date set by the register's act (LAW.md §§ 11, 14): a letter granting a later date
    or a decision on appeal modifying a remedial measure's date."""

    about: int  # the notice's id
    number: str  # the letter's or the decision's
    on: date  # the act's date
    order: int  # its row (acts of one day, in the order recorded)
    item: tuple[str, int]
    day: date  # the date it sets
    decides: bool  # a decision on appeal (it sets the date, earlier or later)


def _acts(session: Session, ids: Iterable[int] | None) -> list[Act]:
    """Each act setting a date of the documents ``ids`` (None: every document), in the
    order of their dates: the letters granting a later date, and the decisions on appeal
    that modified a remedial measure's date (§ 228-79C(1)(f))."""
    letter, decision = the_kind(extends=True), the_kind(appeal_step="decision")
    query = select(
        Document.about_id, Document.number, Document.issued, Document.id, Document.kind,
        Document.case,
    ).where(Document.kind.in_((letter, decision)))  # fmt: skip
    corrected = select(Document.supersedes_id).where(Document.supersedes_id.is_not(None))
    query = query.where(Document.id.not_in(corrected))  # a corrected act: its correction
    if ids is not None:
        query = query.where(Document.about_id.in_(list(ids)))
    acts = []
    for about, number, on, order, kind, case in session.execute(query):
        if kind == letter:
            item = case["item"]
            key, day = (item["of"], int(item["index"])), date.fromisoformat(item["now"])
            acts.append(Act(about, number, on, order, key, day, False))
        else:  # a decision: the remedial measures whose dates it set, if any
            for r in case.get("remedies") or []:
                key, day = ("remedy", int(r["number"])), date.fromisoformat(r["now"])
                acts.append(Act(about, number, on, order, key, day, True))
    return sorted(acts, key=lambda a: (a.on, a.order))


def _in_force(acts: list[Act]) -> dict[int, dict[tuple[str, int], Act]]:
    """The act whose date is in force for each item of each document: the latest act by
    its date wins; a decision sets its date (earlier or later), and letters after it
    extend it again (a letter only ever later than the date it extends)."""
    out: dict[int, dict[tuple[str, int], Act]] = {}
    for act in acts:
        dates = out.setdefault(act.about, {})
        was = dates.get(act.item)
        if act.decides or was is None or act.day > was.day:
            dates[act.item] = act
    return out


def extended(session: Session, ids: Iterable[int] | None = None) -> dict[int, Dates]:
    """The dates in force of each document that has any (by its id): as extended by the
    letters granting a later date and as set by a decision on appeal, the latest act by
    its date winning."""
    return {
        about: {key: act.day for key, act in acts.items()}
        for about, acts in _in_force(_acts(session, ids)).items()
    }


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
    """A correction of ``old`` never states a date earlier than the one in force on ``old``
    (granted by a letter, or decided on appeal): a RegisterError naming each such date and
    the letter or decision that set it. (Compliance dates are extended, never shortened: a
    correction that went back to the date first written would take away, unsaid, the date
    the person was told in writing.)"""
    granted = _in_force(_acts(session, [old.id])).get(old.id, {})
    if not granted:
        return
    typed = {("deficiency", int(d["item"])): d.get("due") for d in case.get("deficiencies") or []}
    for index, r in enumerate(case.get("remedies") or [], start=1):
        typed["remedy", index] = r.get("due")
    ref = load_pack(old.jurisdiction, old.issued).cite("extensions.rule")
    said = []
    for (of, index), act in sorted(granted.items()):
        due, day = typed.get((of, index)), act.day
        if due and date.fromisoformat(str(due)) < day:
            word = "deficiency" if of == "deficiency" else "remedial measure"
            how = "the date decided on appeal in" if act.decides else "the later date granted in"
            said.append(
                f"{word} {index}: {due} is before {long_date(day)}, {how} {act.number}; a "
                f"date is extended, never shortened: give {day} or later"
            )
    if said:
        raise RegisterError(f"a correction of {old.number}: " + "; ".join(said) + f" ({ref})")
