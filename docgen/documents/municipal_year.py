"""The municipality's year in figures (LAW.md § 15, a reading chosen: the State's MS4
permit asks each regulated municipality for yearly counts of its construction-site
oversight): for the pack's reporting period, each category in plain words with its count,
the rule it follows and the document numbers behind it, and a chart by month of the
inspections, notices and orders with a table of the same numbers. A draft for public
review, not served and not numbered in a served series: its case is made from the
register (docgen.register.reading.year)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Annotated, Literal

from pydantic import Field

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, cited
from docgen.documents.kind import Context, DocMeta, Kind, Options
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack
from docgen.law.year import CATEGORIES
from docgen.law.year import period as named_period

Y = "@year.starts"
Count = Annotated[int, Field(ge=0)]
CategoryId = Literal[
    "plans-reviewed", "plans-approved", "plans-returned", "sites-active", "inspections",
    "notices-of-deficiency", "notices-of-violation", "stop-work-orders", "penalties",
    "court-outcomes",
]  # fmt: skip
COLOURS = {  # the bars' colours, the legend's swatches (templates/notices/year.css)
    "inspections": "#1f4e79",
    "notices-of-deficiency": "#7f6000",
    "notices-of-violation": "#a4161a",
    "stop-work-orders": "#000000",
}
CHARTED = (
    ("inspections", "Inspections"),
    ("notices-of-deficiency", "Notices of deficiency"),
    ("notices-of-violation", "Notices of violation"),
    ("stop-work-orders", "Stop-work orders"),
)


class Category(Model):
    key: CategoryId = cited(Y, "the category")
    words: Line = cited(Y, "the category in plain words")
    rule: Line = cited(Y, "what it counts")
    numbers: list[Line] = cited(Y, "the document numbers counted", default_factory=list)


class MonthCounts(Model):
    label: Line = cited(Y, "the month")
    inspections: Count = cited(Y, "inspection reports issued in the month")
    notices_of_deficiency: Count = cited(Y, "notices of deficiency issued in the month")
    notices_of_violation: Count = cited(Y, "notices of violation issued in the month")
    stop_work_orders: Count = cited(Y, "stop-work orders issued in the month")

    def count(self, key: str) -> int:
        value: int = getattr(self, key.replace("-", "_"))
        return value


class YearCase(Model):
    jurisdiction: Jurisdiction
    prepared: IsoDate = cited(Y, "the day the figures were drawn from the register")
    prepared_by: NameAndTitle = cited(Y, "who drew them")
    period_from: IsoDate = cited(Y, "the period's first day", title="from")
    period_to: IsoDate = cited(Y, "the period's last day", title="to")
    through: IsoDate = cited(Y, "the last day counted (today, while the period runs)")
    categories: list[Category] = cited(Y, "each category with its documents")
    months: list[MonthCounts] = cited(Y, "the charted categories month by month")


def check(case: YearCase, pack: Pack, options: Options) -> list[Problem]:
    problems = []
    if [c.key for c in case.categories] != [key for key, _ in CATEGORIES]:
        problems.append(
            Problem("categories", "every category of the report once, in the report's order", Y)
        )
    if not case.period_from <= case.through <= case.period_to:
        problems.append(Problem("through", "the last day counted is within the period", Y))
    if case.through > case.prepared:
        problems.append(
            Problem("through", f"{long_date(case.through)} is after the figures were drawn", Y)
        )
    found = {c.key: len(c.numbers) for c in case.categories}
    for key, words in CHARTED:
        if key in found and sum(m.count(key) for m in case.months) != found[key]:
            problems.append(
                Problem("months", f"the months' {words.lower()} add up to the category's count", Y)
            )
    return problems


@dataclass(frozen=True, kw_only=True)
class YearContext(Context):
    case: YearCase
    charted: tuple[tuple[str, str], ...]
    highest: int  # the chart's scale: the largest monthly count (at least 1)
    colours: dict[str, str]
    chart_words: str  # "inspections, notices of deficiency, ... and stop-work orders"
    ended: bool
    named: bool  # the pack's reporting period (else one chosen for this report)


def number_of(start: date, end: date) -> str:
    return f"{start.isoformat()}-to-{end.isoformat()}"


def context(case: YearCase, pack: Pack, options: Options) -> YearContext:
    title = "Year in Figures"
    number = number_of(case.period_from, case.period_to)
    period = f"{long_date(case.period_from)} to {long_date(case.period_to)}"
    return YearContext(
        case=case,
        charted=CHARTED,
        highest=max([1, *(m.count(k) for m in case.months for k, _ in CHARTED)]),
        ended=case.through == case.period_to,
        named=pack.year is not None
        and named_period(pack.year.starts.value, case.period_to.year)
        == (case.period_from, case.period_to),
        colours=COLOURS,
        chart_words=", ".join(w.lower() for _, w in CHARTED[:-1])
        + f" and {CHARTED[-1][1].lower()}",
        doc=DocMeta(
            kind=KIND.name,
            title=f"{title}, {period} (draft)",
            number=number,
            running_head=f"{pack.name.value} · {title}, {period} · DRAFT for public review",
            date=case.prepared,
            filename=f"{number}-{KIND.name}",
        ),
    )


KIND = Kind(
    name="municipal-year",
    title="The municipality's year in figures",
    heading="Year in Figures",
    model=YearCase,
    template="swppp/municipal_year.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css", "notices/year.css"),
    summary="the year's counts from the register, each with its documents, and a chart by month",
    needs=("year",),
    issued=lambda case: case.prepared,
    made_by_register=(
        "from the register's documents, as a draft not issued into it: "
        "`docgen year --jurisdiction J --period YEAR --out DIR`"
    ),
)
