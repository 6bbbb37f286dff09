"""Recording service of an issued document, and the appeal deadline it starts.

The day the 15 days of § 228-79C(1)(f) run from depends on how the notice was served:
the pack's service rule (LAW.md § 2) read by docgen.law.deadlines.service_start, which
also gives the last day (GCL §§ 24, 25-a). Posting counts with the copy mailed, so a
posting is recorded after the mailing it goes with.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select

from docgen.api import FORMATS
from docgen.documents import get_kind
from docgen.documents.affidavit_of_service import KIND as AFFIDAVIT
from docgen.documents.affidavit_of_service import MAIL, appeal_from
from docgen.law.packs import load_pack
from docgen.register import db
from docgen.register.audit import actor, record
from docgen.register.db import RegisterError, guarded
from docgen.register.issuing import Request, issue_in, write_out
from docgen.register.models import SERVICE_METHODS, Document, ServiceEvent
from docgen.register.queries import document_row
from docgen.register.records import Served, service_record


def record_service(
    reg: Any,
    number: str,
    method: str,
    on: date,
    *,
    received: date | None = None,
    served_by: str | None = None,
    article: str | None = None,
    by: str | None = None,
    affidavit: bool = True,
    oath: str = "notary",
    formats: Iterable[str] = FORMATS,
    out: str | Path | None = None,
    force: bool = False,
) -> Served:
    """Record that ``number`` was served by ``method`` on ``on``; for a notice, compute
    and store the last day to appeal. ``served_by`` defaults to the issuing officer.

    With ``affidavit`` (the default), the affidavit of service (or, with ``oath=
    "affirmation"``, the CPLR 2106 affirmation) is issued into the register in the same
    transaction, numbered, and written to ``out`` after the commit.
    """
    if method not in SERVICE_METHODS:
        raise RegisterError(f"--method {method!r}: choose one of {', '.join(SERVICE_METHODS)}")
    if received is not None and method not in MAIL:
        raise RegisterError("--received is the day a mailed notice was received; not for " + method)
    if received is not None and received < on:
        raise RegisterError(f"--received {received} is before the mailing {on}")
    if article and method != "certified-mail":
        raise RegisterError("--article is a certified-mail article number; the method is " + method)
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        doc: Document = document_row(session, number)
        spec = get_kind(doc.kind)
        if on < doc.issued:
            raise RegisterError(
                f"--date {on}: before {number} was issued ({doc.issued}); a document is "
                "served on or after its issue date"
            )
        mailed = None
        if method == "posting":
            mailed = session.scalar(
                select(ServiceEvent.date)
                .where(ServiceEvent.document_id == doc.id, ServiceEvent.method.in_(MAIL))
                .order_by(ServiceEvent.date.desc())
            )
            if mailed is None:
                raise RegisterError(
                    "posting at the site counts with a copy mailed (LAW.md § 2): record the "
                    "mailing first (--method first-class-mail or certified-mail)"
                )
        server_name, server_title = _server(doc, served_by)
        deadline, rule, reasons = None, "", ()
        if spec.appealable:
            pack = load_pack(doc.jurisdiction, doc.issued)
            start, computed = appeal_from(method, on, received, mailed, pack)
            deadline, reasons, rule = computed.last_day, computed.reasons, start.rule
        event = ServiceEvent(
            document_id=doc.id,
            method=method,
            date=on,
            received=received,
            served_by=", ".join(p for p in (server_name, server_title) if p),
            article=article,
            appeal_deadline=deadline,
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        session.add(event)
        session.flush()
        record(
            session,
            who,
            "service",
            "document",
            doc.id,
            {
                "number": number,
                "method": method,
                "date": on.isoformat(),
                "received": received.isoformat() if received else None,
                "article": article,
                "appeal_deadline": deadline.isoformat() if deadline else None,
            },
        )
        result = service_record(event, reasons, rule)
        proof, targets = None, {}
        if affidavit and spec.served:
            case = {
                "jurisdiction": doc.jurisdiction,
                "document": {"kind": doc.kind, "number": number, "issued": doc.issued.isoformat()},
                "recipient": _party(doc.case["recipient"]),
                "server": {"name": server_name, "title": server_title},
                "service": {
                    "method": method,
                    "date": on.isoformat(),
                    "received": received.isoformat() if received else None,
                    "mailed": mailed.isoformat() if mailed else None,
                    "article": article,
                    "place": _place(doc.case, method),
                },
                "oath": oath,
            }
            request = Request(
                AFFIDAVIT.name,
                case,
                f"{number} service",
                doc.respondent_id,
                tuple(formats),
                out,
                who,
                None,
                None,
                force,
                about=doc.id,
            )
            proof, targets = issue_in(session, request)
    if proof is not None:
        proof = write_out(proof, targets, force)
    return Served(number=number, service=result, affidavit=proof)


def _server(doc: Document, served_by: str | None) -> tuple[str, str | None]:
    """Who served: the name given, or the issuing officer (name and title)."""
    officer = doc.case.get("officer") or {}
    if served_by and served_by.strip() and served_by.strip() != officer.get("name"):
        return served_by.strip(), None
    return officer.get("name") or "the issuing officer", officer.get("title")


def _party(recipient: dict[str, Any]) -> dict[str, Any]:
    return {k: recipient[k] for k in ("name", "role", "address") if k in recipient}


def _place(case: dict[str, Any], method: str) -> str:
    """Where service was made: the site for posting, else the recipient's address."""
    if method == "posting":
        site = case.get("site") or {}
        address = site.get("address")
        if address:
            return f"{address['street']}, {address['city']}, {address['state']} {address['zip']}"
        return site.get("description") or "the site"
    a = case["recipient"]["address"]
    return f"{a['street']}, {a['city']}, {a['state']} {a['zip']}"
