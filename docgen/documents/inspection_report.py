"""Inspection report (§ 228-79A(1); LAW.md § 11): the record that a site was inspected.

The officer "may perform inspections as necessary to determine compliance": the report
states the facts of one inspection (site, date and time, officer, who was present,
weather), each practice inspected with what was found and whether it is a deficiency, and
the photos taken, each an exhibit with its time. An inspection that found nothing is
recorded too. A deficiency carries what the notice of deficiency needs (the provision or
SWPPP requirement, the corrective action and its date), so the notice is made from the
report without retyping (docgen.register.matter.inspections). A reinspection names the notice
whose corrective work it inspects, and each finding says which deficiency it is about.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Party, Site, cited
from docgen.cases.enforcement import CITATION
from docgen.cases.inspection import Clock, Finding, Photo, Reinspecting
from docgen.documents.exhibits import ExhibitError
from docgen.documents.kind import Context, DocMeta, Kind, Options, issued_on, site_of, site_problems
from docgen.documents.photos import MAX_PHOTOS, prepare_photo
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack
from docgen.law.provisions import unknown_provision
from docgen.render.html import Attachment

INSPECT = "@inspection.may_inspect"
N = "@inspection.notify"
DATES = "@inspection.corrective_dates"


class InspectionCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(INSPECT, "report number")
    issued: IsoDate = cited(INSPECT, "date of the report")
    inspected: IsoDate = cited(INSPECT, "date of the inspection", title="date inspected")
    time: Clock = cited(INSPECT, "time the inspection began (HH:MM)", title="time inspected")
    officer: NameAndTitle = cited(INSPECT, "the officer who inspected")
    site: Site = cited(INSPECT, "the site inspected")
    persons: list[Party] = cited(
        N, "the landowner, developer and applicant, as known", default_factory=list
    )
    present: list[Line] = cited(INSPECT, "who was present at the inspection", default_factory=list)
    weather: Line = cited(INSPECT, "the weather during the inspection")
    findings: list[Finding] = cited(INSPECT, "each practice inspected, with what was found")
    photos: list[Photo] = cited(INSPECT, "photos taken, each an exhibit", default_factory=list)
    reinspects: Reinspecting | None = cited(
        N, "on a reinspection: the notice of deficiency whose work is inspected", default=None
    )


def check(case: InspectionCase, pack: Pack, options: Options) -> list[Problem]:
    problems = site_problems(case, pack, "needs an address or a description of the site")
    again = case.reinspects
    if again is not None and again.issued is not None and case.inspected < again.issued:
        problems.append(
            Problem(
                "inspected",
                f"{long_date(case.inspected)} is before Notice of Deficiency No. {again.notice} "
                f"(issued {long_date(again.issued)}): a reinspection re-checks the work that "
                "notice required, so it is made on or after that day",
                N,
            )
        )
    if case.inspected > case.issued:
        problems.append(
            Problem(
                "inspected",
                f"{long_date(case.inspected)} is after the report's date "
                f"{long_date(case.issued)}; a report states an inspection already made",
                INSPECT,
            )
        )
    if not case.findings:
        problems.append(
            Problem("findings", "missing: each practice inspected, with what was found", INSPECT)
        )
    for i, finding in enumerate(case.findings):
        problems += finding_problems(case, finding, f"findings[{i}]", pack)
    if len(case.photos) > MAX_PHOTOS:
        problems.append(
            Problem(
                "photos", f"{len(case.photos)} photos; an inspection keeps {MAX_PHOTOS}", INSPECT
            )
        )
    for i, photo in enumerate(case.photos):
        where = f"photos[{i}]"
        if photo.taken.date() != case.inspected:
            problems.append(
                Problem(
                    f"{where}.taken",
                    f"{photo.taken:%Y-%m-%d %H:%M} is not on the day of the inspection "
                    f"({long_date(case.inspected)}); a photo of this inspection is taken at it",
                    INSPECT,
                )
            )
        if photo.finding is not None and not 1 <= photo.finding <= len(case.findings):
            problems.append(
                Problem(
                    f"{where}.finding",
                    f"{photo.finding}: the report has findings 1 to {len(case.findings)}",
                    INSPECT,
                )
            )
        try:
            prepare_photo(photo.file, options.case_dir, i + 1, photo.keep_location == "yes")
        except ExhibitError as err:  # outside the case's folder, missing, not an image
            problems.append(Problem(f"{where}.file", str(err), INSPECT))
    return problems


def finding_problems(case: Any, finding: Finding, where: str, pack: Pack) -> list[Problem]:
    """A deficiency names its provision or SWPPP requirement and a corrective action with
    a date on or after the inspection; a satisfactory finding requires nothing."""
    problems: list[Problem] = []
    if finding.deficient:
        if finding.requirement is None:
            message = "missing: the provision or SWPPP requirement the deficiency falls short of"
            problems.append(Problem(f"{where}.requirement", message, N))
        elif CITATION.fullmatch(finding.requirement):
            unknown = unknown_provision(finding.requirement, pack)
            if unknown:
                problems.append(Problem(f"{where}.requirement", unknown, N))
        if finding.corrective_action is None:
            message = "missing: the corrective action the deficiency requires"
            problems.append(Problem(f"{where}.corrective_action", message, N))
        if finding.due is None:
            message = "missing: the date the corrective action must be complete"
            problems.append(Problem(f"{where}.due", message, DATES))
        elif finding.due < case.inspected:
            problems.append(
                Problem(
                    f"{where}.due",
                    f"{long_date(finding.due)} is before the inspection "
                    f"({long_date(case.inspected)}); a corrective action is due after it is found",
                    DATES,
                )
            )
    elif finding.corrective_action is not None or finding.due is not None:
        message = "a satisfactory finding requires no corrective action; mark it deficient"
        problems.append(Problem(f"{where}.result", message, N))
    if (finding.corrects is None) != (case.reinspects is None):
        message = (
            "on a reinspection, each finding names the notice's deficiency it is about"
            if case.reinspects is not None
            else "names a deficiency of a notice; give reinspects (the notice) too"
        )
        problems.append(Problem(f"{where}.corrects", message, N))
    return problems


def deficiencies(case: Any) -> list[Finding]:
    return [f for f in case.findings if f.deficient]


@dataclass(frozen=True, kw_only=True)
class InspectionContext(Context):
    case: InspectionCase
    deficient: tuple[Finding, ...]
    photo_shows: tuple[str, ...]  # per photo: which finding it shows, in words


def photo_attachments(case: Any, options: Options) -> tuple[Attachment, ...]:
    return tuple(
        prepare_photo(p.file, options.case_dir, i + 1, p.keep_location == "yes").attachment
        for i, p in enumerate(case.photos)
    )


def context(case: InspectionCase, pack: Pack, options: Options) -> InspectionContext:
    shows = tuple(
        f"finding {p.finding}, {case.findings[p.finding - 1].practice}" if p.finding else ""
        for p in case.photos
    )
    return InspectionContext(
        case=case,
        deficient=tuple(deficiencies(case)),
        photo_shows=shows,
        attachments=photo_attachments(case, options),
        doc=DocMeta.numbered(KIND.name, "Inspection Report", case.number, pack, case.issued),
    )


KIND = Kind(
    name="inspection-report",
    title="Inspection report",
    model=InspectionCase,
    template="inspections/inspection_report.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css", "inspections/inspection.css"),
    summary="the record of an inspection: findings, deficiencies, photos with their time",
    needs=("inspection",),
    permission="enforce",
    follows=("notice-of-deficiency",),  # its reinspection (docgen.register.matter.inspections)
    issued=issued_on,
    site=site_of,
)


def from_notice(notice: dict[str, Any], number: str, still_open: set[int]) -> dict[str, Any]:
    """The draft of a reinspection of notice of deficiency ``number``: its site and
    persons, the notice it reinspects, and each deficiency still open as a finding to
    re-check (its practice and location, the deficiency it is about); what was found, the
    result and the day are the officer's to type (§ 228-79A(1))."""
    return {
        "site": notice["site"],
        "persons": [notice["recipient"], *(notice.get("copies_to") or [])],
        "reinspects": {"notice": number, "issued": notice["issued"]},
        "findings": [
            {
                "practice": d["practice"],
                **({"location": d["location"]} if d.get("location") else {}),
                "corrects": d["item"],
            }
            for d in notice["deficiencies"]
            if d["item"] in still_open
        ],
    }
