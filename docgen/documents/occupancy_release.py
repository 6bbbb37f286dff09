"""The written release of an order preventing occupancy (§ 228-79C(5); LAW.md § 14).

The order holds until the municipality releases it in writing (its practice: the article
says the CEO may prevent occupancy, not how the hold ends). The release names the order,
the day service of it was complete, and is sent to each person the order was served on and
to the building department. ``docgen release-occupancy`` issues it from the register.
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

S = "@provisions.occupancy-release"


class ReleasedOrder(Model):
    number: Line = cited(S, "the order preventing occupancy released")
    issued: IsoDate = cited(S, "its issue date")
    served: IsoDate = cited(S, "the day service of it was complete, as the register keeps it")


class ReleaseCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "the release's number")
    issued: IsoDate = cited(S, "the day the order is released")
    order: ReleasedOrder = cited(S)
    officer: NameAndTitle = cited("@officer", "the officer who releases the order")
    recipient: Party = cited(S, "the landowner the order was served on")
    copies_to: list[Party] = cited(S, "the others the order was served on", default_factory=list)
    site: Site = cited(S, "the site")
    premises: Text = cited(S, "the building or land the order covered")
    building_department: Line = cited(
        "@enforcement.building_department", "the building department, sent a copy"
    )


def check(case: ReleaseCase, pack: Pack, options: Options) -> list[Problem]:
    if case.issued < case.order.served:
        return [
            Problem(
                "issued",
                f"{long_date(case.issued)} is before the order was served "
                f"({long_date(case.order.served)}): an order is released after it took effect",
                S,
            )
        ]
    return []


def context(case: ReleaseCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Release of Order Preventing Occupancy")


KIND = Kind(
    name="occupancy-release",
    title="Release of an order preventing occupancy",
    model=ReleaseCase,
    template="notices/occupancy_release.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the written release of an order preventing occupancy",
    made_by_register=(
        "from the order preventing occupancy it releases: "
        "`docgen release-occupancy NUMBER`, or "
        "Release this order on its page"
    ),
    keeps=(
        ("order", "the order it releases"),
        ("issued", "its date"),
    ),
    needs=("enforcement",),
    copies=True,
    step="releases-hold",
    issued_upon=(("occupancy-order",),),
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
