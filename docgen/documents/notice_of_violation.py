"""Notice of violation: the elements its law requires, each checked before rendering.

The pack lists the elements in its law's order and lettering (six, (a) to (f), in §
228-79C(1); five, without an appeal, in other adopters' laws): a notice missing one is
defective, so ``check`` reports every missing or wrong element by its letter and section,
and never asks for one the law does not list. ``context`` adds the penalty statement for
the recipient (the penalty element, from the penalty engine) and, where the law gives an
appeal, the appeal deadline (GCL § 25-a roll-forward, from docgen.law.deadlines)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
from docgen.cases.enforcement import Recipient, Remedy, ServedInfo, Violation
from docgen.cases.penalty import PriorOffense
from docgen.documents.kind import (
    COURTESY_LANGUAGES,
    Context,
    DocMeta,
    Kind,
    Options,
    charged,
    earliest_remedy,
    issued_on,
    recipient_of,
    site_of,
)
from docgen.documents.penalty_statement import (
    PenaltyTerms,
    penalty_assessment,
    penalty_context,
)
from docgen.errors import CaseInvalid, Problem
from docgen.law.deadlines import (
    Deadline,
    Service,
    appeal_deadline,
    long_date,
    non_business_day,
    service_start,
)
from docgen.law.pack import Pack
from docgen.law.provisions import citation_problem

# The notice's elements (a) to (f), cited from the jurisdiction's pack.
N = "@enforcement.elements"
A, B, C, D, E, F = (
    f"{N}.{element}" for element in ("addressee", "site", "nature", "remedies", "penalty", "appeal")
)


class NoticeCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(N, "notice number")
    issued: IsoDate = cited(N, "date the notice is issued")
    served: ServedInfo | None = cited(F, "date and method of service", default=None)
    officer: NameAndTitle = cited("@officer", "the issuing officer")
    recipient: Recipient | None = cited(
        A, "the landowner, to whom the notice is issued", default=None
    )
    copies_to: list[Party] = cited(
        A, "the developer or applicant, named in (a) and sent a copy", default_factory=list
    )
    site: Site | None = cited(B, "where the violation occurs", default=None)
    violations: list[Violation] = cited(C, default_factory=list)
    remedies: list[Remedy] = cited(D, default_factory=list)

    # Keys a notice refuses with a reason, not just "not a key" (docgen.cases.validate).
    REFUSED: ClassVar[dict[str, tuple[str, str]]] = {
        "offense": (
            "is not read in a notice: each violation counts on its own, so give each "
            "violation its observed date and, if it continued, continued_through",
            E,
        )
    }
    prior_offenses: list[PriorOffense] = cited(E, default_factory=list)


def element_problems(case: Any, pack: Pack) -> list[Problem]:
    """The elements the pack lists: present, and dated consistently with the issue date.
    A notice without ``served`` is printed before service (LAW.md § 2): the appeal element
    states the period from service and when service is complete, not a last day."""
    enforcement = pack.part("enforcement")
    letter = enforcement.elements.letter
    problems = addressee_problems(case, A, letter("addressee"), enforcement.addressees())
    no_site = case.site is None or (case.site.address is None and case.site.description is None)
    if enforcement.elements.site is not None and no_site:
        problems.append(
            Problem(
                "site",
                f"missing {letter('site')}: the address when available, or a description, of "
                "the building, structure or land upon which the violation is occurring (give "
                "its address or a description)",
                B,
            )
        )
    nature = letter("nature")
    problems += violation_problems(case, pack, C, f"{nature} " if nature else "")
    required = enforcement.elements.remedies is not None
    problems += remedy_problems(case, required, D, letter("remedies"))
    if case.served is not None:
        problems += service_problems(case, F, letter("appeal"))
    return problems


def addressee_problems(
    case: Any, provision: str, letter: str, roles: Sequence[str] = ("landowner",)
) -> list[Problem]:
    """To whom the law issues a notice (§ 228-79C(1): "to the landowner", as a
    stop-work order is served on the landowner; another adopter's "to the landowner,
    applicant and/or developer"): the others are named beside and copied."""
    lead = f"{letter}: " if letter else ""
    whom = " or ".join(roles)
    if case.recipient is None:
        return [
            Problem(
                "recipient",
                f"missing {lead}the name and address of the {whom}, to whom it is issued",
                provision,
            )
        ]
    problems = []
    role = case.recipient.role
    if role not in roles:
        problems.append(
            Problem(
                "recipient.role",
                f"{lead}is {role}, but it is issued to the {whom}; put the {whom} in "
                f"recipient and the {role} in copies_to",
                provision,
            )
        )
    else:
        whom = role
    if case.recipient.name is None:
        problems.append(
            Problem("recipient.name", f"missing {lead}the name of the {whom}", provision)
        )
    if case.recipient.address is None:
        problems.append(
            Problem("recipient.address", f"missing {lead}the address of the {whom}", provision)
        )
    return problems


def violation_problems(case: Any, pack: Pack, provision: str, lead: str = "") -> list[Problem]:
    """Each violation: a real provision of the article, observed by the issue date."""
    problems: list[Problem] = []
    if not case.violations:
        problems.append(
            Problem(
                "violations",
                f"missing {lead}a statement specifying the nature of the violation (list each "
                "violation: provision, nature, date observed)",
                provision,
            )
        )
    for i, v in enumerate(case.violations):
        unknown = citation_problem(v.provision, pack)
        if unknown:
            problems.append(Problem(f"violations[{i}].provision", lead + unknown, provision))
        if v.observed > case.issued:
            problems.append(
                Problem(
                    f"violations[{i}].observed",
                    f"{lead}observed {long_date(v.observed)}, after the issue date "
                    f"{long_date(case.issued)}; it states violations already observed",
                    provision,
                )
            )
    return problems


def remedy_problems(case: Any, required: bool, provision: str, letter: str) -> list[Problem]:
    """(d): the remedial measures and a time schedule, every date on or after issue."""
    lead = f"{letter} " if letter else ""
    problems: list[Problem] = []
    if required and not case.remedies:
        problems.append(
            Problem(
                "remedies",
                f"missing {letter}: a description of the remedial measures necessary to bring the "
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
                    f"{lead}due {long_date(r.due)}, before the issue date "
                    f"{long_date(case.issued)}; the time schedule runs from the issue date",
                    provision,
                )
            )
    return problems


def service_problems(case: Any, provision: str, letter: str = "") -> list[Problem]:
    """Service: a date (for a notice, element (f): the appeal period runs from it), a
    method, not before the issue date, and (for a notice) the means whose rule the appeal
    period runs by, with the dates that rule reads."""
    lead = f"{letter} " if letter else ""
    problems: list[Problem] = []
    served = case.served
    if served is None or served.date is None:
        why = (
            "the appeal period runs from service, so the last day to appeal cannot be stated"
            if letter
            else "the certificate of service states it"
        )
        problems.append(Problem("served.date", f"missing {lead}service date: {why}", provision))
    elif served.date < case.issued:
        problems.append(
            Problem(
                "served.date",
                f"{lead}served {long_date(served.date)}, before the issue date "
                f"{long_date(case.issued)}; a document is served on or after its issue date",
                provision,
            )
        )
    if served is None or served.method is None:
        problems.append(
            Problem(
                "served.method",
                "missing method of service in words (e.g. certified mail, return receipt "
                "requested), for the certificate of service",
                N,
            )
        )
    else:
        problems += method_problems(served.method)
    if served is not None:
        problems += means_problems(served, provision, lead, required=bool(letter))
    return problems


# Words that begin a sentence of what was done, not a means: the certificate of service
# prints "served ... by" and the method, so "posted at the site entrance" would read
# "by posted at the site entrance".
DONE_WORDS = frozenset(
    [
        "affixed",
        "attached",
        "delivered",
        "emailed",
        "given",
        "handed",
        "left",
        "mailed",
        "placed",
        "posted",
        "sent",
        "served",
        "taped",
    ]
)


def method_problems(method: str) -> list[Problem]:
    """The method of service in words must complete "served ... by" as it is printed."""
    words = method.split()
    first = words[0].lower() if words else ""
    if first == "by":
        why = "starts with 'by', which the certificate of service already prints before it"
    elif first in DONE_WORDS:
        why = f"reads 'by {method}' in the certificate of service"
    else:
        return []
    return [
        Problem(
            "served.method",
            f"'{method}' {why}; write how it was served as it follows 'by', e.g. "
            "'posting at the site entrance' or 'certified mail, return receipt requested'",
            N,
        )
    ]


def means_problems(served: Any, provision: str, lead: str, required: bool) -> list[Problem]:
    """The dates each means of service needs for its rule (LAW.md §2), and no others."""
    problems = []
    if served.means is None:
        if required:
            problems.append(
                Problem(
                    "served.means",
                    f"missing {lead}means of service (personal, mail or posting): the appeal "
                    "period runs from delivery, from receipt by mail, or from posting and "
                    "mailing",
                    provision,
                )
            )
    elif served.means == "posting" and served.mailed is None:
        problems.append(
            Problem(
                "served.mailed",
                f"missing {lead}the date the posted notice was also mailed: by posting, the "
                "appeal period runs from the later of posting and mailing",
                provision,
            )
        )
    if served.received is not None:
        if served.means != "mail":
            problems.append(
                Problem(
                    "served.received",
                    "is a date of receipt by mail; the means of service is not mail",
                    provision,
                )
            )
        elif served.date is not None and served.received < served.date:
            problems.append(
                Problem(
                    "served.received",
                    f"received {long_date(served.received)}, before it was mailed "
                    f"({long_date(served.date)})",
                    provision,
                )
            )
    if served.mailed is not None and served.means != "posting":
        problems.append(
            Problem(
                "served.mailed",
                "is the mailing date of a posted notice; means is not posting (by mail, "
                "served.date is the mailing date)",
                provision,
            )
        )
    return problems


def penalty_problems(case: Any, pack: Pack) -> list[Problem]:
    """The penalty element counts each violation with its own dates, and the history must
    be one the engine accepts."""
    letter = pack.part("enforcement").elements.letter("penalty")
    if not case.violations:
        return [
            Problem(
                "violations",
                f"missing {letter or 'the penalty'}: a statement of the penalty or penalties "
                "that shall or may be assessed counts the violations listed, each with its "
                "own dates",
                E,
            )
        ]
    try:
        penalty_assessment(case, pack)
    except CaseInvalid as err:
        lead = f"{letter} " if letter else ""
        return [Problem(p.field, f"{lead}{p.message}", p.provision or E) for p in err.problems]
    return []


def remedy_warnings(case: Any, pack: Pack) -> list[str]:
    """A remedy due on a Saturday, Sunday or public holiday: the clerk may want to move it."""
    out = []
    for i, r in enumerate(case.remedies):
        why = non_business_day(r.due, pack)
        if why:
            out.append(
                f"remedies[{i}].due: {why}, so the measure is due on a day that is not a "
                "business day; consider the next business day"
            )
    return out


def check(case: NoticeCase, pack: Pack, options: Options) -> list[Problem]:
    problems = element_problems(case, pack)
    return problems + penalty_problems(case, pack)


def warnings(case: NoticeCase, pack: Pack, options: Options) -> list[str]:
    return remedy_warnings(case, pack)


@dataclass(frozen=True, kw_only=True)
class NoticeContext(Context):
    case: NoticeCase
    penalty: PenaltyTerms  # element (e): the penalty statement's own terms
    # The day the appeal period runs from (and the rule that gave it) and its last day;
    # both None for a notice printed before service (LAW.md § 2: print first, serve second).
    service: Service | None
    deadline: Deadline | None


def context(case: NoticeCase, pack: Pack, options: Options) -> NoticeContext:
    title = "Notice of Violation"
    service, deadline = None, None
    if case.served is not None and pack.part("enforcement").appealable:
        service = service_start(case.served, pack)  # checked: absent before service
        deadline = appeal_deadline(service.start, pack)
    return NoticeContext(
        case=case,
        penalty=penalty_context(case, pack),
        service=service,
        deadline=deadline,
        doc=DocMeta.numbered(KIND.name, title, case.number, pack, case.issued),
        warnings=tuple(warnings(case, pack, options)),
    )


KIND = Kind(
    name="notice-of-violation",
    title="Notice of violation",
    heading="Notice of Violation",
    model=NoticeCase,
    template="notices/notice_of_violation.html.j2",
    renditions=COURTESY_LANGUAGES,  # courtesy copies (LAW.md § 13)
    context=context,
    check=check,
    warnings=warnings,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the elements the article requires, the penalty and the appeal deadline",
    needs=("enforcement", "penalties", "offices"),
    served=True,
    copies=True,
    appealable=True,
    reads_history=True,
    opens_matter=True,
    new_notice_from=True,
    follows=(
        "notice-of-deficiency",
    ),  # its open items escalated (docgen.register.matter.inspections)
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
    charge=charged,
    remedies_due=earliest_remedy,
)
