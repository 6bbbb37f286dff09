"""The letter returning a SWPPP (LAW.md § 15; § 228-78B(1)(a), (2); § 301-71A, B): each
item of the law's list found missing or not adequate, with its citation, the reviewer's
words and what the applicant must add; the law's own words that no application is
reviewed until the SWPPP is received, quoted with their citation."""

from __future__ import annotations

from docgen.documents.kind import DocMeta, Kind, Options, issued_on, site_of
from docgen.documents.swppp_review import (
    KEEPS,
    OPEN,
    RETURN,
    ReviewedCase,
    ReviewedContext,
    common_problems,
    made_from_review,
)
from docgen.errors import Problem
from docgen.law.pack import Pack


class ReturnCase(ReviewedCase):
    pass


def check(case: ReturnCase, pack: Pack, options: Options) -> list[Problem]:
    problems = common_problems(case, pack)
    if not [i for i in case.items if i.finding in OPEN]:
        problems.append(
            Problem(
                "items",
                "no item is missing or not adequate: every item is present, so the plan "
                "is approved, not returned",
                pack.part("swppp").ref,
            )
        )
    return problems


def context(case: ReturnCase, pack: Pack, options: Options) -> ReviewedContext:
    return ReviewedContext(
        case=case, doc=DocMeta.numbered(KIND.name, KIND.heading, case.number, pack, case.issued)
    )


KIND = Kind(
    name=RETURN,
    title="SWPPP return letter",
    heading="Stormwater Pollution Prevention Plan Returned",
    model=ReturnCase,
    template="swppp/swppp_return.html.j2",
    context=context,
    check=check,
    stylesheets=("base/print.css", "notices/enforcement.css"),
    summary="the plan returned: each item missing or not adequate, its citation and what to add",
    needs=("swppp",),
    issued=issued_on,
    site=site_of,
    made_by_register=made_from_review("return"),
    keeps=KEEPS,
)
