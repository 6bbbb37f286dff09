"""Statement of fees (§ 228-79D; LAW.md § 15): "reasonable costs at prevailing rates for
review of SWPPPs, inspections, or SMP maintenance". Each service the register holds for
the site in the period (a review of its SWPPP, an inspection report), its date and
reference, the rate from the municipality's fee schedule (a setting, named as the
municipality's schedule) and the amount; the total in words and figures. Never a fee for
a service the register has no record of: its case is made from the register
(docgen.register.plans.fees)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, Money, NameAndTitle, Site, cited
from docgen.documents.kind import Context, DocMeta, Kind, Options, issued_on, site_of
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

F = "@enforcement.fees"


class Service(Model):
    day: IsoDate = cited(F, "the day of the service", title="date")
    service: Line = cited(F, "the service (a review of the SWPPP, an inspection)")
    reference: Line = cited(F, "the register's record of it")
    rate: Money = cited(F, "the rate of the municipality's fee schedule")
    amount: Money = cited(F, "the amount")


class FeeCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(F, "the statement's number")
    issued: IsoDate = cited(F, "the statement's date")
    officer: NameAndTitle = cited(F, "the officer who states the fees")
    payer: Line = cited(F, "the person undertaking the land development activity")
    project: Line = cited(F, "the land development activity")
    site: Site = cited(F, "the site")
    period_from: IsoDate = cited(F, "the first day of the period", title="from")
    period_to: IsoDate = cited(F, "the last day of the period", title="to")
    schedule: Line = cited(F, "the municipality's fee schedule, as adopted")
    services: list[Service] = cited(F, "each service the register holds")
    total: Money = cited(F, "the total")


def check(case: FeeCase, pack: Pack, options: Options) -> list[Problem]:
    problems = []
    if not case.services:
        problems.append(Problem("services", "no service recorded in the period: no fee", F))
    for n, s in enumerate(case.services):
        if s.amount != s.rate:
            problems.append(Problem(f"services.{n}.amount", "each service is its rate", F))
        if not case.period_from <= s.day <= case.period_to:
            problems.append(
                Problem(f"services.{n}.day", f"{long_date(s.day)} is outside the period", F)
            )
    if case.total != sum((s.amount for s in case.services), Decimal(0)):
        problems.append(Problem("total", "the total is the sum of the amounts", F))
    if case.period_to < case.period_from or case.period_to > case.issued:
        problems.append(
            Problem("period_to", "the period ends on or before the statement's date", F)
        )
    return problems


@dataclass(frozen=True, kw_only=True)
class FeeContext(Context):
    case: FeeCase


def context(case: FeeCase, pack: Pack, options: Options) -> FeeContext:
    return FeeContext(
        case=case, doc=DocMeta.numbered(KIND.name, KIND.heading, case.number, pack, case.issued)
    )


KIND = Kind(
    name="fee-statement",
    title="Statement of fees",
    heading="Statement of Fees",
    model=FeeCase,
    template="swppp/fee_statement.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="each review and inspection the register holds for a site, its rate and amount",
    needs=("enforcement",),
    issued=issued_on,
    site=site_of,
    made_by_register=(
        "from the reviews and inspections the register holds for the site: "
        "`docgen fees statement SITE`"
    ),
    keeps=(
        ("services", "each service, its rate and amount"),
        ("total", "the total"),
        ("period_from", "the period"),
        ("period_to", "the period"),
    ),
)
