"""Stop-work order (§ 228-79C(2); § 228-79A(1)): the served copy and the site placard.

Persons receiving the order halt all land development activities except those that
address the violations (site stabilization among them, § 228-79C(2)); the order stays in effect
until the Village confirms compliance. Both layouts take their words from
templates/notices/_enforcement.html.j2, so the placard says what the served copy says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
from docgen.cases.enforcement import Contact, Remedy, ServedInfo, Violation
from docgen.documents.kind import (
    COURTESY_LANGUAGES,
    Context,
    DocMeta,
    Kind,
    Options,
    earliest_remedy,
    issued_on,
    recipient_of,
    site_of,
    site_problems,
)
from docgen.documents.notice_of_violation import (
    addressee_problems,
    remedy_problems,
    service_problems,
    violation_problems,
)
from docgen.errors import Problem
from docgen.law.deadlines import long_date, service_start
from docgen.law.pack import Pack

S = "@provisions.stop-work-order"  # the stop-work section, as the pack cites it


class StopWorkCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(S, "order number")
    issued: IsoDate = cited(S, "date the order is issued")
    served: ServedInfo | None = cited(S, "date and method of service", default=None)
    officer: NameAndTitle = cited("@officer", "the issuing officer")
    recipient: Party = cited(S, "the landowner, on whom the order is served")
    copies_to: list[Party] = cited(
        S, "the developer or applicant, when known: also served and ordered", default_factory=list
    )
    site: Site = cited(S, "the site where work must stop")
    violations: list[Violation] = cited(S, "the violations leading to the order")
    effective: IsoDate | None = cited(
        S, "the date the order takes effect; by default, on service (LAW.md § 3)", default=None
    )
    notices: list[Line] = cited(S, "numbers of the notices of violation", default_factory=list)
    remedies: list[Remedy] = cited(S, default_factory=list)
    allowed_work: list[Text] = cited(
        "@enforcement.stabilization",
        "work that may continue; by default the corrective work and site stabilization",
        default_factory=list,
    )
    contact: Contact = cited(S, "whom to call to request the inspection that lifts the order")


def check(case: StopWorkCase, pack: Pack, options: Options) -> list[Problem]:
    problems = addressee_problems(case, S, "")
    problems += site_problems(case, pack, "needs an address or a description of the land (or both)")
    if not case.violations:
        problems.append(
            Problem("violations", "missing: the violations leading to the stop-work order", S)
        )
    problems += [p for p in violation_problems(case, pack, S) if p.field != "violations"]
    problems += continued_problems(case, S)
    problems += effective_problems(case, S, pack)
    problems += remedy_problems(case, False, S, "")
    return problems + (service_problems(case, S) if case.served is not None else [])


def continued_problems(case: Any, provision: str) -> list[Problem]:
    """A violation continued through a day after the order's date states what nobody had
    observed yet (LAW.md § 11: an escalation's "not corrected by" day is a reinspection's,
    on or before the document's date); a notice of violation refuses it in its penalty's
    count of the weeks (§ 228-79C(4))."""
    return [
        Problem(
            f"violations[{i}].continued_through",
            f"continued through {long_date(v.continued_through)}, after the issue date "
            f"{long_date(case.issued)}; it states what was already observed",
            provision,
        )
        for i, v in enumerate(case.violations)
        if v.continued_through is not None and v.continued_through > case.issued
    ]


def effective_problems(case: Any, provision: str, pack: Pack | None = None) -> list[Problem]:
    """The order takes effect on service (delivery or posting; mail alone when mail
    service is complete), never before (§ 228-79C(2); LAW.md § 3)."""
    if case.effective is None:
        return []
    if case.effective < case.issued:
        return [
            Problem(
                "effective",
                f"{long_date(case.effective)} is before the issue date {long_date(case.issued)}",
                provision,
            )
        ]
    served = case.served.date if case.served else None
    if served is not None and case.served.means == "mail" and pack is not None:
        served = service_start(case.served, pack).start  # mail: when service is complete
    if served is not None and case.effective < served:
        return [
            Problem(
                "effective",
                f"{long_date(case.effective)} is before service was complete "
                f"({long_date(served)}): the order takes effect on service, never before "
                "(LAW.md § 3)",
                provision,
            )
        ]
    return []


@dataclass(frozen=True, kw_only=True)
class StopWorkContext(Context):
    case: StopWorkCase


def context(case: StopWorkCase, pack: Pack, options: Options) -> StopWorkContext:
    title = "Stop-Work Order"
    suffix = "-placard" if options.layout == "placard" else ""
    return StopWorkContext(
        case=case,
        doc=DocMeta.numbered(KIND.name, title, case.number, pack, case.issued, suffix),
    )


KIND = Kind(
    follows=("notice-of-violation", "notice-of-deficiency"),  # the latter escalated
    name="stop-work-order",
    title="Stop-work order",
    heading="Stop-Work Order",
    model=StopWorkCase,
    template="notices/stop_work_order.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    layouts={"placard": "notices/stop_work_placard.html.j2"},
    # Courtesy renditions (LAW.md § 13): the served order, and the placard posted beside
    # the English one (one page, as the English placard: LAW.md § 3).
    renditions=COURTESY_LANGUAGES,
    posted=("placard",),
    summary="halt land development activities until compliance; a site placard",
    needs=("enforcement",),
    served=True,
    copies=True,
    liftable=True,
    new_notice_from=True,
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
    remedies_due=earliest_remedy,
)
