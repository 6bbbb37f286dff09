"""Notice of lien (§ 228-79C(6); LAW.md §§ 8, 14): the cost of the corrective action the
municipality took "shall become a lien upon the property until paid".

A recorded instrument, in the form the County Clerk records (LAW.md § 8): letter size, the
top of the first page left blank for the clerk's stamp, the tax map number on the first
page as the county labels it, a "record and return to" block, no drafting notes (no
citation after a clause), the officer's signature acknowledged in the Real Property Law
§ 309-a form. It names the owner, the property and its tax map number, the amount, and that
the lien stands until paid; it rests on the statement of cost (which rests on the notice's
date and the inspection after it). ``docgen record-lien`` issues it from the register.
"""

from __future__ import annotations

from typing import Any

from docgen.cases.common import (
    Address,
    IsoDate,
    Jurisdiction,
    Line,
    Model,
    Money,
    NameAndTitle,
    Party,
    cited,
)
from docgen.documents.kind import (
    CaseContext,
    Kind,
    Options,
    Place,
    issued_on,
    numbered_case,
    owner_of,
    place_of,
)
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

S = "@provisions.lien-notice"


class LienProperty(Model):
    address: Address = cited(S, "the property's address")
    tax_map: Line = cited(
        "@recording.tax_map_label", "the tax map number, as the county numbers it"
    )


class CostStated(Model):
    number: Line = cited(S, "the statement of the cost of corrective action")
    issued: IsoDate = cited(S, "its date")


class RestorationRequired(Model):
    number: Line = cited(S, "the notice requiring restoration")
    restore_by: IsoDate = cited(S, "the date it set for restoration", title="restore by")


class InspectionFound(Model):
    number: Line = cited(S, "the inspection report that found restoration not done")
    inspected: IsoDate = cited(S, "the day of the inspection", title="date inspected")


class LienCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "the notice of lien's number")
    issued: IsoDate = cited(S, "its date")
    officer: NameAndTitle = cited("@officer", "the officer who signs it")
    owner: Party = cited(S, "the owner of the property")
    property: LienProperty = cited(S)
    amount: Money = cited(S, "the cost of the corrective action: the lien's amount")
    statement: CostStated = cited(S)
    notice: RestorationRequired = cited(S)
    inspection: InspectionFound = cited(S)


def check(case: LienCase, pack: Pack, options: Options) -> list[Problem]:
    problems = []
    if case.amount <= 0:
        problems.append(Problem("amount", "must be more than $0.00", S))
    if case.inspection.inspected < case.notice.restore_by:
        problems.append(
            Problem(
                "inspection",
                f"inspected {long_date(case.inspection.inspected)}, before the date set for "
                f"restoration ({long_date(case.notice.restore_by)}): no lien before it",
                S,
            )
        )
    if case.issued < case.statement.issued:
        problems.append(
            Problem(
                "issued",
                f"{long_date(case.issued)} is before the statement of cost "
                f"({long_date(case.statement.issued)})",
                S,
            )
        )
    return problems


def context(case: LienCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Notice of Lien")


def property_of(case: Any) -> Place | None:
    """The property, as the site of the notice it follows (its address, its tax map number
    recorded with it): the register keeps one site for the matter."""
    return place_of(case.property, case.property.tax_map, by_tax_map=False)


KIND = Kind(
    name="lien-notice",
    title="Notice of lien",
    heading="Notice of Lien",
    model=LienCase,
    template="notices/lien_notice.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "agreements/agreement.css"),
    summary="the cost of the corrective action, a lien upon the property until paid (recorded)",
    made_by_register=(
        "from the statement of the cost the register holds: "
        "`docgen record-lien NUMBER`, or "
        "the lien's form on the statement's page"
    ),
    keeps=(
        ("statement", "the statement of cost"),
        ("amount", "the amount"),
        ("issued", "its date"),
    ),
    needs=("enforcement", "recording"),
    step="liens",
    issued_upon=(("restoration-cost",),),
    permission="enforce",
    issued=issued_on,
    party=owner_of,
    site=property_of,
)
