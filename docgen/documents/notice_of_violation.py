"""Notice of violation (§ 228-79C(1)): the six elements (a)-(f), each checked before rendering.

A notice missing one of the six elements is defective, so ``check`` reports every missing
or wrong element by its letter and section; ``context`` adds the penalty statement for
the recipient (element (e), from the penalty engine) and the appeal deadline (element
(f), GCL § 25-a roll-forward, from docgen.law.deadlines).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
from docgen.cases.enforcement import Recipient, Remedy, ServedInfo, Violation
from docgen.cases.penalty import Offense, PriorOffense
from docgen.documents.base import Context, DocMeta, Kind, Options
from docgen.documents.penalty_statement import penalty_assessment, penalty_context
from docgen.errors import CaseInvalid, Problem
from docgen.law.deadlines import Deadline, appeal_deadline
from docgen.law.pack import Pack

N = "§ 228-79C(1)"
A, B, C, D, E, F = (f"{N}({letter})" for letter in "abcdef")


class NoticeCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(N, "notice number")
    issued: IsoDate = cited(N, "date the notice is issued")
    served: ServedInfo | None = cited(F, "date and method of service", default=None)
    officer: NameAndTitle = cited("§ 228-77D(2)", "the issuing officer")
    recipient: Recipient | None = cited(A, "the landowner, developer or applicant", default=None)
    copies_to: list[Party] = cited(N, "copies to the developer or applicant", default_factory=list)
    site: Site | None = cited(B, "where the violation occurs", default=None)
    violations: list[Violation] = cited(C, default_factory=list)
    remedies: list[Remedy] = cited(D, default_factory=list)
    offense: Offense | None = cited(E, "the offense the penalty is assessed for", default=None)
    prior_offenses: list[PriorOffense] = cited(E, default_factory=list)


def element_problems(case: Any) -> list[Problem]:
    """Elements (a) to (d) and (f): present, and dated consistently with the issue date."""
    problems: list[Problem] = []
    who = "the landowner, developer or applicant"
    if case.recipient is None:
        problems.append(Problem("recipient", f"missing (a): the name and address of {who}", A))
    else:
        if case.recipient.name is None:
            problems.append(Problem("recipient.name", f"missing (a): the name of {who}", A))
        if case.recipient.address is None:
            problems.append(Problem("recipient.address", f"missing (a): the address of {who}", A))
    if case.site is None or (case.site.address is None and case.site.description is None):
        problems.append(
            Problem(
                "site",
                "missing (b): the address when available, or a description, of the building, "
                "structure or land upon which the violation is occurring (give site.address "
                "or site.description)",
                B,
            )
        )
    if not case.violations:
        problems.append(
            Problem(
                "violations",
                "missing (c): a statement specifying the nature of the violation (list each "
                "violation: provision, nature, date observed)",
                C,
            )
        )
    for i, v in enumerate(case.violations):
        if v.observed > case.issued:
            problems.append(
                Problem(
                    f"violations[{i}].observed",
                    f"(c) observed {v.observed.isoformat()}, after the issue date "
                    f"{case.issued.isoformat()}; a notice states violations already observed",
                    C,
                )
            )
    problems += remedy_problems(case, required=True)
    problems += service_problems(case, F, "(f)")
    return problems


def remedy_problems(
    case: Any, required: bool, provision: str = D, letter: str = "(d)"
) -> list[Problem]:
    """(d): the remedial measures and a time schedule, every date on or after issue."""
    lead = f"{letter} " if letter else ""
    problems: list[Problem] = []
    if required and not case.remedies:
        problems.append(
            Problem(
                "remedies",
                "missing (d): a description of the remedial measures necessary to bring the "
                "land development activity into compliance and a time schedule for their "
                "completion (list each remedy: measure, due)",
                D,
            )
        )
    for i, r in enumerate(case.remedies):
        if r.due < case.issued:
            problems.append(
                Problem(
                    f"remedies[{i}].due",
                    f"{lead}due {r.due.isoformat()}, before the issue date "
                    f"{case.issued.isoformat()}; the time schedule runs from the issue date",
                    provision,
                )
            )
    return problems


def service_problems(case: Any, provision: str, letter: str = "") -> list[Problem]:
    """Service: a date (for a notice, element (f): the appeal period runs from it), a
    method, and not before the issue date."""
    lead = f"{letter} " if letter else ""
    problems: list[Problem] = []
    if case.served is None or case.served.date is None:
        why = (
            "the appeal period runs from service, so the last day to appeal cannot be stated"
            if letter
            else "the certificate of service states it"
        )
        problems.append(Problem("served.date", f"missing {lead}service date: {why}", provision))
    elif case.served.date < case.issued:
        problems.append(
            Problem(
                "served.date",
                f"{lead}served {case.served.date.isoformat()}, before the issue date "
                f"{case.issued.isoformat()}; a document is served on or after its issue date",
                provision,
            )
        )
    if case.served is None or case.served.method is None:
        problems.append(
            Problem(
                "served.method",
                "missing method of service (e.g. personal delivery, certified mail), "
                "for the certificate of service",
                N,
            )
        )
    return problems


def penalty_problems(case: Any, pack: Pack) -> list[Problem]:
    """(e): the penalty statement needs an offense, and a history the engine accepts."""
    if case.offense is None:
        return [
            Problem(
                "offense",
                "missing (e): a statement of the penalty or penalties that shall or may be "
                "assessed needs the offense (offense: {committed: YYYY-MM-DD})",
                E,
            )
        ]
    try:
        penalty_assessment(case, pack)
    except CaseInvalid as err:
        return [Problem(p.field, f"(e) {p.message}", p.provision or E) for p in err.problems]
    return []


def check(case: NoticeCase, pack: Pack, options: Options) -> list[Problem]:
    return element_problems(case) + penalty_problems(case, pack)


@dataclass(frozen=True, kw_only=True)
class NoticeContext(Context):
    case: NoticeCase
    penalty: dict[str, Any]  # element (e), the penalty statement's own (penalty_context)
    deadline: Deadline


def context(case: NoticeCase, pack: Pack, options: Options) -> NoticeContext:
    title = "Notice of Violation"
    return NoticeContext(
        case=case,
        penalty=penalty_context(case, pack),
        deadline=appeal_deadline(case.served.date if case.served else None, pack),
        doc=DocMeta.numbered(KIND.name, title, case.number, pack, case.issued),
    )


KIND = Kind(
    name="notice-of-violation",
    title="Notice of violation",
    model=NoticeCase,
    template="notices/notice_of_violation.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the six elements the article requires, the penalty and the appeal deadline",
)
