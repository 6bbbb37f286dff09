"""Maintenance agreement (§ 228-78D(5), Schedule B; § 301-73D): the owner's covenant to maintain.

Approved by the municipality, binding on every later owner, recorded with the County
Clerk as a deed restriction before final plan approval, and consistent with the model
law's Schedule B or the municipality's own sample agreement (the pack's): the owner keeps the
approved measures in perpetuity at its own cost, has them inspected by a New York
professional engineer at least once every five years, posts security, and on default
the municipality may do the work and lien the property (LAW.md §7, §8).
"""

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

REF = "agreement"
TERMS = "agreement.terms"

AgreementCase = case_model("AgreementCase", "@agreement", "A maintenance agreement.")

# LAW.md §7, one requirement each; the review page's table lists them in this order.
REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement(
        "recitals",
        TERMS,
        "Recitals: the long-term maintenance of the approved measures of a named project, "
        "built to the approved plans and kept in perpetuity",
        ("recitals",),
    ),
    Requirement(
        "plans-binding",
        TERMS,
        "Both parties, and their successors and assigns, bound to the maintenance "
        "provisions of the approved plans, attached as a schedule",
        ("facilities-schedule",),
    ),
    Requirement(
        "maintain",
        TERMS,
        "The owner maintains, cleans, repairs, replaces and continues the measures "
        "(ditches, swales, dry wells, inlets, pipes, culverts, ponds and the like)",
    ),
    Requirement(
        "costs",
        TERMS,
        "The owner bears all costs, and provides for sharing them where facilities are "
        "held in common",
    ),
    Requirement(
        "inspection",
        TERMS,
        "Inspection by a professional engineer licensed in New York at least once every "
        "{inspection_years} years; written report with recommendations to the {V} within "
        "{report_days} days",
    ),
    Requirement(
        "alteration",
        TERMS,
        "No alteration, abandonment or discontinuance without the {V}'s written approval",
    ),
    Requirement(
        "repairs", TERMS, "Repairs at the {V}'s direction or on the engineer's recommendation"
    ),
    Requirement(
        "security",
        TERMS,
        "Security (bond, letter of credit or escrow) within {security_days} days",
    ),
    Requirement(
        "recording",
        REF,
        "Recorded in the office of the County Clerk as a deed restriction before final plan "
        "approval",
        ("first-page",),
    ),
    Requirement(
        "default",
        TERMS,
        "On default the {V} may do the work, and its cost becomes a lien on the property",
    ),
    Requirement("effective", TERMS, "Effective date"),
    Requirement("approved", REF, "Approved by the {name}", ("authorization",)),
    Requirement("binding", REF, "Binding on all subsequent landowners"),
    Requirement(
        "consistent", "agreement.model", "Consistent with its model, {model}", ("recitals",)
    ),
    Requirement(
        "dedication",
        "agreement.dedication",
        "The {V} may accept dedication of the facility instead, at its sole discretion",
    ),
)

# The clauses, in the order they are numbered.
CLAUSES: tuple[Clause, ...] = (
    Clause("plans", ("recitals", "plans-binding")),
    Clause("maintenance", ("maintain",)),
    Clause("costs", ("costs",)),
    Clause("inspection", ("inspection",)),
    Clause("access"),
    Clause("alteration", ("alteration",)),
    Clause("repairs", ("repairs",)),
    Clause("security", ("security",)),
    Clause("default", ("default",)),
    Clause("recording", ("recording",)),
    Clause("successors", ("binding", "plans-binding")),
    Clause("dedication", ("dedication",)),
    Clause("effective", ("effective",)),
)


def check(case: Any, pack: Pack, options: Options) -> list[Problem]:
    return check_recording(case, pack, REF, options)


def warnings(case: Any, pack: Pack, options: Options) -> list[str]:
    """A final approval dated before the agreement (it is recorded before final plan
    approval); an assumed state of organization; a facility with no maintenance
    provisions to attach (the approved plans are not recorded)."""
    out = approval_warning(
        case,
        pack,
        REF,
        "recorded in the office of the County Clerk before final plan approval",
        final_only=True,
    )
    out += recording_warnings(case, pack, REF)
    out += [
        f"facilities[{i}].practices: none given for {facility.type}; the agreement binds the "
        "owner to the maintenance provisions of the approved plans, which are not recorded, "
        f"so each facility's provisions are attached in the Facilities Schedule ({pack.cite(REF)})"
        for i, facility in enumerate(case.facilities)
        if not facility.practices
    ]
    return out


def context(case: Any, pack: Pack, options: Options) -> RecordedContext:
    return recorded_context(
        case,
        pack,
        options,
        KIND.name,
        "Stormwater Control Facility Maintenance Agreement",
        CLAUSES,
        REQUIREMENTS,
        warnings(case, pack, options),
    )


KIND = Kind(
    name="maintenance-agreement",
    issued=lambda case: case.agreement.date,
    needs=("easement", "recording", "agreement", "acknowledgment"),  # Schedule B's figures
    permission="instruments",
    party=owner_of,
    site=property_of,
    title="Maintenance agreement",
    model=AgreementCase,
    review_template="agreements/review.html.j2",
    template="agreements/maintenance_agreement.html.j2",
    context=context,
    check=check,
    warnings=warnings,
    stylesheets=("base/print.css", "agreements/agreement.css"),
    review=True,
    summary="the owner's recorded covenant to maintain the stormwater facilities",
)
