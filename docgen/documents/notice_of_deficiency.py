"""Notice of deficiency (§ 228-79A(1); LAW.md § 11): the officer's written notice to the
applicant and/or developer of the deficiencies an inspection found.

Where deficiencies or violations are found, the officer "shall notify the applicant
and/or developer in writing of the nature of the deficiency or violation and any required
corrective actions". The notice is addressed to the developer or applicant (both when both
are known: the other is in ``copies_to`` with the same role); the landowner, when a
different person, gets a copy. Per deficiency it states what, where, when observed and the
provision or SWPPP requirement, and the corrective action required with its date (a
reading: the article gives no schedule). It states the law's consequence in the law's
words, from service; the right of entry; how to ask for the reinspection; the officer.
Print first, serve second: it is issued, then served and proved like a notice of
violation. It carries no appeal statement: A(1) gives none, and C(1)(f)'s is not borrowed.

Its case is made from the inspection report in the register (docgen.register.matter.inspections):
nothing is typed twice.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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
from docgen.cases.enforcement import CITATION
from docgen.documents import KINDS, inspection_report
from docgen.documents.kind import (
    COURTESY_LANGUAGES,
    Context,
    DocMeta,
    Kind,
    Options,
    issued_on,
    recipient_of,
    site_of,
    site_problems,
)
from docgen.errors import CaseInvalid, Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack
from docgen.law.provisions import unknown_provision

N = "@inspection.notify"
DATES = "@inspection.corrective_dates"
ADDRESSED = ("developer", "applicant")  # § 228-79A(1): "the applicant and/or developer"


class InspectionRef(Model):
    number: Line = cited(N, "the inspection report's number")
    inspected: IsoDate = cited(N, "the day of the inspection", title="date inspected")


class Deficiency(Model):
    """One deficiency, as the inspection report recorded it."""

    item: int = cited(N, "its number in this notice (1 for the first)", title="deficiency number")
    practice: Line = cited(N, "the practice or measure found deficient")
    found: Text = cited(N, "what was found (the nature of the deficiency)")
    location: Text | None = cited(N, "where on the site", default=None)
    observed: IsoDate = cited(N, "the day it was observed")
    requirement: Text = cited(
        N, "the provision or SWPPP requirement it falls short of", title="provision or SWPPP"
    )
    corrective_action: Text = cited(N, "the corrective action required")
    due: IsoDate = cited(DATES, "the date it must be complete", title="complete by")
    finding: int | None = cited(N, "its finding number in the report", default=None)


class DeficiencyCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(N, "notice number")
    issued: IsoDate = cited(N, "date the notice is issued")
    officer: NameAndTitle = cited("@inspection.may_inspect", "the officer who found them")
    recipient: Party = cited(N, "the developer or applicant to whom it is addressed")
    copies_to: list[Party] = cited(
        N,
        "the other of developer and applicant (also addressed), and the landowner (a copy)",
        default_factory=list,
    )
    site: Site = cited(N, "the site inspected")
    inspection: InspectionRef = cited(N, "the inspection that found the deficiencies")
    deficiencies: list[Deficiency] = cited(N, "each deficiency found")


def check(case: DeficiencyCase, pack: Pack, options: Options) -> list[Problem]:
    problems = site_problems(case, pack, "needs an address or a description of the site")
    if case.recipient.role not in ADDRESSED:
        problems.append(
            Problem(
                "recipient.role",
                f"is {case.recipient.role}; a notice of deficiency is addressed to the applicant "
                "and/or developer (the landowner, when different, gets a copy)",
                N,
            )
        )
    if not case.deficiencies:
        problems.append(
            Problem("deficiencies", "missing: the inspection found no deficiency to notify", N)
        )
    if case.inspection.inspected > case.issued:
        problems.append(
            Problem(
                "inspection.inspected",
                f"{long_date(case.inspection.inspected)} is after the issue date "
                f"{long_date(case.issued)}; a notice states deficiencies already found",
                N,
            )
        )
    for i, d in enumerate(case.deficiencies):
        where = f"deficiencies[{i}]"
        if d.item != i + 1:
            problems.append(
                Problem(f"{where}.item", f"{d.item}: the deficiencies are numbered 1, 2...", N)
            )
        if CITATION.fullmatch(d.requirement):
            unknown = unknown_provision(d.requirement, pack)
            if unknown:
                problems.append(Problem(f"{where}.requirement", unknown, N))
        if d.observed > case.issued:
            problems.append(
                Problem(
                    f"{where}.observed",
                    f"{long_date(d.observed)} is after the issue date {long_date(case.issued)}",
                    N,
                )
            )
        if d.due < max(d.observed, case.issued):
            problems.append(
                Problem(
                    f"{where}.due",
                    f"{long_date(d.due)} is before the "
                    + (
                        f"inspection ({long_date(d.observed)})"
                        if d.due < d.observed
                        else f"issue date ({long_date(case.issued)})"
                    )
                    + "; a corrective action is due after the notice states it",
                    DATES,
                )
            )
    return problems


def earliest_due(case: Any) -> Any:
    return min((d.due for d in case.deficiencies), default=None)


@dataclass(frozen=True, kw_only=True)
class DeficiencyContext(Context):
    case: DeficiencyCase
    addressed: tuple[Party, ...]  # the developer and/or applicant
    copied: tuple[Party, ...]  # the landowner, when a different person


def context(case: DeficiencyCase, pack: Pack, options: Options) -> DeficiencyContext:
    addressed = (case.recipient, *(p for p in case.copies_to if p.role in ADDRESSED))
    return DeficiencyContext(
        case=case,
        addressed=addressed,
        copied=tuple(p for p in case.copies_to if p.role not in ADDRESSED),
        doc=DocMeta.numbered(KIND.name, KIND.heading, case.number, pack, case.issued),
    )


KIND = Kind(
    name="notice-of-deficiency",
    title="Notice of deficiency",
    heading="Notice of Deficiency",
    model=DeficiencyCase,
    template="inspections/notice_of_deficiency.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css", "inspections/inspection.css"),
    summary="the deficiencies an inspection found and the corrective action each requires",
    needs=("inspection",),
    made_from=("inspection-report",),
    halts=True,  # § 228-79A(1): work halts on service until the deficiencies are corrected
    served=True,
    copies=True,
    renditions=COURTESY_LANGUAGES,  # courtesy copies (LAW.md § 13)
    permission="enforce",
    issued=issued_on,
    party=recipient_of,
    site=site_of,
    remedies_due=earliest_due,
)


# -- made from an inspection report's stored case (the register's JSON) --------------------
def from_inspection(
    report: dict[str, Any], number: str, issued: date, pack: Pack
) -> dict[str, Any]:
    """The case of the notice of deficiency an inspection report's findings call for:
    addressed to its developer and/or applicant, the landowner copied when a different
    person, each deficient finding a deficiency with its corrective action and date.
    Nothing is typed again; CaseInvalid when the report has no deficiency or names no
    developer or applicant to notify."""
    cite = pack.cite(N[1:])
    persons = report.get("persons") or []
    addressed = [p for p in persons if p["role"] in ADDRESSED]
    names = {" ".join(p["name"].split()).casefold() for p in addressed}
    copied = [
        p
        for p in persons
        if p["role"] not in ADDRESSED and " ".join(p["name"].split()).casefold() not in names
    ]
    deficiencies = [
        {
            "item": n,
            "practice": f["practice"],
            "found": f["found"],
            "location": f.get("location"),
            "observed": report["inspected"],
            "requirement": f["requirement"],
            "corrective_action": f["corrective_action"],
            "due": f["due"],
            "finding": i + 1,
        }
        for n, (i, f) in enumerate(
            ((i, f) for i, f in enumerate(report["findings"]) if f["result"] == "deficient"),
            start=1,
        )
    ]
    problems = []
    if not deficiencies:
        problems.append(
            Problem(
                "findings",
                f"Inspection Report No. {number} found no deficiency: there is nothing to notify",
                cite,
            )
        )
    if not addressed:
        problems.append(
            Problem(
                "persons",
                f"Inspection Report No. {number} names no developer or applicant; the notice is "
                "addressed to the applicant and/or developer",
                cite,
            )
        )
    if problems:  # about the report's own fields: its findings, its persons
        raise CaseInvalid(problems, number, kind=inspection_report.KIND.name)
    return {
        "jurisdiction": report["jurisdiction"],
        "issued": issued.isoformat(),
        "officer": report["officer"],
        "recipient": addressed[0],
        "copies_to": [*addressed[1:], *copied],
        "site": report["site"],
        "inspection": {"number": number, "inspected": report["inspected"]},
        "deficiencies": deficiencies,
    }


# -- escalation: a notice of violation or a stop-work order from the open deficiencies ----
# How an escalated violation names the notice of deficiency it comes from (escalated, below)
TITLE = "Notice of Deficiency No."
NAMED = re.compile(r"\(deficiency \d+ of " + re.escape(TITLE) + r" ([^,\s]+),")


def escalated_from(violations: Sequence[dict[str, Any]]) -> list[str]:
    """The numbers of the notices of deficiency ``violations`` (of a notice of violation or
    a stop-work order, as its case holds them) say they escalate, as :func:`escalated`
    words each one, in order, once each: what the register checks the document's date
    against (it answers a served notice, LAW.md § 11), whoever typed the case's date."""
    found = (NAMED.search(str(v.get("nature") or "")) for v in violations)
    return list(dict.fromkeys(m.group(1) for m in found if m))


def escalation_kinds() -> tuple[str, ...]:
    """The kinds a notice of deficiency escalates to: those stating violations at a site
    to a landowner (the notice of violation, the stop-work order)."""
    return tuple(
        name
        for name, kind in KINDS.items()
        if kind.served and {"violations", "recipient", "site"} <= set(kind.model.model_fields)
    )


def rechecks(
    item: int, rechecked: Sequence[tuple[str, dict[str, Any]]], through: date
) -> list[tuple[date, str, bool]]:
    """What the reinspections of a notice (``rechecked``: each report's number and case)
    made on or before ``through`` found of its deficiency ``item``: per finding about it,
    the day, the report's number and whether it was found still open, oldest first."""
    found = []
    for number, case in rechecked:
        day = date.fromisoformat(str(case["inspected"]))
        if day > through:
            continue
        for f in case.get("findings") or []:
            if _number(f.get("corrects")) == item:
                found.append((day, number, f.get("result") == "deficient"))
    return sorted(found)


def _number(value: Any) -> int | None:
    """A deficiency's number as a stored case holds it: a number, or the text the desk's
    form sent ("1"), as the case model read it when it was issued."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def seen_open(
    deficiency: dict[str, Any], rechecked: Sequence[tuple[str, dict[str, Any]]], through: date
) -> tuple[date, str] | bool | None:
    """The latest reinspection on or after the deficiency's date (and on or before
    ``through``) that found it not corrected, as its day and report number (LAW.md § 11: "not
    corrected by DATE" needs an inspection on or after DATE that found it not corrected);
    False when the latest reinspection of it found it corrected (it awaits approval, it
    has not failed); None when no reinspection on or after its date saw it."""
    due = date.fromisoformat(str(deficiency["due"]))
    checks = rechecks(deficiency["item"], rechecked, through)
    if checks and not checks[-1][2]:
        return False
    seen = [(day, number) for day, number, still in checks if still and day >= due]
    return seen[-1] if seen else None


def escalated(
    notice: dict[str, Any],
    number: str,
    still_open: set[int],
    kind: Kind,
    issued: date,
    due: date,
    pack: Pack,
    rechecked: Sequence[tuple[str, dict[str, Any]]],
    asking: bool = False,
) -> dict[str, Any]:
    """The case of ``kind`` (a notice of violation or a stop-work order) from the
    deficiencies of ``notice`` still open and past their dates on ``issued``: the site, the
    landowner (to whom it goes) and the developer or applicant (copied), each deficiency a
    violation with its provision and the day first observed, its corrective action the
    remedy due ``due``.

    A document states only what someone observed (LAW.md § 11): each violation says it was
    not corrected by the day of the latest reinspection (``rechecked``: the reinspections
    of the notice in the register, each its number and case) that found it not corrected,
    on or after its date, naming that report, and continues through that day (each week a
    separate additional violation, § 228-79C(4)). A deficiency the latest reinspection found
    corrected is not escalated (it awaits approval). CaseInvalid names what is missing (no
    landowner, nothing past its date, a deficiency cited only to the SWPPP, a deficiency
    past its date that no reinspection on or after that date found not corrected).

    ``asking`` (a draft the officer finishes, issue 52 item 2): no landowner named and a
    deficiency cited only to the SWPPP are no refusal; the draft leaves the recipient's name
    and address and that violation's provision empty, for the officer to give (its checks
    ask for them beside their fields)."""
    cite = pack.cite(N[1:])
    persons = [notice["recipient"], *(notice.get("copies_to") or [])]
    landowners = [p for p in persons if p["role"] == "landowner"]
    past = [
        d
        for d in notice["deficiencies"]
        if d["item"] in still_open and date.fromisoformat(d["due"]) < issued
    ]
    seen = {d["item"]: seen_open(d, rechecked, issued) for d in past}
    late = [d for d in past if seen[d["item"]] is not False]
    problems = []
    if not landowners and not asking:
        problems.append(
            Problem(
                "copies_to",
                f"Notice of Deficiency No. {number} names no landowner; a {kind.title.lower()} "
                "goes to the landowner",
                cite,
            )
        )
    if not late:
        corrected = [str(d["item"]) for d in past if seen[d["item"]] is False]
        which = "deficiency" if len(corrected) == 1 else "deficiencies"
        problems.append(
            Problem(
                "deficiencies",
                f"no deficiency of Notice of Deficiency No. {number} is open past its date on "
                f"{long_date(issued)}"
                + (
                    f" and not found corrected since ({which} {', '.join(corrected)} found "
                    "corrected on "
                    "reinspection: approve the work)"
                    if corrected
                    else ""
                ),
                cite,
            )
        )
    for d in late:
        if seen[d["item"]] is None:
            problems.append(
                Problem(
                    "",
                    f"deficiency {d['item']} of Notice of Deficiency No. {number} "
                    f"({d['practice']}) was to be corrected by "
                    f"{long_date(date.fromisoformat(d['due']))}, and no reinspection on or after "
                    f"that day, up to {long_date(issued)}, found it not corrected: a document "
                    "states only what was observed. Record the reinspection of the notice first "
                    f"(its report naming Notice of Deficiency No. {number} as the notice it "
                    "reinspects), then escalate from it",
                    f"{cite}; {pack.name.value} practice",
                )
            )
        if not CITATION.fullmatch(d["requirement"]) and not asking:
            problems.append(
                Problem(
                    f"deficiencies[{d['item'] - 1}].requirement",
                    f"{d['requirement']!r} is a SWPPP requirement; a violation cites the "
                    "provision of the article violated",
                    cite,
                )
            )
    if problems:  # about the notice's own fields: its persons, its deficiencies
        raise CaseInvalid(problems, number, kind=KIND.name)
    inspection = notice["inspection"]["number"]
    # Every late deficiency was seen not corrected on a day (None was refused above).
    observed = {item: at for item, at in seen.items() if isinstance(at, tuple)}
    violations = []
    for d in late:
        day, report = observed[d["item"]]
        cited = CITATION.fullmatch(d["requirement"])
        violation = {
            "provision": d["requirement"] if cited else "",  # asking: the officer's to give
            "nature": f"{d['practice']}: {d['found']} (deficiency {d['item']} of {TITLE} "
            f"{number}, found at Inspection Report No. {inspection}, to be "
            f"corrected by {long_date(date.fromisoformat(d['due']))}; not corrected by "
            f"{long_date(day)}, as found at Inspection Report No. {report} of that day)",
            "observed": d["observed"],
            "location": d.get("location"),
        }
        if day > date.fromisoformat(str(d["observed"])):
            violation["continued_through"] = day.isoformat()  # § 228-79C(4): each week
        violations.append(violation)
    data: dict[str, Any] = {
        "jurisdiction": notice["jurisdiction"],
        "issued": issued.isoformat(),
        "officer": notice["officer"],
        "recipient": landowners[0] if landowners else {"role": "landowner"},
        "copies_to": [p for p in persons if p["role"] != "landowner"],
        "site": notice["site"],
        "violations": violations,
        "remedies": [{"measure": d["corrective_action"], "due": due.isoformat()} for d in late],
    }
    fields = kind.model.model_fields
    if "contact" in fields:
        officer = notice["officer"]
        data["contact"] = {
            "name": f"{officer['name']}, {officer['title']}",
            "phone": pack.part("offices").phone.value,
        }
    return {key: value for key, value in data.items() if key in fields}
