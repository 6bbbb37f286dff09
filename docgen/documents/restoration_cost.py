"""Statement of the cost of corrective action (§ 228-79C(6); LAW.md § 14): "In the event
that restoration is not undertaken within a reasonable time after notice, the [municipality]
may take necessary corrective action, the cost of which shall become a lien upon the
property until paid."

Issued only after the notice's date and an inspection on or after it that found the
restoration not done (the register checks both, and the statement names the inspection):
each item of the corrective work and its amount, and the total in words and figures, the
items summing to it. ``docgen state-restoration-cost`` issues it.
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
    Site,
    Text,
    cited,
)
from docgen.documents.kind import (
    CaseContext,
    Kind,
    Options,
    issued_on,
    numbered_case,
    recipient_of,
    site_of,
)
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack
from docgen.render.filters import money

S = "@provisions.restoration-cost"


class RestorationNotice(Model):
    number: Line = cited(S, "the notice requiring restoration")
    issued: IsoDate = cited(S, "its issue date")
    served: IsoDate = cited(S, "the day service of it was complete, as the register keeps it")
    restore_by: IsoDate = cited(S, "the date it set for restoration", title="restore by")


class FoundNotDone(Model):
    """The inspection, on or after the notice's date, that found restoration not done."""

    number: Line = cited(S, "the inspection report's number")
    inspected: IsoDate = cited(S, "the day of the inspection", title="date inspected")
    found: Text = cited(S, "what it found, as the report states it")


class CostItem(Model):
    item: Text = cited(S, "the corrective work done, or the cost incurred")
    amount: Money = cited(S, "its cost")


class CostCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "statement number")
    issued: IsoDate = cited(S, "date of the statement")
    officer: NameAndTitle = cited("@officer", "the officer who states the cost")
    recipient: Party = cited(S, "the landowner")
    copies_to: list[Party] = cited(S, "the others the notice was served on", default_factory=list)
    site: Site = cited(S, "the site")
    notice: RestorationNotice = cited(S)
    inspection: FoundNotDone = cited(S)
    items: list[CostItem] = cited(S, "each item of the corrective action and its cost")
    total: Money = cited(S, "the total cost: the sum of the items")


def total_of(items: list[CostItem]) -> Decimal:
    return sum((i.amount for i in items), Decimal("0.00"))


def check(case: CostCase, pack: Pack, options: Options) -> list[Problem]:
    problems = []
    if not case.items:
        problems.append(Problem("items", "missing: each item of the corrective action", S))
    for n, item in enumerate(case.items):
        if item.amount <= 0:
            problems.append(Problem(f"items.{n}.amount", "must be more than $0.00", S))
    if case.items and total_of(case.items) != case.total:
        problems.append(
            Problem(
                "total",
                f"{money(case.total)} is not the sum of the items ({money(total_of(case.items))})",
                S,
            )
        )
    if case.inspection.inspected < case.notice.restore_by:
        problems.append(
            Problem(
                "inspection",
                f"inspected {long_date(case.inspection.inspected)}, before the date set for "
                f"restoration ({long_date(case.notice.restore_by)})",
                S,
            )
        )
    if case.issued < case.inspection.inspected:
        problems.append(
            Problem(
                "issued",
                f"{long_date(case.issued)} is before the inspection "
                f"({long_date(case.inspection.inspected)})",
                S,
            )
        )
    return problems


def context(case: CostCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Statement of the Cost of Corrective Action")


KIND = Kind(
    name="restoration-cost",
    title="Statement of the cost of corrective action",
    heading="Statement of the Cost of Corrective Action",
    model=CostCase,
    template="notices/restoration_cost.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the cost of the corrective action taken on land not restored: each item, the total",
    made_by_register=(
        "from the notice requiring restoration and the inspection that found it not done: "
        "`docgen state-restoration-cost NUMBER`, or "
        "the cost's form on the notice's page"
    ),
    keeps=(
        ("notice", "the notice requiring restoration"),
        ("inspection", "the inspection that found it not done"),
        ("items", "each item and amount"),
        ("total", "the total"),
        ("issued", "its date"),
    ),
    needs=("enforcement",),
    copies=True,
    step="states-cost",
    issued_upon=(("restoration-notice",), ("inspection-report",)),
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
