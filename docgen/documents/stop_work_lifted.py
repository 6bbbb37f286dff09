"""The written notice lifting a stop-work order (§ 228-79C(2); LAW.md § 3).

An order "shall be in effect until the Village confirms that the land development
activity is in compliance and the violation has been satisfactorily addressed": the
confirmation is recorded (its date, the officer) and issued as this notice, to the
persons the order was served on. ``docgen lift`` issues it from the register.
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
)
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

S = "@provisions.stop-work-order"  # the order's section: in effect until confirmed
H = "@inspection.halt"  # a notice of deficiency's halt: until corrected and approved


class LiftedOrder(Model):
    number: Line = cited(S, "the stop-work order lifted: the one in effect")
    issued: IsoDate = cited(S, "its issue date")
    served: IsoDate = cited(S, "the day service of it was complete, as the register keeps it")
    replaced: list[Line] = cited(
        S,
        "the orders it corrected, oldest first (LAW.md § 3: the notice names both)",
        default_factory=list,
    )


class HaltInEffect(Model):
    """A notice of deficiency at the site whose halt stands on the lifting's date (the
    register's): lifting the order does not lift it."""

    number: Line = cited(H, "the notice of deficiency's number")
    served: IsoDate = cited(H, "the day service of it was complete", title="date served")
    open: list[int] = cited(H, "its deficiencies still open", title="deficiencies open")


class LiftCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "the lifting notice's number")
    issued: IsoDate = cited(S, "the day compliance was confirmed and the order lifted")
    order: LiftedOrder = cited(S)
    officer: NameAndTitle = cited("@officer", "the officer who confirmed compliance")
    recipient: Party = cited(S, "the landowner the order was served on")
    copies_to: list[Party] = cited(S, "the others the order was served on", default_factory=list)
    site: Site = cited(S, "the site the order covered")
    halts_in_effect: list[HaltInEffect] = cited(
        H,
        "the notices of deficiency at the site whose halt stands on the lifting's date: "
        "activities resume only when each is approved, so the notice names them",
        default_factory=list,
        title="halts in effect",
    )


def check(case: LiftCase, pack: Pack, options: Options) -> list[Problem]:
    if case.issued < case.order.served:
        return [
            Problem(
                "issued",
                f"{long_date(case.issued)} is before the order was served "
                f"({long_date(case.order.served)}): an order is lifted after it took effect",
                S,
            )
        ]
    return []


def context(case: LiftCase, pack: Pack, options: Options) -> CaseContext:
    return numbered_case(case, pack, KIND.name, "Notice Lifting Stop-Work Order")


KIND = Kind(
    name="stop-work-lifted",
    title="Notice lifting a stop-work order",
    model=LiftCase,
    template="notices/stop_work_lifted.html.j2",
    renditions=COURTESY_LANGUAGES,  # courtesy copies (LAW.md § 13)
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the written notice that the Village confirmed compliance and lifts the order",
    needs=("enforcement",),
    lifts=True,
    copies=True,
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)
