"""The lien and its release (§ 228-79C(6); LAW.md §§ 8, 14): the cost of the corrective
action "shall become a lien upon the property until paid".

The notice of lien is issued from the statement of cost (so never before the date set for
restoration and an inspection on or after it that found it not done: the statement rests on
both); it names the owner, the property's tax map number as the register keeps it for the
site, the amount and "until paid", in the form the County Clerk records. Each payment is
recorded (amount, day paid, by whom); the release is issued only when the payments cover
the lien, and otherwise the balance is said.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.api import FORMATS
from docgen.documents.affidavit_of_service import issuing_officer
from docgen.errors import Problem
from docgen.register.after_notice import (
    dated,
    kind_of,
    of_step,
    once,
    opened,
    refuse,
    without_article,
)
from docgen.register.after_notice.restoration import COST, RESTORE
from docgen.register.matter.issuing import Request, issue_in, write_out
from docgen.register.matter.lost import recording
from docgen.register.rules.rows import document_row
from docgen.register.storage import db
from docgen.register.storage.audit import actor, record
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.models import Document, LienPayment
from docgen.register.storage.models import Site as SiteRow
from docgen.register.storage.records import Issued
from docgen.render.filters import money

LIEN, RELEASE = "liens", "releases-lien"  # the steps (Kind.step)
CENT = Decimal("0.01")


@dataclass(frozen=True)
class Paid:
    """A payment recorded on a lien."""

    amount: Decimal
    paid_on: date
    paid_by: str


def record_lien(
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
    """Issue the notice of lien for the cost the statement ``number`` states, dated ``on``.
    Refused: no such statement, a lien already issued on it, a date before the statement or
    after today, a site with no tax map number in the register."""
    who = actor(by)
    kind = kind_of(LIEN)
    again = f"record-lien {number} again"
    with recording(reg, again, "a lien is issued once", f"the lien on {number}") as (
        session,
        held,
    ):
        statement, pack, why = opened(session, number, jurisdiction, on, LIEN)
        of_step(statement, COST, why)
        once(session, statement, LIEN, why, "{doc} has its notice of lien: {done}")
        refuse(dated(on, pack, statement.issued, f"the statement {statement.number}", why))
        site = session.get(SiteRow, statement.site_id) if statement.site_id else None
        tax_map = (site.tax_map if site else None) or statement.case["site"].get("tax_map")
        address = statement.case["site"].get("address")
        if not tax_map or not address:
            missing = "tax map number" if not tax_map else "address"
            raise RegisterError(
                f"the register holds no {missing} for the site of {statement.number}; the "
                f"County Clerk records a lien against a parcel by its address and tax map "
                f"number: issue the notice requiring restoration with the site's {missing} "
                f"first ({why})"
            )
        case = {
            "jurisdiction": statement.jurisdiction,
            "issued": on.isoformat(),
            "officer": issuing_officer(statement.case),
            "owner": without_article(statement.case["recipient"]),
            "property": {"address": address, "tax_map": tax_map},
            "amount": statement.case["total"],
            "statement": {"number": statement.number, "issued": statement.issued.isoformat()},
            "notice": {
                "number": statement.case["notice"]["number"],
                "restore_by": statement.case["notice"]["restore_by"],
            },
            "inspection": {
                "number": statement.case["inspection"]["number"],
                "inspected": statement.case["inspection"]["inspected"],
            },
        }
        request = Request(
            kind, case, f"lien for {number}", statement.respondent_id, tuple(formats), out, who,
            force=force, about=statement.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


def payments(session: Session, lien: Document) -> list[Paid]:
    rows = session.scalars(
        select(LienPayment).where(LienPayment.document_id == lien.id).order_by(LienPayment.id)
    )
    return [Paid(Decimal(r.amount_cents) / 100, r.paid_on, r.paid_by) for r in rows]


def balance(session: Session, lien: Document) -> Decimal:
    """What remains unpaid of the lien."""
    paid = sum((p.amount for p in payments(session, lien)), Decimal("0.00"))
    return (Decimal(lien.case["amount"]) - paid).quantize(CENT)


def standing(reg: Any, number: str, jurisdiction: str | None = None) -> tuple[Decimal, list[Paid]]:
    """The balance of the lien ``number`` (of ``jurisdiction``) and the payments recorded
    on it: read for the desk's page."""
    with db.read_session(reg.engine) as session:
        lien: Document = document_row(session, number, jurisdiction)
        return balance(session, lien), payments(session, lien)


def record_payment(
    reg: Any,
    number: str,
    amount: Decimal,
    on: date,
    paid_by: str,
    *,
    by: str | None = None,
    jurisdiction: str | None = None,
) -> Decimal:
    """Record a payment of ``amount`` on the lien ``number``, paid ``on`` by ``paid_by``;
    the balance after it. Refused: no such lien, a released one, an amount of nothing or
    more than the balance, a day after today or before the lien."""
    who = actor(by)
    with guarded(reg.url), db.write_session(reg.engine) as session:
        lien, pack, why = opened(session, number, jurisdiction, on, LIEN)
        of_step(lien, LIEN, why)
        once(session, lien, RELEASE, why, "{doc} was released by {done}")
        owed = balance(session, lien)
        amount = Decimal(amount).quantize(CENT)
        problems: list[Problem] = dated(on, pack, lien.issued, f"the lien {lien.number}", why)
        if amount <= 0:
            problems.append(Problem("amount", "must be more than $0.00", why))
        elif amount > owed:
            message = f"{money(amount)} is more than the balance of {lien.number} ({money(owed)})"
            problems.append(Problem("amount", message, why))
        if not paid_by.strip():
            problems.append(Problem("paid_by", "missing: who paid", why))
        refuse(problems)
        row = LienPayment(
            document_id=lien.id,
            amount_cents=int(amount * 100),
            paid_on=on,
            paid_by=paid_by.strip(),
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
        )
        session.add(row)
        detail = {"amount": str(amount), "on": on.isoformat(), "by": paid_by.strip()}
        record(session, who, "lien-payment", "document", lien.id, detail)
        return owed - amount


def release_lien(
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
    """Issue the release of the lien ``number``, dated ``on``: only when paid in full (the
    refusal says the balance), on or after the last payment, once."""
    who = actor(by)
    kind = kind_of(RELEASE)
    again = f"release-lien {number} again"
    with recording(reg, again, "a lien is released once", f"the release of {number}") as (
        session,
        held,
    ):
        lien, pack, why = opened(session, number, jurisdiction, on, RELEASE)
        of_step(lien, LIEN, why)
        once(session, lien, RELEASE, why, "{doc} was already released by {done}")
        owed = balance(session, lien)
        if owed > 0:
            raise RegisterError(
                f"{lien.number} is not paid in full: the balance is {money(owed)}; record "
                f"each payment (docgen record-lien-payment {lien.number} ...) first ({why})"
            )
        paid = payments(session, lien)
        last = max((p.paid_on for p in paid), default=lien.issued)
        refuse(dated(on, pack, last, "the last payment", why))
        case = {
            "jurisdiction": lien.jurisdiction,
            "issued": on.isoformat(),
            "officer": lien.case["officer"],
            "owner": lien.case["owner"],
            "property": lien.case["property"],
            "lien": {
                "number": lien.number,
                "issued": lien.issued.isoformat(),
                "amount": lien.case["amount"],
            },
            "payments": [
                {"amount": str(p.amount), "paid_on": p.paid_on.isoformat(), "paid_by": p.paid_by}
                for p in paid
            ],
        }
        request = Request(
            kind, case, f"{lien.number} released", lien.respondent_id, tuple(formats), out, who,
            force=force, about=lien.id,
            made_by_register=True,
        )  # fmt: skip
        issued, targets = issue_in(session, request)
        held.issuing(request, issued.number)
    return write_out(issued, targets, force)


__all__ = [
    "RESTORE",
    "balance",
    "payments",
    "record_lien",
    "record_payment",
    "release_lien",
    "standing",
]
