"""What the two recorded instruments share: clause order, checks, the recording context.

The maintenance easement (§ 228-78D(3); § 301-73B) and the maintenance agreement
(§ 228-78D(5); § 301-73D) are both signed by the owner, acknowledged (Real Property Law
§ 309-a), approved as to form by the municipality's counsel and recorded with the County
Clerk (LAW.md §8). Each kind lists its clauses in order (:class:`Clause`); the template
writes them in that order as one Word-numbered list, and the review page's table of
requirements takes each clause's number from the same list, so the two cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from docgen.documents.exhibits import exhibit_problems, load_exhibit
from docgen.documents.kind import Context, DocMeta, Options
from docgen.errors import DocgenError, Problem
from docgen.law.acknowledgment import (
    OWNER_KINDS,
    office_article,
    state_name,
    taken_outside_new_york,
)
from docgen.law.deadlines import long_date
from docgen.law.pack import AgreementTerms, Pack

# Parts of an instrument that meet a requirement without being a numbered clause, and
# what the review page calls them.
PARTS = {
    "first-page": "First page (recording information)",
    "preamble": "Preamble",
    "recitals": "Recitals",
    "signatures": "Signatures",
    "acknowledgments": "Acknowledgments",
    "approval": "Approved as to form",
    "schedule-a": "Schedule A",
    "facilities-schedule": "Facilities Schedule",
    "authorization": "The board resolution named in the municipality's signature",
}


@dataclass(frozen=True)
class Clause:
    """One numbered clause: ``id`` names its macro in the kind's clause template."""

    id: str
    meets: tuple[str, ...] = ()  # the requirements (ids) it meets


@dataclass(frozen=True)
class Requirement:
    """One requirement of LAW.md §6 or §7, as the review page states it: ``text`` names the
    pack's values in braces (:func:`requirement_values`); ``provision`` is the pack key
    whose ref it cites."""

    id: str
    provision: str
    text: str
    parts: tuple[str, ...] = ()  # unnumbered parts that also meet it (PARTS)


@dataclass(frozen=True)
class Met:
    """A requirement and where the instrument meets it: clause numbers and named parts."""

    id: str
    text: str
    provision: str
    clauses: tuple[int, ...]
    parts: tuple[str, ...]  # what the review page calls each part


def clause_numbers(clauses: tuple[Clause, ...]) -> dict[str, int]:
    """Each clause's number: its place in the order the template writes them."""
    return {clause.id: number for number, clause in enumerate(clauses, 1)}


def where_met(
    requirements: tuple[Requirement, ...], clauses: tuple[Clause, ...], pack: Pack
) -> list[Met]:
    """Every requirement with the clauses (by number) and parts that meet it."""
    numbers = clause_numbers(clauses)
    values = requirement_values(pack)
    rows = []
    for req in requirements:
        found = tuple(numbers[c.id] for c in clauses if req.id in c.meets)
        text = req.text.format(**values)
        parts = tuple(PARTS[p] for p in req.parts)
        rows.append(Met(req.id, text, pack.cite(req.provision), found, parts))
    return rows


def requirement_values(pack: Pack) -> dict[str, str]:
    """The pack's values a requirement's text may name: ``{V}`` (the municipality as the
    instrument calls it), ``{name}``, ``{county}``, ``{access}``, ``{approved_by}``,
    ``{model}``, ``{inspection_years}`` (in words), ``{report_days}``, ``{security_days}``."""
    # render.filters loads num2words, jinja2, babel (+47 ms): loaded on first use
    from docgen.render.filters import number_words

    terms = _terms(pack)
    easement = pack.part("easement")
    return {
        "V": pack.short_name.value,
        "name": pack.name.value,
        "county": pack.county.value,
        "access": easement.access.value,
        "approved_by": easement.approved_by.value,
        "model": pack.part("agreement").model.value,
        "inspection_years": number_words(terms.inspection_years.value),
        "report_days": str(terms.report_days.value),
        "security_days": str(terms.security_days.value),
    }


def unmet(requirements: tuple[Requirement, ...], clauses: tuple[Clause, ...]) -> list[str]:
    """Requirements no clause or part meets, and clause claims of unknown requirements."""
    known = {r.id for r in requirements}
    claimed = {m for c in clauses for m in c.meets}
    bad = [r.id for r in requirements if r.id not in claimed and not r.parts]
    bad += [f"unknown requirement {m!r}" for m in sorted(claimed - known)]
    bad += [f"unknown part {p!r}" for r in requirements for p in r.parts if p not in PARTS]
    return bad


def check_recording(case: Any, pack: Pack, kind_ref: str, options: Options) -> list[Problem]:
    """Parties, signers, facilities, the exhibit and the Schedule B figures; each problem
    cites its provision."""
    problems: list[Problem] = exhibit_problems(case, options.case_dir, pack.cite(kind_ref))
    acknowledged = pack.part("acknowledgment").certificate.ref
    executes = f"{pack.cite(kind_ref)}; {acknowledged}"
    if authorization(case, pack) is None:
        problems.append(
            Problem(
                "authorization",
                f"is missing: the {pack.part('recording').signatory.value} signs for the "
                f"{pack.short_name.value} under a board resolution the instrument names "
                "(give its body, date and resolution number here, or a standing resolution "
                "in the municipality's settings)",
                pack.cite(kind_ref),
            )
        )
    if not case.owner.signers:
        problems.append(
            Problem(
                "owner.signers",
                "names no signer; the owner must sign the instrument and acknowledge it "
                "before a notary for it to be recorded",
                executes,
            )
        )
    problems += party_problems(case, pack, kind_ref)
    if OWNER_KINDS[case.owner.kind].firm:
        for i, signer in enumerate(case.owner.signers):
            if not signer.title:
                problems.append(
                    Problem(
                        f"owner.signers[{i}].title",
                        f"is required: {signer.name} signs for {case.owner.name} "
                        f"(a {OWNER_KINDS[case.owner.kind].noun}) in a representative "
                        "capacity, which the acknowledgment states",
                        acknowledged,
                    )
                )
    if not case.facilities:
        problems.append(
            Problem(
                "facilities",
                "lists no stormwater management facility; the instrument must identify "
                "the facilities it covers",
                pack.cite(kind_ref),
            )
        )
    if case.security.amount <= 0:
        problems.append(
            Problem(
                "security.amount",
                "must be more than $0.00; the security guarantees the owner's performance",
                _terms(pack).security_days.ref,
            )
        )
    problems += check_inspection(case.inspection, pack)
    return problems


def party_problems(case: Any, pack: Pack, kind_ref: str) -> list[Problem]:
    """The parties as the instrument must name them: the municipality's signer by name,
    a firm's state of organization when it cannot be assumed (LAW.md § 8)."""
    problems = []
    if signatory(case, pack) is None:
        problems.append(
            Problem(
                "signatory",
                f"is missing: the instrument names the "
                f"{pack.part('recording').signatory.value} who signs for the "
                f"{pack.short_name.value} (give the signatory's name here, or a standing "
                "officer in the municipality's settings)",
                pack.cite(kind_ref),
            )
        )
    owner = case.owner
    firm = OWNER_KINDS[owner.kind].firm
    if owner.organized_in is not None and not firm:
        what = "an individual" if owner.kind == "individual" else "a trust"
        problems.append(
            Problem(
                "owner.organized_in",
                f"is for a firm; {owner.name} is {what}, which has no state of organization",
                pack.cite(kind_ref),
            )
        )
    if firm and owner.organized_in is None and state_name(owner.address.state) != "New York":
        problems.append(
            Problem(
                "owner.organized_in",
                f"is required: {owner.name} has an address in "
                f"{state_name(owner.address.state)}, so the state under whose law the "
                f"{OWNER_KINDS[owner.kind].noun} was organized cannot be assumed",
                pack.cite(kind_ref),
            )
        )
    return problems


def organized_in(owner: Any) -> str | None:
    """A firm's state of organization in full: as given, else New York (a firm with a New
    York address; :func:`party_problems` refuses any other); None for a person or trust."""
    if not OWNER_KINDS[owner.kind].firm:
        return None
    return state_name(owner.organized_in or "New York")


def recording_warnings(case: Any, pack: Pack, kind_ref: str) -> list[str]:
    """What the clerk should see before an instrument goes out: an assumed state of
    organization."""
    out = []
    owner = case.owner
    if OWNER_KINDS[owner.kind].firm and owner.organized_in is None:
        out.append(
            f"owner.organized_in: not given; {owner.name} is named as a New York "
            f"{OWNER_KINDS[owner.kind].noun} because its address is in New York; give the "
            f"state it was organized in if it is another ({pack.cite(kind_ref)})"
        )
    return out


def approval_before(case: Any, final_only: bool = False) -> Any:
    """The project's approval when it is dated before the instrument (``final_only``: and
    is the final plan approval), else None."""
    approval = case.project.approval
    if approval is None or approval.date >= case.agreement.date:
        return None
    return None if final_only and approval.stage != "final" else approval


def approval_warning(
    case: Any, pack: Pack, kind_ref: str, requirement: str, final_only: bool = False
) -> list[str]:
    """An approval dated before the instrument, which the law has the instrument precede
    (``requirement`` says what it must come before; ``final_only``: only a final one)."""
    approval = approval_before(case, final_only)
    if approval is None:
        return []
    return [
        f"project.approval: the plans were given {approval.stage} approval on "
        f"{long_date(approval.date)}, before "
        f"this instrument's date, {long_date(case.agreement.date)}; the article has it "
        f"{requirement} ({pack.cite(kind_ref)}), so the instrument does not say it came first"
    ]


@dataclass(frozen=True)
class Signatory:
    """Who signs for the municipality: name and office, and whether the case named them."""

    name: str
    title: str
    from_case: bool


def signatory(case: Any, pack: Pack) -> Signatory | None:
    """The case's signatory, else the pack's standing officer, else None."""
    recording = pack.part("recording")
    default_title = recording.signatory.value
    if case.signatory is not None:
        return Signatory(case.signatory.name, case.signatory.title or default_title, True)
    if recording.signatory_name is not None:
        return Signatory(recording.signatory_name.value, default_title, False)
    return None


def _terms(pack: Pack) -> AgreementTerms:
    """Schedule B's figures (both recorded instruments are checked against them)."""
    terms: AgreementTerms = pack.part("agreement").terms
    return terms


def check_inspection(inspection: Any, pack: Pack) -> list[Problem]:
    """Schedule B: inspection at least once every five years, the report within 30 days."""
    if inspection is None:
        return []
    problems = []
    terms = _terms(pack)
    most_years = terms.inspection_years.value
    if not 1 <= inspection.interval_years <= most_years:
        problems.append(
            Problem(
                "inspection.interval_years",
                f"{inspection.interval_years} years is outside 1 to {most_years}: a "
                f"professional engineer must inspect the facilities at least once every "
                f"{most_years} years",
                terms.inspection_years.ref,
            )
        )
    most_days = terms.report_days.value
    if inspection.report_days is not None and not 1 <= inspection.report_days <= most_days:
        problems.append(
            Problem(
                "inspection.report_days",
                f"{inspection.report_days} days is outside 1 to {most_days}: the engineer's "
                f"written report is due within {most_days} days of the inspection",
                terms.report_days.ref,
            )
        )
    return problems


@dataclass(frozen=True)
class Schedule:
    """The inspection schedule in force: the case's figures, or Schedule B's."""

    years: int
    years_given: bool
    report_days: int
    report_days_given: bool


def inspection_schedule(inspection: Any, pack: Pack) -> Schedule:
    terms = _terms(pack)
    years, days = terms.inspection_years.value, terms.report_days.value
    if inspection is None:
        return Schedule(years, False, days, False)
    given_days = inspection.report_days is not None
    return Schedule(
        inspection.interval_years, True, inspection.report_days if given_days else days, given_days
    )


def feet(width: Decimal | None) -> str | None:
    """20 rather than 20.00; None stays None."""
    return None if width is None else f"{width.normalize():f}"


def paragraphs(text: str) -> list[str]:
    """Text split at blank lines (a legal description keeps its courses together)."""
    blocks = [" ".join(block.split()) for block in text.replace("\r", "").split("\n\n")]
    return [b for b in blocks if b]


@dataclass(frozen=True, kw_only=True)
class RecordedContext(Context):
    """A recorded instrument's template values: the clauses in their numbered order, each
    requirement and where it is met (review page), the acknowledgment form for the
    owner's kind, the inspection schedule, the legal description's paragraphs."""

    case: Any
    clauses: tuple[Clause, ...]
    numbers: dict[str, int]
    requirements: list[Met]
    model_terms: list[Met]  # drafted from the model law: the review lists each for counsel
    office_article: Any  # "a" Member, "the" Managing Member
    owner_kind: Any
    organized_in: str | None  # a firm's state of organization, in full
    instrument: str  # "easement", "agreement": what the instrument calls itself
    exhibit: Any  # the map of the easement area (Exhibit 1), an Attachment
    metes_paragraphs: list[str]  # the easement area by courses and distances (Schedule C)
    case_values: list[tuple[str, str]]  # the review file: every value from the case
    signatory: Signatory
    state_name: Any  # "PA" -> "Pennsylvania"
    approval_before: Any  # the project's approval when dated before the instrument
    schedule: Schedule
    legal_paragraphs: list[str]
    width_feet: str | None
    ack_text: Any
    outside_text: str  # RPL § 309-b(1), for a signer acknowledging outside New York
    outside_ref: str
    outside: Any  # taken_outside_new_york
    ack_ref: str
    notary_ref: str
    authorization: Any  # the case's resolution, else the pack's standing one
    authorization_from_case: bool


def case_values(data: Any, path: str = "") -> list[tuple[str, str]]:
    """Every value the case gave, by field path ("owner.signers[0].name"), in order."""
    if isinstance(data, dict):
        return [
            row
            for key, value in data.items()
            for row in case_values(value, f"{path}.{key}" if path else key)
        ]
    if isinstance(data, list):
        return [row for i, value in enumerate(data) for row in case_values(value, f"{path}[{i}]")]
    return [(path, str(data))]


def authorization(case: Any, pack: Pack) -> Any:
    """The board resolution the municipality's signatory signs under: the case's own, else
    the standing resolution in the pack (``recording.authorization``), else None."""
    if case.authorization is not None:
        return case.authorization
    standing = pack.part("recording").authorization
    return standing.value if standing is not None else None


def recorded_context(
    case: Any,
    pack: Pack,
    options: Options,
    kind: str,
    title: str,
    clauses: tuple[Clause, ...],
    requirements: tuple[Requirement, ...],
    warnings: list[str] | None = None,
) -> RecordedContext:
    """What an instrument's template needs besides the case (clause order and numbers,
    acknowledgment form, schedule), and its metadata: known by file or tax map number."""
    number = case.agreement.number or f"Tax Map {case.property.tax_map}"
    short = kind.replace("-", " ").title()
    signs = signatory(case, pack)
    if signs is None:  # the kind's check refuses such a case before its context is asked
        raise DocgenError(f"the instrument names no {pack.part('recording').signatory.value}")
    rows = where_met(requirements, clauses, pack)
    model_term = pack.part("agreement").terms.ref
    ack = pack.part("acknowledgment")
    exhibit = (
        load_exhibit(case.easement.exhibit, options.case_dir) if case.easement.exhibit else None
    )
    return RecordedContext(
        case=case,
        clauses=clauses,
        numbers=clause_numbers(clauses),
        requirements=rows,
        model_terms=[row for row in rows if row.provision == model_term],
        office_article=office_article,
        owner_kind=OWNER_KINDS[case.owner.kind],
        organized_in=organized_in(case.owner),
        instrument=kind.removeprefix("maintenance-"),
        exhibit=exhibit,
        metes_paragraphs=paragraphs(case.easement.metes_and_bounds or ""),
        case_values=case_values(case.model_dump(mode="json", exclude_none=True)),
        signatory=signs,
        state_name=state_name,
        approval_before=approval_before(case, final_only=kind == "maintenance-agreement"),
        schedule=inspection_schedule(case.inspection, pack),
        legal_paragraphs=paragraphs(case.property.legal_description),
        width_feet=feet(case.easement.width_feet),
        ack_text=ack.certificate.value,
        outside_text=ack.outside_certificate.value,
        outside_ref=ack.outside_certificate.ref,
        outside=taken_outside_new_york,
        ack_ref=ack.certificate.ref,
        notary_ref=ack.notary.ref,
        authorization=authorization(case, pack),
        authorization_from_case=case.authorization is not None,
        warnings=tuple(warnings or ()),
        attachments=(exhibit,) if exhibit else (),
        doc=DocMeta(
            kind=kind,
            title=f"{title}, {pack.name.value}, {number}",
            number=number,
            running_head=f"{pack.name.value} · {short} · Tax Map No. {case.property.tax_map}",
            date=case.agreement.date,
            filename=f"{case.agreement.number or case.property.tax_map}-{kind}",
        ),
    )
