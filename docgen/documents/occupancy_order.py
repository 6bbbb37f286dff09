"""Order preventing occupancy (§ 228-79C(5); LAW.md § 14): the remedy of withholding the
certificate of occupancy.

"If any building or land development activity is installed or conducted in violation of
this article the CEO may prevent the occupancy of said building or land." The order names
the building or land, the notice of violation or stop-work order it rests on (by number,
from the register, with the violations that document states) and how the hold ends: a
release in writing. It is served and proved like a stop-work order, on the landowner and
on each other person named, and a copy goes to the building department (the pack's
``enforcement.building_department``). ``docgen withhold-occupancy`` issues it.
"""

from __future__ import annotations

from docgen.cases.common import (
    IsoDate,
    Jurisdiction,
    Line,
    Model,
    NameAndTitle,
    Party,
    Site,
    Text,
    cited,
)
from docgen.documents.kind import (
    COURTESY_LANGUAGES,
    CaseContext,
    Kind,
    Options,
    issued_on,
    numbered_case,
    recipient_of,
    site_of,
    site_problems,
)
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

S = "@provisions.occupancy-order"  # § 228-79C(5), as the pack cites it


class RestingViolation(Model):
    provision: Line = cited(S, "the section violated, as the document states it")
    nature: Text = cited(S, "the violation, as the document states it")


class RestsOn(Model):
    """The notice of violation or stop-work order in the register the order rests on."""

    number: Line = cited(S, "its number")
    title: Line = cited(S, "what it is (Notice of Violation, Stop-Work Order)")
    issued: IsoDate = cited(S, "its issue date")
    served: IsoDate = cited(S, "the day service of it was complete, as the register keeps it")
    violations: list[RestingViolation] = cited(S, "the violations it states", default_factory=list)


class OccupancyCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "order number")
    issued: IsoDate = cited(S, "date the order is issued")
    officer: NameAndTitle = cited("@officer", "the officer who prevents occupancy")
    recipient: Party = cited(S, "the landowner, on whom the order is served")
    copies_to: list[Party] = cited(
        S, "the developer or applicant, when known: also served", default_factory=list
    )
    site: Site = cited(S, "the site")
    premises: Text = cited(S, "the building or land whose occupancy is prevented")
    rests_on: RestsOn = cited(S, "the notice of violation or stop-work order it rests on")
    building_department: Line = cited(
        "@enforcement.building_department", "the building department, sent a copy"
    )


def check(case: OccupancyCase, pack: Pack, options: Options) -> list[Problem]:
    problems = site_problems(case, pack, "needs an address or a description of the land (or both)")
    if case.issued < case.rests_on.served:
        problems.append(
            Problem(
                "issued",
                f"{long_date(case.issued)} is before {case.rests_on.title} No. "
                f"{case.rests_on.number} was served ({long_date(case.rests_on.served)}): "
                "the order rests on a violation already served",
                S,
            )
        )
    return problems


def context(case: OccupancyCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Order Preventing Occupancy")


KIND = Kind(
    name="occupancy-order",
    title="Order preventing occupancy",
    heading="Order Preventing Occupancy",
    model=OccupancyCase,
    template="notices/occupancy_order.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="prevent the occupancy of the building or land until released in writing",
    made_by_register=(
        "from the notice of violation or stop-work order in effect it rests on: "
        "`docgen withhold-occupancy NUMBER`, or "
        "Prevent occupancy on its page"
    ),
    keeps=(
        ("rests_on", "the order or notice it rests on"),
        ("premises", "the building or land"),
        ("issued", "its date"),
    ),
    needs=("enforcement",),
    served=True,
    renditions=COURTESY_LANGUAGES,  # courtesy copies (LAW.md § 13)
    copies=True,
    step="withholds",
    issued_upon=(("notice-of-violation", "stop-work-order"),),
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
