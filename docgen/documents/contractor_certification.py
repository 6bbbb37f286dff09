"""Contractor certification (§ 228-78B(4); § 301-71D): one signed statement per firm.

Document stage. Each contractor and subcontractor signs the jurisdiction's statement,
word for word from the pack, on a page of its own with every field the law requires
(§ 228-78B(4)(b); § 301-71D(2)). A firm's trained contractor whose training is more than
three years old on the certification date (the date signed, or the render date for a
form still to be signed) is flagged: a warning on check and render, a note on the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from docgen.cases.certification import Contractor, ContractorCertificationCase
from docgen.documents.kind import Context, DocMeta, Kind, Options, site_of, site_problems
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack, municipal_today
from docgen.law.training import TrainingStatus, training_status

TITLE = "Contractor Certification"


@dataclass(frozen=True)
class Form:
    """One firm's certification as the template prints it; ``contractor`` is None on a blank."""

    contractor: Contractor | None
    training: TrainingStatus | None = None


def certification_date(contractor: Contractor, pack: Pack, options: Options) -> date:
    """The date the certification is made: ``signed``, else the render date (unsigned form)."""
    return contractor.signed or options.today or municipal_today(pack)


def _training(contractor: Contractor, pack: Pack, options: Options) -> TrainingStatus | None:
    trained = contractor.trained_contractor
    if trained is None:
        return None
    return training_status(trained.trained, certification_date(contractor, pack, options), pack)


def check(case: ContractorCertificationCase, pack: Pack, options: Options) -> list[Problem]:
    """The site is identified; training cannot postdate the certification it backs."""
    problems = site_problems(
        case, pack, "needs an address or another identifying description (or both)"
    )
    permit = pack.part("certification").permit
    fields = pack.part("certification").required_fields
    for i, contractor in enumerate(case.contractors):
        if contractor.electronic_signature is not None and contractor.signed is None:
            problems.append(
                Problem(
                    f"contractors[{i}].signed",
                    "missing: an electronically signed certification is dated when signed",
                    fields.ref,
                )
            )
        trained = contractor.trained_contractor
        if trained is None:
            continue
        on = certification_date(contractor, pack, options)
        if trained.trained > on:
            when = "the date signed" if contractor.signed else "today, the render date"
            problems.append(
                Problem(
                    f"contractors[{i}].trained_contractor.trained",
                    f"{long_date(trained.trained)} is after the certification date "
                    f"{long_date(on)} ({when}); give the date training was received",
                    permit.ref,
                )
            )
    return problems


def training_warnings(case: ContractorCertificationCase, forms: list[Form]) -> list[str]:
    """One warning per trained contractor whose training has lapsed, naming firm and field."""
    out = []
    for i, form in enumerate(forms):
        status, contractor = form.training, form.contractor
        if status is None or not status.expired or contractor is None:
            continue
        trained = contractor.trained_contractor
        assert trained is not None
        basis = "signed" if contractor.signed else "render date; the form is unsigned"
        out.append(
            f"contractors[{i}].trained_contractor.trained: {trained.name} of {contractor.firm} "
            f"was trained on {long_date(status.trained)}, more than {status.valid_years} years "
            f"before the certification date {long_date(status.on)} ({basis}); training was "
            f"current through {long_date(status.current_through)} ({status.ref})"
        )
    return out


def missing_trained_warnings(case: ContractorCertificationCase, pack: Pack) -> list[str]:
    """A firm with no trained contractor: the form prints "none named", and the clerk hears."""
    permit = pack.part("certification").permit
    return [
        f"contractors[{i}].trained_contractor: none named for {c.firm}; the construction "
        f"general permit has each contractor identify a trained contractor ({permit.ref})"
        for i, c in enumerate(case.contractors)
        if c.trained_contractor is None
    ]


def signed_late(contractor: Contractor, began: date | None) -> bool:
    """§ 228-78B(4)(a); § 301-71D(1): each firm signs "before undertaking any land
    development activity". Reading chosen: a certification dated after the day land
    development began is late; one dated that day is not flagged (the law counts no
    hours, and the day's work may follow the signature)."""
    return began is not None and contractor.signed is not None and contractor.signed > began


def late_warnings(case: ContractorCertificationCase, pack: Pack) -> list[str]:
    """One warning per firm whose certification is dated after land development began."""
    who = pack.part("certification").who_signs
    began = case.project.began
    return [
        f"contractors[{i}].signed: {c.firm} certified on {long_date(c.signed)}, after land "
        f"development began on {long_date(began)}; the certification is signed before any "
        f"land development activity ({who.ref})"
        for i, c in enumerate(case.contractors)
        if signed_late(c, began) and c.signed is not None and began is not None
    ]


def warnings(case: ContractorCertificationCase, pack: Pack, options: Options) -> list[str]:
    forms = [Form(c, _training(c, pack, options)) for c in case.contractors]
    return (
        training_warnings(case, forms)
        + missing_trained_warnings(case, pack)
        + late_warnings(case, pack)
    )


def _meta(pack: Pack, title: str, number: str, when: date | None, filename: str) -> DocMeta:
    return DocMeta(
        kind=KIND.name,
        title=title,
        number=number,
        running_head=f"{pack.name.value} · {title}",
        date=when,
        filename=filename,
    )


def document_date(case: ContractorCertificationCase) -> date | None:
    """The latest date signed; None when nobody has signed (the file then carries no date,
    so an unsigned form renders to the same bytes on any day)."""
    signed = [c.signed for c in case.contractors if c.signed]
    return max(signed) if signed else None


@dataclass(frozen=True, kw_only=True)
class CertificationContext(Context):
    """One form per contractor; a blank form (``blank``) has no case, project or site."""

    case: ContractorCertificationCase | None
    project: Any
    site: Any
    forms: list[Form]
    blank: bool
    late: tuple[bool, ...] = ()  # per form: dated after land development began


def context(
    case: ContractorCertificationCase, pack: Pack, options: Options
) -> CertificationContext:
    forms = [Form(c, _training(c, pack, options)) for c in case.contractors]
    title = f"{TITLE}: {case.project.name}"
    return CertificationContext(
        case=case,
        project=case.project,
        site=case.site,
        forms=forms,
        blank=False,
        late=tuple(signed_late(c, case.project.began) for c in case.contractors),
        warnings=tuple(warnings(case, pack, options)),
        doc=_meta(
            pack,
            title,
            case.project.name,
            document_date(case),
            f"{case.project.name}-contractor-certification",
        ),
    )


def blank_context(pack: Pack, options: Options) -> CertificationContext:
    """An empty form for ``pack``'s municipality: every field a line to fill in by hand."""
    return CertificationContext(
        case=None,
        project=None,
        site=None,
        forms=[Form(None)],
        blank=True,
        doc=_meta(pack, TITLE, "blank form", None, f"{pack.id}-contractor-certification-blank"),
    )


def split(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(firm, case with that firm alone) for each contractor of a validated case's data."""
    return [(str(c["firm"]), {**data, "contractors": [c]}) for c in data["contractors"]]


KIND = Kind(
    name="contractor-certification",
    title="Contractor certification",
    model=ContractorCertificationCase,
    template="certifications/contractor_certification.html.j2",
    context=context,
    check=check,
    warnings=warnings,
    stylesheets=("base/print.css", "certifications/certification.css"),
    blank=blank_context,
    split=split,
    summary="the statement each contractor signs before soil is disturbed",
    contractor_signs=True,  # § 228-78B(4): signed by the contractor, by invitation
    needs=("certification",),
    permission="enforce",
    site=site_of,
)
