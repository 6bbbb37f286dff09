"""Approval of corrected work (§ 228-79A(1); LAW.md § 11): the officer's written approval,
after a reinspection, of the corrective work a notice of deficiency required.

"No further work shall be conducted except for site stabilization until the deficiencies
or violations are corrected and all work previously completed has received approval by
the CEO": the approval names the notice, the deficiencies found corrected on reinspection
(with the reinspection's photos), those still open, and whether work may resume (only
when none is open; a partial approval says which stay open). It is dated on or after the
day the notice was served and the reinspection made. Its case is made from the notice and
the reinspection in the register (docgen.register.matter.inspections).
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
from docgen.documents import inspection_report
from docgen.documents.kind import Context, DocMeta, Kind, Options, issued_on, recipient_of, site_of
from docgen.documents.notice_of_deficiency import Deficiency
from docgen.errors import CaseInvalid, Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

A = "@inspection.approval"
ORDER = "@provisions.stop-work-order"  # an order stays in effect until lifted in writing


class NoticeRef(Model):
    number: Line = cited(A, "the notice of deficiency's number")
    issued: IsoDate = cited(A, "its issue date")
    served: IsoDate = cited(A, "the day it was served", title="date served")


class ReinspectionRef(Model):
    number: Line = cited(A, "the reinspection's report number")
    inspected: IsoDate = cited(A, "the day of the reinspection", title="date reinspected")


class OrderInEffect(Model):
    """A stop-work order at the site in effect on the approval's date (the register's)."""

    number: Line = cited(ORDER, "the stop-work order's number")
    served: IsoDate = cited(ORDER, "the day service of it was complete", title="date served")


class Corrected(Deficiency):
    """A deficiency of the notice, as the reinspection found it."""

    reinspected: Text = cited(A, "what the reinspection found", title="found on reinspection")
    photos: list[int] = cited(A, "the reinspection's photos of it", default_factory=list)


class ApprovalCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(A, "approval number")
    issued: IsoDate = cited(A, "date of the approval")
    officer: NameAndTitle = cited(A, "the officer who approves")
    recipient: Party = cited(A, "the developer or applicant the notice was addressed to")
    copies_to: list[Party] = cited(A, "the others the notice went to", default_factory=list)
    site: Site = cited(A, "the site")
    notice: NoticeRef = cited(A, "the notice of deficiency")
    reinspection: ReinspectionRef = cited(A, "the reinspection")
    corrected: list[Corrected] = cited(A, "the deficiencies found corrected")
    still_open: list[Corrected] = cited(
        A, "the deficiencies still open", default_factory=list, title="still open"
    )
    orders_in_effect: list[OrderInEffect] = cited(
        ORDER,
        "the stop-work orders at the site in effect on the approval's date: work resumes only "
        "when each is lifted, so the approval names them (the register's)",
        default_factory=list,
        title="orders in effect",
    )


def check(case: ApprovalCase, pack: Pack, options: Options) -> list[Problem]:
    problems = []
    if not case.corrected:
        problems.append(
            Problem("corrected", "missing: an approval names the deficiencies found corrected", A)
        )
    for field, day, what in (
        ("notice.served", case.notice.served, "the notice was served"),
        ("reinspection.inspected", case.reinspection.inspected, "the reinspection"),
    ):
        if case.issued < day:
            problems.append(
                Problem(
                    field,
                    f"the approval is dated {long_date(case.issued)}, before {what} "
                    f"({long_date(day)}); it approves work after service and reinspection",
                    A,
                )
            )
    return problems


@dataclass(frozen=True, kw_only=True)
class ApprovalContext(Context):
    case: ApprovalCase
    resumes: bool  # no deficiency of the notice is still open, and no order in effect
    corrected_all: bool  # no deficiency of the notice is still open


def context(case: ApprovalCase, pack: Pack, options: Options) -> ApprovalContext:
    return ApprovalContext(
        case=case,
        resumes=not case.still_open and not case.orders_in_effect,
        corrected_all=not case.still_open,
        doc=DocMeta.numbered(KIND.name, KIND.heading, case.number, pack, case.issued),
    )


def reinspects_a_notice(report: dict[str, Any]) -> bool:
    """Whether an inspection report's stored case is a reinspection of a notice: the
    approval is made from such a report only (docgen.register.matter.inspections)."""
    return bool((report.get("reinspects") or {}).get("notice"))


KIND = Kind(
    name="approval-of-corrected-work",
    title="Approval of corrected work",
    heading="Approval of Corrected Work",
    model=ApprovalCase,
    template="inspections/approval_of_corrected_work.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css", "inspections/inspection.css"),
    summary="the officer's approval, on reinspection, of the work a notice of deficiency required",
    needs=("inspection",),
    permission="enforce",
    made_from=("inspection-report",),
    made_when=reinspects_a_notice,
    issued=issued_on,
    party=recipient_of,
    site=site_of,
)


# -- made from the notice and the reinspection's stored cases (the register's JSON) --------
def from_reinspection(
    notice: dict[str, Any],
    notice_number: str,
    served: date,
    still_open: set[int],
    reinspection: dict[str, Any],
    reinspection_number: str,
    approved: date,
    pack: Pack,
    orders: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The approval's case: each finding of the reinspection about an open deficiency of
    the notice, satisfactory (corrected) or deficient (still open), and ``orders``, the
    stop-work orders at the site in effect on its date (number and service date: work
    resumes only when each is lifted). A finding about a deficiency that is not open is
    refused, naming it (CaseInvalid)."""
    cite = pack.cite(A[1:])
    # Numbers as the case was written: a report issued from the desk keeps them as typed
    # ("1"), one from a case file as numbers; both validated by the report's model.
    findings = {
        int(f["corrects"]): (i + 1, f)
        for i, f in enumerate(reinspection["findings"])
        if f.get("corrects") is not None
    }
    photos: dict[int, list[int]] = {}
    for n, photo in enumerate(reinspection.get("photos") or [], start=1):
        if photo.get("finding"):
            photos.setdefault(int(photo["finding"]), []).append(n)
    problems = [
        Problem(
            f"findings[{finding - 1}].corrects",
            f"deficiency {no} of Notice of Deficiency No. {notice_number} is not open "
            + (
                "(it was approved already)"
                if no <= len(notice["deficiencies"])
                else f"(the notice has deficiencies 1 to {len(notice['deficiencies'])})"
            ),
            cite,
        )
        for no, (finding, _) in findings.items()
        if no not in still_open
    ]
    if problems:  # about the reinspection's own fields: its findings
        raise CaseInvalid(problems, reinspection_number, kind=inspection_report.KIND.name)
    corrected: list[dict[str, Any]] = []
    open_: list[dict[str, Any]] = []
    for d in notice["deficiencies"]:
        if d["item"] not in still_open:
            continue
        seen = findings.get(d["item"])
        item = {**d, "reinspected": seen[1]["found"] if seen else "not reinspected"}
        item["photos"] = photos.get(seen[0], []) if seen else []
        (corrected if seen and seen[1]["result"] == "satisfactory" else open_).append(item)
    return {
        "jurisdiction": notice["jurisdiction"],
        "issued": approved.isoformat(),
        "officer": reinspection["officer"],
        "recipient": notice["recipient"],
        "copies_to": notice.get("copies_to") or [],
        "site": notice["site"],
        "notice": {
            "number": notice_number,
            "issued": notice["issued"],
            "served": served.isoformat(),
        },
        "reinspection": {"number": reinspection_number, "inspected": reinspection["inspected"]},
        "corrected": corrected,
        "still_open": open_,
        "orders_in_effect": list(orders or []),
    }
