"""Release of lien (§ 228-79C(6); LAW.md §§ 8, 14): the cost is a lien upon the property
"until paid"; once the payments recorded in the register cover the lien's amount, the
municipality releases it in a recordable instrument (LAW.md § 8's form, as the notice of
lien). ``docgen release-lien`` issues it from the register, and only then.
"""

from __future__ import annotations

from decimal import Decimal

from docgen.cases.common import (
    IsoDate,
    Jurisdiction,
    Line,
    Model,
    Money,
    NameAndTitle,
    Party,
    cited,
)
from docgen.documents.kind import CaseContext, Kind, Options, issued_on, numbered_case, owner_of
from docgen.documents.lien_notice import LienProperty, property_of
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack
from docgen.render.filters import money

S = "@provisions.lien-release"


class LienReleased(Model):
    number: Line = cited(S, "the notice of lien released")
    issued: IsoDate = cited(S, "its date")
    amount: Money = cited(S, "its amount")


class Payment(Model):
    amount: Money = cited(S, "the amount paid")
    paid_on: IsoDate = cited(S, "the day it was paid", title="date paid")
    paid_by: Line = cited(S, "who paid it")


class LienReleaseCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "the release's number")
    issued: IsoDate = cited(S, "its date")
    officer: NameAndTitle = cited("@officer", "the officer who signs it")
    owner: Party = cited(S, "the owner of the property")
    property: LienProperty = cited(S)
    lien: LienReleased = cited(S)
    payments: list[Payment] = cited(S, "the payments that paid the lien, oldest first")


def check(case: LienReleaseCase, pack: Pack, options: Options) -> list[Problem]:
    paid = sum((p.amount for p in case.payments), Decimal("0.00"))
    problems = []
    if paid != case.lien.amount:
        problems.append(
            Problem(
                "payments",
                f"{money(paid)} paid of {money(case.lien.amount)}: a lien is released only "
                f"when paid in full (the balance is {money(case.lien.amount - paid)})",
                S,
            )
        )
    last = max((p.paid_on for p in case.payments), default=case.lien.issued)
    if case.issued < last:
        problems.append(
            Problem("issued", f"{long_date(case.issued)} is before the last payment", S)
        )
    return problems


def context(case: LienReleaseCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Release of Lien")


KIND = Kind(
    name="lien-release",
    title="Release of lien",
    heading="Release of Lien",
    model=LienReleaseCase,
    template="notices/lien_release.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "agreements/agreement.css"),
    summary="the release of the lien, the cost paid in full (recorded)",
    made_by_register=(
        "from the lien paid in full: `docgen release-lien NUMBER`, or Release on the lien's page"
    ),
    keeps=(
        ("lien", "the lien it releases"),
        ("payments", "the payments"),
        ("issued", "its date"),
    ),
    needs=("enforcement", "recording"),
    step="releases-lien",
    issued_upon=(("lien-notice",),),
    permission="enforce",
    issued=issued_on,
    party=owner_of,
    site=property_of,
)
