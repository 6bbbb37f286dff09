"""Inspections in the register (§ 228-79A(1); LAW.md § 11): the notice of deficiency made
from an inspection report, the approval of corrected work made from a reinspection, and the
halt of § 228-79A(1) per site, all derived from the issued documents and their service.

An inspection is recorded as its report (an issued document: numbered, frozen, its case
kept exactly as written); the notice and the approval are documents made from the cases
the register already holds, so nothing is typed twice. What is open is derived, never
kept: a deficiency of a served notice is open until an approval names it corrected.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session, lazyload

from docgen.documents import a_title, kind_named, kinds_with, titles_or
from docgen.documents import approval_of_corrected_work as approval
from docgen.documents import inspection_report as report
from docgen.documents import notice_of_deficiency as notice
from docgen.errors import Problem
from docgen.faults import pause
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import PackReader, load_pack
from docgen.register.matter.answers import after_service
from docgen.register.matter.asked import Issue, Issuer
from docgen.register.matter.extended import as_extended, extended
from docgen.register.rules.numbering import normalize
from docgen.register.rules.rows import document_row, in_effect, lifting
from docgen.register.storage import db, standing
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import Refused, RegisterError, guarded
from docgen.register.storage.models import Document, ReinspectionRequest
from docgen.register.storage.opened import Opened
from docgen.register.storage.records import Issued

INSPECTION, NOTICE, APPROVAL = report.KIND.name, notice.KIND.name, approval.KIND.name
# Documents read for their case and service alone (the calendar, the halts): without their
# files and respondent, which each row would otherwise load (loaded only if asked for)
BARE = (lazyload(Document.files), lazyload(Document.respondent))


def _row(session: Session, number: str, kind: str, jurisdiction: str | None) -> Document:
    doc = document_row(session, number, jurisdiction)
    if doc.kind != kind:
        raise RegisterError(f"{doc.number} is {a_title(doc.kind)}, not {a_title(kind)}")
    return doc


def _halting(session: Session, number: str, jurisdiction: str | None) -> Document:
    """The notice ``number``, a kind whose service halts work pending correction
    (§ 228-79A(1): its description's ``halts``); any other document is refused."""
    doc = document_row(session, number, jurisdiction)
    kind = kind_named(doc.kind)
    if not kind.halts:
        cited = load_pack(doc.jurisdiction).require(kind_named(NOTICE))
        raise RegisterError(
            f"{doc.number} ({kind.title.lower()}) is not a notice whose service halts work "
            f"until its deficiencies are corrected ({cited})"
        )
    return doc


def _about(session: Session, kind: str, key: str, number: str) -> list[Document]:
    """Documents of ``kind`` whose case names ``number`` under ``key`` (a notice's
    inspection, an approval's notice), oldest first."""
    rows = session.scalars(select(Document).where(Document.kind == kind).order_by(Document.id))
    return [d for d in rows if (d.case.get(key) or {}).get("number") == number]


def served_on(doc: Document, packs: Callable[..., Pack] = load_pack) -> date | None:
    """The day service of the notice was complete, as the register keeps it
    (docgen.register.storage.standing): the halt runs from service (LAW.md § 11), and a notice is
    served and proved like a notice of violation, so never a mailing's raw date. ``packs``:
    where its pack comes from (a PackReader over many notices)."""
    return standing.served_on(doc, packs(doc.jurisdiction, doc.issued))


def approvals(session: Session) -> dict[str, list[Document]]:
    """Every approval of corrected work, by the number of the notice it approves (read
    once for a whole calendar, not once per notice)."""
    found: dict[str, list[Document]] = {}
    rows = session.scalars(
        select(Document).where(Document.kind == APPROVAL).order_by(Document.id).options(*BARE)
    )
    for row in rows:
        found.setdefault(row.case["notice"]["number"], []).append(row)
    return found


class Noticed(Protocol):
    """A notice of deficiency as its open deficiencies are read: its number and its case
    (a Document, or the calendar's plain row)."""

    @property
    def number(self) -> str: ...
    @property
    def case(self) -> dict[str, Any]: ...


def open_deficiencies(
    session: Session, doc: Noticed, approved: dict[str, list[Document]] | None = None
) -> set[int]:
    """The numbers of the notice's deficiencies no approval has named corrected."""
    numbers = {d["item"] for d in doc.case["deficiencies"]}
    done = (approved if approved is not None else approvals(session)).get(doc.number, [])
    for approval_doc in done:
        numbers -= {d["item"] for d in approval_doc.case["corrected"]}
    return numbers


def reinspections(session: Session, doc: Document) -> list[tuple[str, dict[str, Any]]]:
    """The reinspections of notice ``doc`` in the register (reports whose reinspects names
    it, none superseded), each its number and case, oldest first: what an escalation may
    say was observed after the notice (LAW.md § 11)."""
    rows = session.scalars(
        select(Document)
        .where(Document.kind == INSPECTION, Document.jurisdiction == doc.jurisdiction)
        .order_by(Document.id)
        .options(*BARE)
    )
    return [
        (row.number, row.case)
        for row in rows
        if normalize((row.case.get("reinspects") or {}).get("notice") or "") == doc.number
        and in_effect(session, row) is None
    ]


def record_inspection_case(
    reg: Issuer, case: Path, asked: Issue | None = None, **issue: Any
) -> Issued:
    """Record the inspection CASE describes: its report issued into the register (its
    photos read from the case file's folder, docgen.documents.exhibits), as ``asked`` (a
    correction names what it supersedes)."""
    return reg.issue(INSPECTION, case, asked, **issue)


def notify_deficiency(
    reg: Issuer,
    inspection: str,
    on: date | None = None,
    *,
    jurisdiction: str | None = None,
    **issue: Any,
) -> Issued:
    """Issue the notice of deficiency of inspection report ``inspection`` (its deficiencies,
    persons, site and officer as recorded), dated ``on`` (default: today in the
    municipality). An inspection already notified is refused, naming the notice."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        doc = _row(session, inspection, INSPECTION, jurisdiction)
        earlier = _about(session, NOTICE, "inspection", doc.number)
        if earlier:
            raise RegisterError(
                f"{doc.number} was notified already by Notice of Deficiency No. "
                f"{earlier[0].number}; its deficiencies are not notified twice"
            )
        pack = load_pack(doc.jurisdiction)
        data = notice.from_inspection(doc.case, doc.number, on or municipal_today(pack), pack)
    return reg.issue(NOTICE, data, **issue)


def approve_work(
    reg: Issuer,
    notice_number: str,
    reinspection: str,
    on: date,
    *,
    jurisdiction: str | None = None,
    **issue: Any,
) -> Issued:
    """Issue the approval of the corrective work of ``notice_number`` found on
    ``reinspection`` (an inspection report that reinspects that notice), dated ``on``.
    Refused: dated after today in the municipality, before the notice was served, or for
    a notice with nothing open."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        doc = _halting(session, notice_number, jurisdiction)
        again = _row(session, reinspection, INSPECTION, doc.jurisdiction)
        pack = load_pack(doc.jurisdiction)
        why = pack.cite("inspection.approval")
        today = municipal_today(pack)
        dated = []  # what is wrong with the date given: refused together, naming it
        if on > today:
            dated.append(
                f"{on}: after today ({today} in the {pack.name.value}); an approval is dated on "
                "or before the day it is recorded"
            )
        served = served_on(doc)
        if served is None:
            raise RegisterError(
                f"{doc.number} has no recorded service: the halt runs from service, and work "
                f"is approved after it; record the service first ({why})"
            )
        if on < served:
            dated.append(
                f"{on}: before {doc.number} was served ({served}); an approval is dated after "
                "service of the notice"
            )
        still_open = open_deficiencies(session, doc)
        if not still_open:
            raise RegisterError(
                f"{doc.number} has no deficiency open: each was approved already ({why})"
            )
        reinspects = (again.case.get("reinspects") or {}).get("notice")
        if reinspects is None or normalize(reinspects) != doc.number:
            raise RegisterError(
                f"{again.number} is not a reinspection of {doc.number} (its reinspects names "
                f"{reinspects or 'no notice'}); record the reinspection with reinspects: "
                f"{{notice: {doc.number}}}"
            )
        seen = date.fromisoformat(str(again.case["inspected"]))
        if on < seen:
            dated.append(
                f"{on}: before the reinspection {again.number} ({seen}); an approval is dated "
                "on or after the reinspection that found the work corrected"
            )
        if dated:
            raise Refused([Problem("date", message, why) for message in dated])
        orders = orders_standing(session, doc.site_id, on)  # work resumes when each is lifted
        data = approval.from_reinspection(
            doc.case, doc.number, served, still_open, again.case, again.number, on, pack, orders
        )
    return reg.issue(APPROVAL, data, **issue)


def approve_reinspected(
    reg: Issuer,
    reinspection: str,
    on: date | None = None,
    jurisdiction: str | None = None,
    **issue: Any,
) -> Issued:
    """Issue the approval of the work found on ``reinspection`` (an inspection report that
    reinspects a notice of deficiency), of the notice it names, dated ``on`` (default:
    today in the municipality): approve_work, nothing typed."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        again = _row(session, reinspection, INSPECTION, jurisdiction)
        reinspects = (again.case.get("reinspects") or {}).get("notice")
        pack = load_pack(again.jurisdiction)
        if not reinspects:
            raise RegisterError(
                f"{again.number} reinspects no notice of deficiency: work is approved from a "
                f"reinspection of the notice ({pack.cite('inspection.approval')})"
            )
        on = on or municipal_today(pack)
    return approve_work(reg, reinspects, again.number, on, jurisdiction=again.jurisdiction, **issue)


def make(reg: Issuer, kind: str, number: str, on: date | None = None, **issue: Any) -> Issued:
    """Issue the document of ``kind`` the register makes from issued document ``number``
    (its kind's ``made_from``), dated ``on`` (default: today in the municipality)."""
    return MADE[kind](reg, number, on, **issue)


# kind -> how the register makes it from a document
MADE: dict[str, Callable[..., Issued]] = {
    NOTICE: notify_deficiency,
    APPROVAL: approve_reinspected,
}


# How the register fills a draft: (the register, the document's number, its jurisdiction)
Starter = Callable[[Opened, str, str | None], dict[str, Any]]


def reinspection_of(
    reg: Opened, notice_number: str, jurisdiction: str | None = None
) -> dict[str, Any]:
    """The case a reinspection of ``notice_number`` (of ``jurisdiction``) starts with: its
    site, persons and number, each deficiency still open a finding to re-check
    (inspection_report.from_notice)."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        doc = _halting(session, notice_number, jurisdiction)
        return report.from_notice(doc.case, doc.number, open_deficiencies(session, doc))


def escalation_of(kind: str) -> Starter:
    """How a draft of ``kind`` (a notice of violation or a stop-work order) starts from a
    notice of deficiency (issue 32 item 4; § 228-79A(1)): dated today in the municipality,
    to the landowner, each deficiency open past its date a violation naming the notice and
    the inspection (notice_of_deficiency.escalated, as `docgen escalate` issues it). The
    remedies' dates are left for the officer to set (the command line's --due)."""

    def started(reg: Opened, notice_number: str, jurisdiction: str | None = None) -> dict[str, Any]:
        with guarded(reg.url), db.read_session(reg.engine) as session:
            doc = _halting(session, notice_number, jurisdiction)
            pack = load_pack(doc.jurisdiction)
            today = municipal_today(pack)
            after_service(doc, today, f"a {kind_named(kind).title.lower()}", "it is dated")
            still_open = open_deficiencies(session, doc)
            data = notice.escalated(
                doc.case,
                doc.number,
                still_open,
                kind_named(kind),
                today,
                today,
                pack,
                reinspections(session, doc),
                asking=True,  # what the notice lacks is asked for in the draft
            )
        for remedy in data.get("remedies", []):
            remedy["due"] = ""  # the officer's to set: no date chosen for them
        return data

    return started


def started_by_register(kind_from: str, kind: str) -> Starter | None:
    """How the register fills the draft of ``kind`` started from a document of
    ``kind_from``: a reinspection of a notice's open items, or its escalation; None when
    the draft is filled from the document's fields instead. (A function, not a table made
    at import: finding the escalations loads every kind, which a process that only opens
    the register never needs.)"""
    if (kind_from, kind) == (NOTICE, INSPECTION):
        return reinspection_of
    if asks_at_once(kind_from, kind):
        return escalation_of(kind)
    return None


def asks_at_once(kind_from: str, kind: str) -> bool:
    """The draft is a notice of deficiency's escalation, and asks at once for what the
    register could not fill (every problem shown, focus on the first): the landowner,
    provisions and remedies' dates."""
    return kind_from == NOTICE and kind in notice.escalation_kinds()


@dataclass(frozen=True)
class Halt:
    """The § 228-79A(1) halt at one site, from one notice of deficiency."""

    site: str
    notice: str
    served: date | None  # None: not served yet, so not in effect
    open: tuple[int, ...]  # deficiencies still open
    approvals: tuple[str, ...]  # approvals issued on the notice, oldest first
    earliest_due: date | None  # the earliest corrective date still open

    @property
    def status(self) -> str:
        if self.served is None:
            return "not in effect: the notice is not served"
        if self.open:
            return (
                f"in effect since {self.served}: deficiencies {', '.join(map(str, self.open))} open"
            )
        return f"lifted by {self.approvals[-1]}: every deficiency approved"


def halts(reg: Opened, site: str | None = None) -> list[Halt]:
    """Per notice of deficiency, its site and whether the halt is in effect or lifted."""
    with guarded(reg.url), db.read_session(reg.engine) as session:
        rows = session.scalars(
            select(Document)
            .where(Document.kind.in_(kinds_with(halts=True)))  # § 228-79A(1)
            .order_by(Document.id)
            .options(*BARE)
        )
        approved, packs = approvals(session), PackReader()
        return [h for h in (halt_of(session, d, approved, packs) for d in rows) if _at(h, site)]


def halt_of(
    session: Session,
    doc: Document,
    approved: dict[str, list[Document]] | None = None,
    packs: Callable[..., Pack] = load_pack,
) -> Halt:
    approved = approved if approved is not None else approvals(session)
    still = open_deficiencies(session, doc, approved)

    case = as_extended(doc.case, extended(session, [doc.id]).get(doc.id))  # LAW.md § 11
    dues = [date.fromisoformat(d["due"]) for d in case["deficiencies"] if d["item"] in still]
    return Halt(
        site=site_label(doc.case["site"]),
        notice=doc.number,
        served=served_on(doc, packs),
        open=tuple(sorted(still)),
        approvals=tuple(a.number for a in approved.get(doc.number, [])),
        earliest_due=min(dues, default=None),
    )


def _current_at(session: Session, site_id: int | None, kinds: Iterable[str]) -> list[Document]:
    """The documents of ``kinds`` at the site ``site_id`` that no correction superseded."""
    if site_id is None:
        return []
    rows = session.scalars(
        select(Document)
        .where(Document.site_id == site_id, Document.kind.in_(list(kinds)))
        .order_by(Document.id)
        .options(*BARE)
    )
    return [doc for doc in rows if in_effect(session, doc) is None]


def halts_standing(session: Session, site_id: int | None, on: date) -> list[dict[str, Any]]:
    """The notices of deficiency at the site ``site_id`` whose halt stands on ``on``
    (§ 228-79A(1)): served by then, not superseded, a deficiency still open. Each as the
    documents that name it print it: number, service date, the deficiencies open."""
    approved, standing_ = approvals(session), []
    for doc in _current_at(session, site_id, kinds_with(halts=True)):
        halt = halt_of(session, doc, approved)
        if halt.served is not None and halt.served <= on and halt.open:
            standing_.append(
                {"number": doc.number, "served": halt.served.isoformat(), "open": list(halt.open)}
            )
    return standing_


def orders_standing(session: Session, site_id: int | None, on: date) -> list[dict[str, Any]]:
    """The orders at the site ``site_id`` in effect on ``on`` (§ 228-79C(2): from service
    until lifted in writing): served by then, not superseded, not lifted as of that day."""
    found = []
    for doc in _current_at(session, site_id, kinds_with(liftable=True)):
        served = served_on(doc)
        lifted = lifting(session, doc)
        if served is not None and served <= on and (lifted is None or lifted[1] > on):
            found.append({"number": doc.number, "served": served.isoformat()})
    return found


def _at(halt: Halt, site: str | None) -> bool:
    return site is None or " ".join(site.split()).casefold() in halt.site.casefold()


def site_label(site: dict[str, Any]) -> str:
    address = site.get("address")
    parts: Iterable[str] = (
        f"{address['street']}, {address['city']}, {address['state']} {address['zip']}"
        if address
        else "",
        site.get("description") or "",
    )
    return "; ".join(p for p in parts if p)


def ask_reinspection(
    reg: Opened,
    notice_number: str,
    on: date,
    asked_by: str,
    *,
    by: str | None = None,
    jurisdiction: str | None = None,
) -> None:
    """Record that ``asked_by`` asked on ``on`` for the reinspection of ``notice_number``'s
    corrective work (the calendar shows it until a reinspection of it is recorded)."""
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        doc = _halting(session, notice_number, jurisdiction)
        pack = load_pack(doc.jurisdiction)
        why = pack.cite("inspection.reinspection")
        if on > municipal_today(pack) or on < doc.issued:
            raise RegisterError(
                f"--date {on}: a reinspection is asked for on or after the notice's issue date "
                f"({doc.issued}) and on or before today ({why})"
            )
        if not open_deficiencies(session, doc):
            raise RegisterError(
                f"{doc.number} has no deficiency open: nothing to reinspect ({why})"
            )
        earlier = asked_already(session, doc, on, " ".join(asked_by.split()))
        if earlier is not None:
            raise RegisterError(
                f"{doc.number}: a reinspection was asked for already, on {earlier.asked_on} by "
                f"{earlier.asked_by} (recorded by {earlier.recorded_by} on "
                f"{earlier.recorded_at:%Y-%m-%d}), and the calendar shows it until the "
                f"reinspection is recorded; a request is recorded once ({why})"
            )
        asked = ReinspectionRequest(
            document_id=doc.id,
            asked_on=on,
            asked_by=" ".join(asked_by.split()),
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        session.add(asked)
        session.flush()
        record(session, who, "reinspection-asked", "document", doc.id, {"on": on.isoformat()})
        pause("reinspection-recorded")


def asked_already(
    session: Session, doc: Document, on: date, asked_by: str
) -> ReinspectionRequest | None:
    """The request for a reinspection of notice ``doc`` that a new one (``asked_by`` on
    ``on``) would repeat: the same one (its day and who asked, spacing and case aside), or
    one not yet answered by a reinspection of the notice recorded on or after its day.
    Write transactions take turns (docgen.register.storage.db), so two entered at once are one."""
    made = [date.fromisoformat(str(case["issued"])) for _, case in reinspections(session, doc)]
    rows = session.scalars(
        select(ReinspectionRequest)
        .where(ReinspectionRequest.document_id == doc.id)
        .order_by(ReinspectionRequest.id)
    )
    for asked in rows:
        same = asked.asked_on == on and asked.asked_by.casefold() == asked_by.casefold()
        if same or not any(day >= asked.asked_on for day in made):
            return asked
    return None


def escalate(
    reg: Issuer,
    notice_number: str,
    kind: str,
    on: date,
    due: date,
    *,
    jurisdiction: str | None = None,
    **issue: Any,
) -> Issued:
    """Issue a ``kind`` (a notice of violation or a stop-work order) from the deficiencies
    of ``notice_number`` still open past their dates on ``on``: to the landowner, each
    deficiency a violation naming the notice and the inspection it came from, not corrected
    by the day of the latest reinspection that found it so (named; refused when none did,
    LAW.md § 11), its corrective action the remedy due ``due``; its penalty reads the
    register's history and the weeks the reinspections saw it continue."""
    choices = notice.escalation_kinds()
    if kind not in choices:
        raise RegisterError(
            f"--to {kind!r}: a notice of deficiency escalates to {titles_or(choices)} (--to "
            f"{' or '.join(map(repr, choices))})"
        )
    with guarded(reg.url), db.read_session(reg.engine) as session:
        doc = _halting(session, notice_number, jurisdiction)
        what = f"a {kind_named(kind).title.lower()} escalated from it"
        after_service(doc, on, what, "it is dated")
        pack = load_pack(doc.jurisdiction)
        still_open = open_deficiencies(session, doc)

        data = notice.escalated(
            as_extended(doc.case, extended(session, [doc.id]).get(doc.id)),  # LAW.md § 11
            doc.number,
            still_open,
            kind_named(kind),
            on,
            due,
            pack,
            reinspections(session, doc),
        )
    return reg.issue(kind, data, **issue)
