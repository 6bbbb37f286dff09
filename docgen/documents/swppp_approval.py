"""The approval of a SWPPP (LAW.md § 15; § 228-77D(4); § 301-71A, B): every item of the
law's list present (or, for an item the law requires where it applies, found not to
apply); the plan by title and revision; the contractor certifications that "shall become
part of the SWPPP" (§ 228-78B(4)(c); § 301-71D(3)), those the register holds for the site
listed. Never issued with an item open."""

from __future__ import annotations

from docgen.cases.common import cited
from docgen.documents.kind import DocMeta, Kind, Options, issued_on, site_of
from docgen.documents.swppp_review import (
    APPROVAL,
    KEEPS,
    OPEN,
    Certified,
    ReviewedCase,
    ReviewedContext,
    common_problems,
    made_from_review,
)
from docgen.errors import Problem
from docgen.law.pack import Pack


class ApprovalCase(ReviewedCase):
    certifications: list[Certified] = cited(
        "@certification.part_of_swppp",
        "the contractor certifications the register holds for the site",
        default_factory=list,
    )


def check(case: ApprovalCase, pack: Pack, options: Options) -> list[Problem]:
    problems = common_problems(case, pack)
    shut = [i for i in case.items if i.finding in OPEN]
    if shut:
        problems.append(
            Problem(
                "items",
                "an approval with an item open: "
                + "; ".join(f"{i.label} ({i.ref}) {i.finding}" for i in shut)
                + "; return the plan instead",
                pack.part("swppp").ref,
            )
        )
    return problems


def context(case: ApprovalCase, pack: Pack, options: Options) -> ReviewedContext:
    return ReviewedContext(
        case=case, doc=DocMeta.numbered(KIND.name, KIND.heading, case.number, pack, case.issued)
    )


KIND = Kind(
    name=APPROVAL,
    title="SWPPP approval",
    heading="Approval of Stormwater Pollution Prevention Plan",
    model=ApprovalCase,
    template="swppp/swppp_approval.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the plan reviewed item by item, every item present: approved by title and revision",
    needs=("swppp", "certification"),
    issued=issued_on,
    site=site_of,
    made_by_register=made_from_review("approve"),
    keeps=KEEPS,
)
