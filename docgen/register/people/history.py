"""The offense history the penalty reads (§ 228-79C(4) through the pack): offenses as
notices charge them, their dispositions, and the priors an issue reads as of its date."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from sqlalchemy import exists, or_, select
from sqlalchemy.orm import Session, aliased

from docgen.documents import a_title, kinds_with
from docgen.documents.kind import Charge
from docgen.errors import Problem
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack
from docgen.law.penalties import disposition_problem, is_current_offense
from docgen.register.people.import_runs import counted
from docgen.register.rules.rows import corrections, document_row, successor
from docgen.register.storage.audit import record
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import DISPOSITIONS, Document, ImportBatch, Offense
from docgen.register.storage.records import OffenseRecord, PriorUsed, offense_record

CARRIED = ("disposition", "disposition_date", "convicted", "court", "docket")


def add_offense(
    session: Session,
    row: Document,
    respondent_id: int,
    jurisdiction: str,
    charge: Charge,
    old: Document | None,
) -> None:
    """The offense ``row`` charges; a correction carries what a court decided on the
    offense it restates."""
    previous = session.scalar(select(Offense).where(Offense.document_id == old.id)) if old else None
    carried: dict[str, Any] = {}
    if old is not None and previous is not None:
        if previous.respondent_id == respondent_id:
            carried = {k: getattr(previous, k) for k in CARRIED}
        elif previous.disposition != "pending":
            raise RegisterError(
                f"{old.number}: its offense was {previous.disposition} against respondent "
                f"#{previous.respondent_id}; a correction addressed to another respondent "
                "cannot carry that outcome to them. Issue a new notice to them instead"
            )
    session.add(
        Offense(
            respondent_id=respondent_id,
            document_id=row.id,
            jurisdiction=jurisdiction,
            committed=charge.committed,
            continued_through=charge.continued_through,
            violations=list(charge.violations),
            **({"disposition": "pending"} | carried),
        )
    )


def current_offense(session: Session, case: Any, pack: Pack) -> Callable[[Any, str | None], bool]:
    """Reading 11: which recorded offense is the one the case is about (never a prior);
    a notice the case names as the one it follows must have charged an offense here."""
    # documents.penalty_statement takes 17 ms to import (docgen modules): loaded on first use
    from docgen.documents.penalty_statement import current_offense as about

    notice, charged = about(case)
    if notice is not None and not session.scalar(
        select(Offense.id)
        .join(Document, Offense.document_id == Document.id)
        .where(Document.jurisdiction == pack.id, Document.number == notice)
    ):
        raise RegisterError(
            f"notice: {notice} is not a notice of violation issued in this register; "
            "name the notice whose offense the statement is about "
            f"({pack.part('penalties').ref}; LAW.md § 4, reading 11)"
        )
    return lambda offense, number: is_current_offense(
        number, offense.violations or (), notice, charged
    )


def priors(
    session: Session,
    respondent_id: int,
    jurisdiction: str,
    as_of: date,
    skip_document: int | None,
    current: Callable[[Any, str | None], bool] = lambda offense, number: False,
) -> list[tuple[dict[str, Any], str]]:
    """Prior offenses as ``prior_offenses`` entries, as they stood on ``as_of``.

    Offenses of a superseded document live on in its successor (counted once); an
    offense committed after ``as_of`` is not a prior; a conviction or other
    disposition after ``as_of`` had not happened yet, so it reads as pending;
    withdrawn notices are no offense at all, nor is a notice whose determination of
    violation was reversed on appeal (§ 228-79C(1)(f): no conviction, no penalty, LAW.md
    § 4, whatever was recorded of it); the ``current`` offense, the one the document is
    about, is never its own prior.
    """

    reversed_ = reversed_notices(session)
    later = aliased(Document)
    rows = session.execute(
        select(Offense, Document.number)
        .outerjoin(Document, Offense.document_id == Document.id)
        .outerjoin(ImportBatch, Offense.import_batch_id == ImportBatch.id)
        .where(
            counted(),  # an import's rows count once it has finished
            Offense.respondent_id == respondent_id,
            Offense.jurisdiction == jurisdiction,
            Offense.committed <= as_of,
            Offense.disposition != "withdrawn",
            or_(Offense.document_id.is_(None), Offense.document_id != (skip_document or -1)),
            ~exists().where(later.supersedes_id == Offense.document_id),
        )
        .order_by(Offense.committed, Offense.id)
    ).all()
    out = []
    for offense, number in rows:
        if current(offense, number) or offense.document_id in reversed_:
            continue
        decided = offense.convicted or offense.disposition_date
        disposition = offense.disposition
        if decided is not None and decided > as_of:
            disposition = "pending"
        label = reference(offense, number)
        entry: dict[str, Any] = {
            "committed": offense.committed.isoformat(),
            "disposition": disposition,
            "reference": printed_reference(offense, number)[:500],
        }
        if disposition == "convicted" and offense.convicted is not None:
            entry["convicted"] = offense.convicted.isoformat()
        out.append((entry, label))
    return out


def priors_used(
    case: Any, pack: Pack, read: list[tuple[dict[str, Any], str]]
) -> tuple[PriorUsed, ...]:
    """The priors read, each with the penalty engine's finding (counted, or why not)."""
    if not read:
        return ()
    # cases.penalty and others take 17 ms to import (docgen modules): loaded on first use
    from docgen.cases.penalty import PriorOffense
    from docgen.documents.penalty_statement import penalty_assessment

    typed = [PriorOffense(**p) for p, _ in read]
    case = case.model_copy(update={"prior_offenses": typed})
    reasons = {f.index: f.reason for f in penalty_assessment(case, pack).findings}
    return tuple(
        PriorUsed(
            reference=label,
            committed=date.fromisoformat(p["committed"]),
            disposition=p["disposition"],
            convicted=date.fromisoformat(p["convicted"]) if p.get("convicted") else None,
            reason=reasons.get(i, ""),
        )
        for i, (p, label) in enumerate(read)
    )


def record_disposition(
    session: Session,
    number: str,
    disposition: str,
    on: date | None,
    court: str | None,
    docket: str | None,
    who: str,
    jurisdiction: str | None = None,
) -> OffenseRecord:
    """The outcome of the offense a notice charged (convicted needs its date; never a
    date ahead of the municipality's today, or before the offense)."""
    problems = []
    if disposition not in DISPOSITIONS:
        listed = ", ".join(DISPOSITIONS)
        problems.append(Problem("disposition", f"{disposition!r}: choose one of {listed}"))
    doc = document_row(session, number, jurisdiction)
    today = municipal_today(load_pack(doc.jurisdiction))
    later = successor(session, doc.id)
    if later:
        now = corrections(session, doc)[-1]  # the correction in effect, not a later-superseded one
        through = f" (through {later})" if now != later else ""
        raise RegisterError(
            f"{number} was superseded; the correction in effect is {now}{through}: record "
            f"the disposition on {now}"
        )
    offense = session.scalar(select(Offense).where(Offense.document_id == doc.id))
    if offense is None:
        raise RegisterError(
            f"{number} is {a_title(doc.kind)}; dispositions are recorded on the notice of "
            "violation that charged the offense"
        )
    section = load_pack(doc.jurisdiction).part("penalties").ref

    if disposition == "convicted" and doc.id in reversed_notices(session):
        problems.append(
            Problem(
                "disposition",
                f"the determination of violation in {number} was reversed on appeal: it is no "
                "conviction and counts for no penalty",
                f"{section}; {load_pack(doc.jurisdiction).cite('enforcement.appeal_days')}",
            )
        )
    if disposition == "convicted" and on is None:
        problems.append(Problem("date", "missing: a conviction needs its date", section))
    wrong = on and disposition_problem(on, offense.committed, today, f"today ({today})")
    if wrong:
        problems.append(Problem("date", f"{on}: {wrong}", f"{section}; LAW.md § 4, reading 13"))
    if problems:
        raise Refused(problems)
    before = {
        "disposition": offense.disposition,
        "date": _iso(offense.disposition_date),
        "court": offense.court,
        "docket": offense.docket,
    }
    offense.disposition = disposition
    offense.disposition_date = on
    offense.convicted = on if disposition == "convicted" else None
    offense.court = court or offense.court
    offense.docket = docket or offense.docket
    after = {
        "disposition": disposition,
        "date": _iso(on),
        "court": offense.court,
        "docket": offense.docket,
    }
    record(
        session,
        who,
        "disposition",
        "offense",
        offense.id,
        {"number": number, "before": before, "after": after},
    )
    session.flush()
    return offense_record(offense, number)


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def reference(offense: Offense, number: str | None) -> str:
    """The offense as the register names it: its notice, else the source of an import (the
    clerk's file and row), with its court and docket."""
    parts = [number or offense.reference or "history imported from before the register"]
    return ", ".join(parts + _court_and_docket(offense))


def printed_reference(offense: Offense, number: str | None) -> str:
    """The offense as a served document names it: its notice, court and docket, never the
    clerk's file and row an import came from (kept in the register: ``reference``)."""
    parts = ([number] if number else []) + _court_and_docket(offense)
    return ", ".join(parts) or "a conviction from before the register"


def _court_and_docket(offense: Offense) -> list[str]:
    parts = [offense.court] if offense.court else []
    return parts + ([f"docket {offense.docket}"] if offense.docket else [])


def reversed_notices(session: Session) -> set[int]:
    """The ids of the notices whose determination of violation was reversed on appeal: no
    conviction, no penalty (LAW.md § 4)."""
    (kind,) = kinds_with(appeal_step="decision")
    rows = session.execute(
        select(Document.about_id, Document.case).where(Document.kind == kind)
    ).all()
    return {about for about, case in rows if about is not None and case["outcome"] == "reversed"}
