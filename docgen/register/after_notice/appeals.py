"""Appeals of a notice of violation (§ 228-79C(1)(f); LAW.md § 14), as register events,
each issued with its document in one transaction:

- **received**: the written notice of appeal (the day received, who received it, who filed
  it), on time or late counted from the service the register holds on the landowner
  (docgen.register.storage.standing, never the issue date; docgen.law.deadlines.appeal_deadline
  with its weekend and holiday rule), and its acknowledgment. A notice with no service on
  the landowner that stands is refused: its appeal period has not started, so nobody can
  say whether the appeal is on time; the clerk records the service first (the clerk's
  question is "was it on time?", and only the register's service answers it);
- **hearing**: the notice of the hearing (date, time, place, before the board or officer
  the pack names: the municipality's choice, the article names none);
- **decision**: affirmed, modified or reversed, with reasons, on or after the hearing's
  day; a modified decision may set a remedial measure's date ("Remedial measure 2, now
  due"), read wherever the dates as extended are (the latest act by its date winning).
  A reversed notice is no conviction and counts for no penalty (LAW.md § 4):
  ``history.reversed_notices`` is what the offense history and the calendar leave out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.api import FORMATS
from docgen.documents import get_kind, kinds_with, the_kind
from docgen.documents.affidavit_of_service import persons_served
from docgen.documents.appeal_acknowledgment import Timing, timing
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack
from docgen.register.matter.extended import as_extended, extended
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.rules.rows import document_row, in_effect
from docgen.register.storage import db
from docgen.register.storage.audit import actor
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Document
from docgen.register.storage.records import Issued
from docgen.register.storage.standing import kept_deadline, persons

OUTCOMES = ("affirmed", "modified", "reversed")


@dataclass(frozen=True)
class Appeal:
    """The appeal of one notice as the register holds it: its documents by step."""

    notice_id: int
    received: Document | None
    hearings: tuple[Document, ...]  # oldest first: the last one is the hearing set
    decision: Document | None

    @property
    def pending(self) -> bool:
        return self.received is not None and self.decision is None

    def timing(self) -> Timing:
        """On time or late, computed again from what the acknowledgment states."""
        assert self.received is not None
        return timing_of(self.received.case)

    @property
    def outcome(self) -> str | None:
        return self.decision.case["outcome"] if self.decision is not None else None


def timing_of(case: dict[str, Any]) -> Timing:
    """On time or late, from an acknowledgment's stored case (never a stored verdict)."""
    kept = case["appeal"].get("kept_last_day")
    return timing(
        date.fromisoformat(case["notice"]["served"]),
        date.fromisoformat(case["appeal"]["received"]),
        date.fromisoformat(kept) if kept else None,
        load_pack(case["jurisdiction"], date.fromisoformat(case["issued"])),
    )


def appeals(session: Session, ids: Iterable[int] | None = None) -> dict[int, Appeal]:
    """The appeal of each notice that has one (by the notice's id), read from the
    documents of its steps."""
    steps = {kinds_with(appeal_step=s)[0]: s for s in ("received", "hearing", "decision")}
    query = select(Document).where(Document.kind.in_(steps)).order_by(Document.id)
    if ids is not None:
        query = query.where(Document.about_id.in_(list(ids)))
    found: dict[int, dict[str, list[Document]]] = {}
    for doc in session.scalars(query):
        if doc.about_id is not None:
            found.setdefault(doc.about_id, {}).setdefault(steps[doc.kind], []).append(doc)
    return {
        notice: Appeal(
            notice,
            next(iter(by.get("received", ())), None),
            tuple(by.get("hearing", ())),
            next(iter(by.get("decision", ())), None),
        )
        for notice, by in found.items()
    }


def _notice(
    session: Session, number: str, jurisdiction: str | None, step: str
) -> tuple[Document, Pack]:
    """The notice of violation ``number`` in effect, and its pack; refused otherwise (a law
    with no appeal provision refuses the document of ``step``, naming it)."""
    doc = document_row(session, number, jurisdiction)
    pack = load_pack(doc.jurisdiction, doc.issued)
    (kind,) = kinds_with(appeal_step=step)
    pack.require(get_kind(kind))
    if not get_kind(doc.kind).appealable:
        raise RegisterError(
            f"{number} is {get_kind(doc.kind).a_title}; only a notice of violation "
            f"is appealed ({pack.cite('enforcement.appeal_days')})"
        )
    current = in_effect(session, doc)
    if current is not None:
        raise RegisterError(
            f"{number} was corrected by {current}, which is the notice in effect: record the "
            f"appeal on {current}"
        )
    return doc, pack


def _today_problems(pack: Pack, field: str, day: date, what: str) -> list[Problem]:
    today = municipal_today(pack)
    if day > today:
        return [
            Problem(
                field,
                f"{day}: after today ({today} in the {pack.name.value}); {what} is recorded "
                "once it happened, never ahead",
                pack.cite("enforcement.appeal_days"),
            )
        ]
    return []


def _appellant(doc: Document, filed_by: str | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The person the notice named who filed the appeal (the landowner when not said), and
    the others the notice named."""
    people = persons_served(doc.case)
    if filed_by is None or not filed_by.strip():
        return people[0], people[1:]
    wanted = " ".join(filed_by.split()).casefold()
    for i, person in enumerate(people):
        if " ".join(person["name"].split()).casefold() == wanted:
            return person, people[:i] + people[i + 1 :]
    names = "; ".join(f"{p['name']} ({p['role']})" for p in people)
    raise Refused(
        [
            Problem(
                "filed_by",
                f"{filed_by!r} is not a person Notice of Violation No. {doc.number} names "
                f"({names}); name the one who filed it (an attorney files for a client: name "
                "the client)",
            )
        ]
    )


def _party(person: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in person.items() if k in ("name", "role", "address", "entity")}


def record_appeal(
    reg: Any,
    number: str,
    received: date,
    *,
    received_by: str,
    filed_by: str | None = None,
    on: date | None = None,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Record the written notice of appeal of ``number`` received on ``received`` by
    ``received_by`` (filed by ``filed_by``: a person the notice names, the landowner when
    not said) and issue its acknowledgment, dated ``on`` (today when not said)."""
    who = actor(by)
    kind = the_kind(appeal_step="received")
    again = f"appeal record {number} again"
    safe = "an appeal already recorded is refused, never recorded twice"
    with recording(reg, again, safe, f"the appeal of {number}") as (session, held):
        doc, pack = _notice(session, number, jurisdiction, "received")
        f = pack.cite("enforcement.appeal_days")
        today = municipal_today(pack)
        on = on or today
        already = appeals(session, [doc.id]).get(doc.id)
        if already is not None and already.received is not None:
            raise RegisterError(
                f"an appeal of {number} was already recorded: Acknowledgment No. "
                f"{already.received.number}, received {already.received.case['appeal']['received']}"
            )
        problems = _today_problems(pack, "received", received, "a notice of appeal")
        problems += _today_problems(pack, "date", on, "an acknowledgment")
        if received < doc.issued:
            problems.append(
                Problem(
                    "received",
                    f"{received}: before {number} was issued ({doc.issued}); an appeal is "
                    "received after the notice it appeals",
                    f,
                )
            )
        if on < received:
            problems.append(
                Problem("date", f"{on}: before the notice of appeal was received ({received})", f)
            )
        if not received_by or not received_by.strip():
            problems.append(
                Problem("received_by", "missing: who received it for the municipality", f)
            )
        people = persons(doc, pack)
        served = people[0].complete if people else None
        if served is None:
            problems.append(
                Problem(
                    "",
                    f"{number} has no service on the landowner ({people[0].name}) that stands in "
                    "the register: the 15 days to appeal run from service, so whether this appeal "
                    "is on time cannot be counted. Record the service first (docgen "
                    "record-service), then the appeal with the day it was received",
                    f,
                )
            )
        appellant, others = _appellant(doc, filed_by)
        if problems:
            raise Refused(problems)
        assert served is not None
        landowner = [e for e in doc.services if e.served_on in (None, people[0].name)]
        kept = kept_deadline(landowner)
        when = timing(served, received, kept, pack)
        case = {
            "jurisdiction": doc.jurisdiction,
            "issued": on.isoformat(),
            "notice": {
                "number": doc.number,
                "issued": doc.issued.isoformat(),
                "served": served.isoformat(),
            },
            "appeal": {
                "received": received.isoformat(),
                "received_by": received_by.strip(),
                "filed_by": appellant["name"],
                **(
                    {"kept_last_day": when.last_day.isoformat()}
                    if when.last_day != when.deadline.last_day
                    else {}
                ),
            },
            "recipient": _party(appellant),
            "copies_to": [_party(p) for p in others],
            "site": doc.case["site"],
            "signed_by": {
                "name": received_by.strip(),
                "title": pack.part("enforcement").appeal_office.value,
            },
        }
        request = Request(
            kind, case, f"appeal of {number}", doc.respondent_id, tuple(formats), out, who,
            force=force, about=doc.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def _pending(
    session: Session, number: str, jurisdiction: str | None, step: str
) -> tuple[Document, Pack, Appeal]:
    doc, pack = _notice(session, number, jurisdiction, step)
    found = appeals(session, [doc.id]).get(doc.id)
    if found is None or found.received is None:
        raise RegisterError(
            f"no appeal of {number} is recorded: record the notice of appeal first "
            f"(docgen appeal record {number} --received DATE --received-by NAME)"
        )
    if found.decision is not None:
        raise RegisterError(
            f"the appeal of {number} was decided ({found.decision.number}, "
            f"{found.decision.case['outcome']} on {found.decision.issued})"
        )
    return doc, pack, found


def _filed(found: Appeal) -> dict[str, Any]:
    ack = found.received
    assert ack is not None
    return {
        "acknowledgment": ack.number,
        "received": ack.case["appeal"]["received"],
        "filed_by": ack.case["appeal"]["filed_by"],
    }


def schedule_hearing(
    reg: Any,
    number: str,
    day: date,
    time: str,
    *,
    place: str | None = None,
    signed_by: str | None = None,
    on: date | None = None,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Issue the notice of the hearing of the appeal of ``number`` on ``day`` at ``time``
    (``place``: the pack's when not said), dated ``on`` (today when not said); a new one
    replaces the hearing set before, while the appeal is undecided."""
    who = actor(by)
    kind = the_kind(appeal_step="hearing")
    with recording(reg, f"appeal hearing {number} again", "", f"the hearing of {number}") as (
        session,
        held,
    ):
        doc, pack, found = _pending(session, number, jurisdiction, "hearing")
        assert found.received is not None
        h = pack.cite("appeals.heard_by")
        on = on or municipal_today(pack)
        problems = _today_problems(pack, "date", on, "a notice of hearing")
        received = date.fromisoformat(found.received.case["appeal"]["received"])
        if on < received:
            problems.append(
                Problem("date", f"{on}: before the notice of appeal was received ({received})", h)
            )
        if day < on:
            problems.append(
                Problem("hearing", f"{day}: before the notice of the hearing ({on})", h)
            )
        if not time or not time.strip():
            problems.append(Problem("time", "missing: the time the hearing begins", h))
        if problems:
            raise Refused(problems)
        ack = found.received.case
        case = {
            "jurisdiction": doc.jurisdiction,
            "issued": on.isoformat(),
            "notice": {"number": doc.number, "issued": doc.issued.isoformat()},
            "appeal": _filed(found),
            "hearing": {
                "date": day.isoformat(),
                "time": time.strip(),
                "place": (place or "").strip() or pack.part("appeals").place.value,
            },
            "recipient": ack["recipient"],
            "copies_to": ack.get("copies_to") or [],
            "site": ack["site"],
            "signed_by": {
                "name": (signed_by or "").strip() or ack["signed_by"]["name"],
                "title": pack.part("enforcement").appeal_office.value,
            },
        }
        request = Request(
            kind, case, f"hearing of the appeal of {number}", doc.respondent_id, tuple(formats),
            out, who, force=force, about=doc.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def decide_appeal(
    reg: Any,
    number: str,
    outcome: str,
    reasons: list[str],
    *,
    on: date,
    signed_by: str,
    title: str,
    modification: str | None = None,
    remedies: Mapping[int, date] | None = None,
    by: str | None = None,
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
    jurisdiction: str | None = None,
) -> Issued:
    """Record the decision on the appeal of ``number`` (affirmed, modified or reversed, with
    ``reasons``) made on ``on``, on or after the day of the hearing set, and issue it. A
    modified decision may set a new date for remedial measures of the notice (``remedies``:
    the measure's number -> its date, on or after the decision's): the register reads it
    wherever it reads the dates as extended (docgen.register.matter.extended)."""
    who = actor(by)
    kind = the_kind(appeal_step="decision")
    with recording(reg, f"appeal decide {number} again", "", f"the decision on {number}") as (
        session,
        held,
    ):
        doc, pack, found = _pending(session, number, jurisdiction, "decision")
        assert found.received is not None
        h = pack.cite("appeals.heard_by")
        problems = _today_problems(pack, "date", on, "a decision")
        if outcome not in OUTCOMES:
            problems.append(
                Problem("outcome", f"{outcome!r}: choose one of {', '.join(OUTCOMES)}", h)
            )
        reasons = [r.strip() for r in reasons if r and r.strip()]
        if not reasons:
            problems.append(Problem("reason", "missing: a decision gives its reasons", h))
        if outcome == "modified" and not (modification or "").strip():
            problems.append(Problem("modification", "missing: say how it is modified", h))
        if outcome != "modified" and (modification or "").strip():
            problems.append(
                Problem("modification", f"given, but the determination is {outcome}", h)
            )
        for field, value in (("signed_by", signed_by), ("title", title)):
            if not value or not value.strip():
                problems.append(Problem(field, "missing: who signs the decision", h))
        decided, wrong = _decided_remedies(session, doc, outcome, on, remedies or {})
        problems += wrong
        if not found.hearings:
            problems.append(
                Problem(
                    "",
                    f"no hearing of the appeal of {number} is recorded: give the notice of the "
                    f"hearing first (docgen appeal hearing {number} --date DATE --time TIME)",
                    h,
                )
            )
        else:
            heard = found.hearings[-1]
            day = date.fromisoformat(heard.case["hearing"]["date"])
            if on < day:
                problems.append(
                    Problem(
                        "date",
                        f"{on}: before the hearing on {long_date(day)} ({heard.number}); an "
                        "appeal is decided once heard",
                        h,
                    )
                )
        if problems:
            raise Refused(problems)
        heard = found.hearings[-1]
        ack = found.received.case
        case = {
            "jurisdiction": doc.jurisdiction,
            "issued": on.isoformat(),
            "notice": {"number": doc.number, "issued": doc.issued.isoformat()},
            "appeal": _filed(found),
            "hearing": {"number": heard.number, "date": heard.case["hearing"]["date"]},
            "outcome": outcome,
            **({"modification": modification.strip()} if modification else {}),
            **({"remedies": decided} if decided else {}),
            "reasons": reasons,
            "recipient": ack["recipient"],
            "copies_to": ack.get("copies_to") or [],
            "site": ack["site"],
            "signed_by": {"name": signed_by.strip(), "title": title.strip()},
        }
        request = Request(
            kind, case, f"decision on the appeal of {number}", doc.respondent_id,
            tuple(formats), out, who, force=force, about=doc.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def _decided_remedies(
    session: Session, doc: Document, outcome: str, on: date, remedies: Mapping[int, date]
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """Each remedial measure whose date the decision sets (its number, the measure, the
    date in force before, as extended, and the date decided), and the problems: a date is
    set only by a modified decision (§ 228-79C(1)(f)), for a measure the notice has, on or
    after the day it is decided (a measure is never due before the decision setting it)."""
    pack = load_pack(doc.jurisdiction, doc.issued)
    f, r = pack.cite("enforcement.appeal_days"), pack.cite("enforcement.elements.remedies")
    measures = doc.case.get("remedies") or []
    in_force = as_extended(doc.case, extended(session, [doc.id]).get(doc.id))
    before = in_force.get("remedies") or []
    decided, problems = [], []
    for n, day in sorted(remedies.items()):
        field = f"remedy_{n}"
        if outcome != "modified":
            said = f"{day}: given, but the determination is {outcome}; a modified one sets it"
            problems.append(Problem(field, said, f))
        elif not 1 <= n <= len(measures):
            said = (
                f"{day}: Notice of Violation No. {doc.number} has no remedial measure {n} "
                f"(it has {len(measures)})"
            )
            problems.append(Problem(field, said, r))
        elif day < on:
            said = (
                f"{day}: before the decision ({long_date(on)}); a remedial measure is due on "
                "or after the day the decision sets its date"
            )
            problems.append(Problem(field, said, f))
        else:
            decided.append(
                {
                    "number": n,
                    "measure": measures[n - 1]["measure"],
                    "was": str(before[n - 1]["due"]),
                    "now": day.isoformat(),
                }
            )
    return decided, problems


@dataclass(frozen=True)
class AppealState:
    """The appeal of a notice as its page shows it."""

    acknowledgment: str
    received: date
    filed_by: str
    on_time: bool
    last_day: date
    hearing: dict[str, Any] | None  # the hearing set: number, date, time, place
    decision: dict[str, Any] | None  # number, outcome, date

    @property
    def pending(self) -> bool:
        return self.decision is None


def appeal_state(reg: Any, number: str, jurisdiction: str | None = None) -> AppealState | None:
    """The appeal recorded of ``number``, or None."""
    with db.guarded(reg.url), db.read_session(reg.engine) as session:
        doc = document_row(session, number, jurisdiction)
        found = appeals(session, [doc.id]).get(doc.id)
        if found is None or found.received is None:
            return None
        ack, when = found.received.case, found.timing()
        heard = found.hearings[-1] if found.hearings else None
        decided = found.decision
        return AppealState(
            acknowledgment=found.received.number,
            received=date.fromisoformat(ack["appeal"]["received"]),
            filed_by=ack["appeal"]["filed_by"],
            on_time=when.on_time,
            last_day=when.last_day,
            hearing=(
                {
                    "number": heard.number,
                    **heard.case["hearing"],
                    "date": date.fromisoformat(heard.case["hearing"]["date"]),
                }
                if heard
                else None
            ),
            decision=(
                {
                    "number": decided.number,
                    "outcome": decided.case["outcome"],
                    "date": decided.issued,
                }
                if decided
                else None
            ),
        )
