"""Maintenance agreement (§ 228-78D(5), Schedule B; § 301-73D): the owner's covenant to maintain.

Approved by the municipality, binding on every later owner, recorded with the County
Clerk as a deed restriction before final plan approval, and consistent with the model
law's Schedule B (Homer) or the Town's sample agreement (Macedon): the owner keeps the
approved measures in perpetuity at its own cost, has them inspected by a New York
professional engineer at least once every five years, posts security, and on default
the municipality may do the work and lien the property (LAW.md §7, §8).
"""

from __future__ import annotations

from typing import Any

from docgen.cases.agreement import case_model
from docgen.documents.base import Kind, Options
from docgen.documents.recording import Clause, Requirement, check_recording, recorded_context
from docgen.errors import Problem
from docgen.law.pack import Pack

REF = "agreement"
TERMS = "agreement.terms"

AgreementCase = case_model(
    "AgreementCase", "@agreement", "A maintenance agreement (§ 228-78D(5), Schedule B; § 301-73D)."
)

# LAW.md §7, one requirement each; the review page's table lists them in this order.
REQUIREMENTS: tuple[Requirement, ...] = (
    Requirement("recitals", TERMS, ("recitals",)),
    Requirement("plans-binding", TERMS, ("schedule-b",)),
    Requirement("maintain", TERMS),
    Requirement("costs", TERMS),
    Requirement("inspection", TERMS),
    Requirement("alteration", TERMS),
    Requirement("repairs", TERMS),
    Requirement("security", TERMS),
    Requirement("recording", REF, ("first-page",)),
    Requirement("default", TERMS),
    Requirement("effective", TERMS),
    Requirement("approved", REF, ("signatures", "approval")),
    Requirement("binding", REF),
    Requirement("consistent", "agreement.model", ("recitals",)),
    Requirement("dedication", "agreement.dedication"),
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
    return check_recording(case, pack, REF)


def context(case: Any, pack: Pack, options: Options) -> dict[str, Any]:
    return recorded_context(
        case,
        pack,
        options,
        KIND.name,
        "Stormwater Control Facility Maintenance Agreement",
        CLAUSES,
        REQUIREMENTS,
    )


KIND = Kind(
    name="maintenance-agreement",
    issued=lambda case: case.agreement.date,
    title="Maintenance agreement",
    model=AgreementCase,
    template="agreements/maintenance_agreement.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "agreements/agreement.css"),
    review=True,
    summary="the owner's recorded covenant to maintain the stormwater facilities "
    "(§ 228-78D(5), Schedule B; § 301-73D)",
)
