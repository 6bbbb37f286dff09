"""Maintenance easement (§ 228-78D(3); § 301-73B): the owner grants the municipality access.

The landowner, as grantor, gives the municipality, as grantee, a perpetual easement for
access to the stormwater management facilities for periodic inspection ("at reasonable
times" where the law says so, § 301-73B), binding on every later owner the facilities
serve, executed before any approval that requires a facility, and recorded by the grantor
after the municipality's counsel approves it (LAW.md §6, §8)."""

from __future__ import annotations

from typing import Any

from docgen.cases.agreement import case_model
from docgen.documents.kind import Kind, Options, owner_of, property_of
from docgen.documents.recording import (
    Clause,
    RecordedContext,
    Requirement,
    approval_warning,
    check_recording,
    recorded_context,
    recording_warnings,
)
from docgen.errors import Problem
from docgen.law.pack import Pack

REF = "easement"

EasementCase = case_model("EasementCase", "@easement", "A maintenance easement.")

# LAW.md §6, one requirement each; the review page's table lists them in this order.
REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement(
        "executed-before-approval",
        "easement",
        "Executed before the issuance of any approval that has a stormwater management "
        "facility as one of its requirements",
    ),
    Requirement(
        "binding", "easement", "Binding on all subsequent landowners served by the facility"
    ),
    Requirement(
        "access",
        "easement.access",
        "Access to the facility {access}, to ensure that it is maintained in proper working "
        "condition",
    ),
    Requirement(
        "recorded",
        "easement.approved_by",
        "Recorded by the grantor in the office of the {county} County Clerk after approval "
        "by the {approved_by}",
        ("approval", "first-page"),
    ),
    Requirement(
        "parties",
        "easement",
        "Parties: the landowner as grantor, the {name} as grantee",
        ("preamble", "signatures", "acknowledgments"),
    ),
    Requirement(
        "property",
        "easement",
        "The property identified: address, tax map number (Section-Block-Lot), deed "
        "reference, and legal description as an attached schedule",
        ("first-page", "recitals", "schedule-a"),
    ),
    Requirement(
        "facilities",
        "easement",
        "The facilities identified",
        ("recitals", "facilities-schedule"),
    ),
    Requirement("area", "easement", "The easement area identified"),
)

# The clauses, in the order they are numbered.
CLAUSES: tuple[Clause, ...] = (
    Clause("grant", ("access", "area", "parties")),
    Clause("scope", ("access",)),
    Clause("maintenance", ("facilities",)),
    Clause("obstruction", ("area",)),
    Clause("timing", ("executed-before-approval",)),
    Clause("runs", ("binding",)),
    Clause("recording", ("recorded",)),
    Clause("agreement"),
    Clause("general"),
)


def check(case: Any, pack: Pack, options: Options) -> list[Problem]:
    return check_recording(case, pack, REF, options)


def warnings(case: Any, pack: Pack, options: Options) -> list[str]:
    """An approval dated before the easement (it is executed before any); an assumed
    state of organization; an easement area only the unrecorded plans would show."""
    out = approval_warning(
        case,
        pack,
        REF,
        "executed before the issuance of any approval that has a stormwater management "
        "facility as one of its requirements",
    )
    out += recording_warnings(case, pack, REF)
    area = case.easement
    if area.metes_and_bounds is None and area.exhibit is None:
        out.append(
            "easement: the easement area is described in words only, with neither a "
            "metes-and-bounds description (easement.metes_and_bounds) nor a map exhibit "
            "(easement.exhibit); the approved plans are not recorded, so the area must be "
            f"found from the recorded instrument alone ({pack.cite(REF)})"
        )
    return out


def context(case: Any, pack: Pack, options: Options) -> RecordedContext:
    return recorded_context(
        case,
        pack,
        options,
        KIND.name,
        "Stormwater Management Facility Maintenance Easement",
        CLAUSES,
        REQUIREMENTS,
        warnings(case, pack, options),
    )


KIND = Kind(
    name="maintenance-easement",
    issued=lambda case: case.agreement.date,
    needs=("easement", "recording", "agreement", "acknowledgment"),  # Schedule B's figures
    permission="instruments",
    party=owner_of,
    site=property_of,
    title="Maintenance easement",
    model=EasementCase,
    review_template="agreements/review.html.j2",
    template="agreements/maintenance_easement.html.j2",
    context=context,
    check=check,
    warnings=warnings,
    stylesheets=("base/print.css", "agreements/agreement.css"),
    review=True,
    summary="the owner's easement giving the municipality access to inspect the stormwater "
    "facilities, ready for recording",
)
