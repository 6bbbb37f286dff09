"""Requirement to submit the site log book's reports (§ 228-79A(4), B(3); LAW.md § 12).

"The [municipality's] CEO may require monitoring and reporting from entities subject to
this law as are necessary to determine compliance with this law." The letter names the
site, the inspections the log book is required to hold (§ 228-78D(2)), each gap the
register computed with its provision, and the day by which the reports are to be
submitted. Its case is made from the site's log book (docgen.register.sites.logbook).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
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
from docgen.documents.kind import (
    Context,
    DocMeta,
    Kind,
    Options,
    issued_on,
    recipient_of,
    site_of,
    site_problems,
)
from docgen.documents.notice_of_deficiency import ADDRESSED
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

R = "@logbook.require_reports"


class Missing(Model):
    start: IsoDate = cited(R, "the last inspection (or the start of work) before the gap")
    due: IsoDate = cited(R, "the last day an inspection was due")
    why: Text = cited(R, "what is missing")
    provision: Line = cited(R, "the provision requiring the inspection")


class ReportCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(R, "letter number")
    issued: IsoDate = cited(R, "date of the letter")
    officer: NameAndTitle = cited(R, "the officer who requires the reports")
    recipient: Party = cited(R, "the applicant or developer")
    site: Site = cited(R, "the site")
    period_from: IsoDate = cited(R, "the first day of the reports required", title="from")
    period_to: IsoDate = cited(R, "the last day of the reports required", title="to")
    gaps: list[Missing] = cited(
        R, "the inspections the log book does not show", default_factory=list
    )
    submit_by: IsoDate = cited(R, "the day the reports are to be submitted", title="submit by")


def check(case: ReportCase, pack: Pack, options: Options) -> list[Problem]:
    problems = site_problems(case, pack, "needs an address or a description of the site")
    if case.submit_by <= case.issued:
        problems.append(
            Problem(
                "submit_by",
                f"{long_date(case.submit_by)} is not after the letter's date "
                f"{long_date(case.issued)}; give time to submit the reports",
                R,
            )
        )
    if case.period_to < case.period_from or case.period_to > case.issued:
        problems.append(
            Problem(
                "period_to", "the period runs from its first day to a day not after the letter", R
            )
        )
    if case.recipient.role == "landowner":
        problems.append(
            Problem(
                "recipient.role",
                "the site log book is the applicant's or developer's; address it to them",
                R,
            )
        )
    return problems


@dataclass(frozen=True, kw_only=True)
class ReportContext(Context):
    case: ReportCase


def context(case: ReportCase, pack: Pack, options: Options) -> ReportContext:
    return ReportContext(
        case=case, doc=DocMeta.numbered(KIND.name, KIND.heading, case.number, pack, case.issued)
    )


KIND = Kind(
    name="report-requirement",
    title="Requirement to submit reports",
    heading="Requirement to Submit Inspection Reports",
    model=ReportCase,
    template="inspections/report_requirement.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css", "inspections/inspection.css"),
    summary="the officer requires the site log book's reports, naming the gaps found",
    needs=("logbook",),
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)


def from_log(
    log: Any, persons: list[dict[str, Any]], officer: dict[str, Any], issued: date, submit_by: date
) -> dict[str, Any]:
    """The letter's case from a site's log book (docgen.register.sites.logbook.Log) and the
    persons and officer of the site's latest inspection report."""
    addressed = [p for p in persons if p["role"] in ADDRESSED]
    return {
        "jurisdiction": log.jurisdiction,
        "issued": issued.isoformat(),
        "officer": officer,
        "recipient": addressed[0] if addressed else (persons[0] if persons else None),
        "site": {"description": log.site},
        "period_from": log.started.isoformat(),
        "period_to": issued.isoformat(),
        "gaps": [
            {
                "start": g.start.isoformat(),
                "due": g.due.isoformat(),
                "why": g.why,
                "provision": g.provision,
            }
            for g in log.gaps
        ],
        "submit_by": submit_by.isoformat(),
    }
