"""The return receipt annexed to an affidavit of mailing (LAW.md § 2, § 10).

"The affidavit of mailing stays as sworn, and the receipt is annexed to it (a numbered
annex naming the affidavit, the article number, the date of receipt and who signed, with
the card's scan when the clerk has one)." The annex states what the card shows, nothing
more: no deadline, no legal conclusion (the register keeps the deadline the receipt gives).

``docgen record-receipt`` issues one from the register, built from the mailing's event;
it can also be rendered from a case file like any kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import Field

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, Party, Text, cited
from docgen.cases.mail import CertifiedArticle
from docgen.documents.kind import Context, DocMeta, Kind, Options, recipient_of
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

R = "@provisions.return-receipt"  # the receipt of a certified mailing, annexed to its proof


class Affidavit(Model):
    number: Line = cited(R, "the affidavit of mailing this receipt is annexed to")
    issued: IsoDate = cited(R, "its date")
    title: Line | None = cited(R, "Affidavit of Service, or Affirmation of Service", default=None)


class Mailed(Model):
    title: Line = cited(R, "what was mailed, e.g. Notice of Violation")
    number: Line = cited(R, "its number")
    issued: IsoDate = cited(R, "its issue date")


class Mailing(Model):
    date: IsoDate = cited(R, "the day it was mailed")
    article: CertifiedArticle | None = cited(
        R, "the certified mail article number on the card (None: not recorded)", default=None
    )
    address: Text = cited(R, "the address on the envelope")


class Receipt(Model):
    date: IsoDate = cited(R, "the day of receipt the card shows")
    signed_by: Line = cited(R, "who signed the card, as signed or printed on it")


class ReturnReceiptCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(R, "the annex's number")
    annex: int = Field(1, ge=1, description="its number among the affidavit's annexes")
    affidavit: Affidavit = cited(R)
    document: Mailed = cited(R)
    recipient: Party = cited(R, "to whom it was mailed")
    mailing: Mailing = cited(R)
    receipt: Receipt = cited(R)


def check(case: ReturnReceiptCase, pack: Pack, options: Options) -> list[Problem]:
    if case.receipt.date < case.mailing.date:
        message = (
            f"{long_date(case.receipt.date)} is before the mailing "
            f"({long_date(case.mailing.date)}): a receipt follows the mailing"
        )
        return [Problem("receipt.date", message, R)]
    return []


@dataclass(frozen=True, kw_only=True)
class ReturnReceiptContext(Context):
    case: ReturnReceiptCase
    heading: str  # "Annex 1 to Affidavit of Service No. AOS-2026-0001"


def context(case: ReturnReceiptCase, pack: Pack, options: Options) -> ReturnReceiptContext:
    sworn = case.affidavit.title or "Affidavit of Service"
    heading = f"Annex {case.annex} to {sworn} No. {case.affidavit.number}"
    return ReturnReceiptContext(
        case=case,
        heading=heading,
        doc=DocMeta.numbered(KIND.name, "Return Receipt", case.number, pack, case.receipt.date),
    )


KIND = Kind(
    name="return-receipt",
    title="Return receipt (annex to an affidavit of mailing)",
    model=ReturnReceiptCase,
    template="notices/return_receipt.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the certified mailing's return receipt, annexed to its affidavit of service",
    needs=("enforcement",),
    annexes_receipt=True,  # LAW.md § 2: annexed to the affidavit of the mailing it returns
    issued=lambda case: case.receipt.date,  # the annex states the card as it came back
    party=recipient_of,
)
