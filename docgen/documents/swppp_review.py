"""What the SWPPP approval and return letter share (LAW.md § 15): the plan reviewed, the
review (reviewer, date) and each item of the pack's list as it was found, with the
item's citation. Their cases are made from a review in the register
(docgen.register.plans.swppp_letters)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import StringConstraints

from docgen.cases.common import IsoDate, Jurisdiction, Line, Model, NameAndTitle, Site, Text, cited
from docgen.documents.kind import Context
from docgen.errors import Problem
from docgen.law.deadlines import long_date
from docgen.law.pack import Pack

ItemId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
Citation = Annotated[str, StringConstraints(pattern=r"^§ [0-9A-Za-z.()\[\] -]+$")]
L = "@swppp"  # the list of a SWPPP's contents (§ 228-78B(2); § 301-71B)
R = "@swppp.received_by"  # who receives and reviews it (§ 228-78B(1)(a); § 301-71A)
OPEN = ("missing", "inadequate")
APPROVAL, RETURN = "swppp-approval", "swppp-return"  # the two letters issued from a review
# What a correction of either letter keeps as the register made it: the review's facts.
KEEPS = (
    ("plan", "the plan reviewed"),
    ("reviewed", "the day of the review"),
    ("items", "each item as the review found it"),
)


def made_from_review(step: str) -> str:
    """How a letter is made instead of from a typed case (``step``: approve, return)."""
    return (
        "from the review of the plan the register holds: record the review "
        f"(`docgen swppp review PLAN`), then `docgen swppp {step} PLAN`"
    )


class PlanReviewed(Model):
    title: Line = cited(R, "the SWPPP's title")
    revision: Line = cited(R, "its revision")
    dated: IsoDate | None = cited(R, "its date", default=None)
    preparer: Line = cited(R, "who prepared it")
    qualification: Line = cited(R, "the preparer's qualification")
    permit: Line | None = cited(R, "the SPDES permit or NOI identifier", default=None)
    amends: Line | None = cited(R, "the revision it amends", default=None)


class ItemFound(Model):
    id: ItemId = cited(L, "the item's id in the pack's list")
    label: Line = cited(L, "the item")
    ref: Citation = cited(L, "its citation")
    finding: Literal["present", "missing", "inadequate", "not-applicable"] = cited(
        L, "what the review found"
    )
    words: Text | None = cited(L, "the reviewer's words", default=None)
    review: Literal["reviewed", "carried"] = cited(
        L, "found on this review, or carried (not changed by the amendment)", default="reviewed"
    )


class Certified(Model):
    number: Line = cited("@certification.part_of_swppp", "the certification's number")
    firm: Line = cited("@certification.part_of_swppp", "the firm that signed it")


class ReviewedCase(Model):
    jurisdiction: Jurisdiction
    number: Line = cited(R, "the letter's number")
    issued: IsoDate = cited(R, "the letter's date")
    reviewed: IsoDate = cited(R, "the day of the review")
    reviewer: NameAndTitle = cited(R, "who reviewed the SWPPP")
    applicant: Line | None = cited(R, "the applicant or developer", default=None)
    project: Line = cited(R, "the land development activity")
    site: Site = cited(R, "the site")
    plan: PlanReviewed = cited(R, "the SWPPP reviewed")
    items: list[ItemFound] = cited(L, "each item of the list as the review found it")


def common_problems(case: ReviewedCase, pack: Pack) -> list[Problem]:
    """The items are the pack's list, each found once; the letter is not before the review."""
    problems: list[Problem] = []
    law = pack.part("swppp")
    if case.issued < case.reviewed:
        problems.append(
            Problem(
                "issued",
                f"{long_date(case.issued)} is before the review ({long_date(case.reviewed)})",
                law.ref,
            )
        )
    wanted = [i.id for i in law.items]
    if [i.id for i in case.items] != wanted:
        problems.append(
            Problem("items", f"each item of the list of {law.ref}, in its order, once", law.ref)
        )
    for n, found in enumerate(case.items):
        if found.review == "carried" and case.plan.amends is None:
            problems.append(
                Problem(f"items.{n}.review", "only an amended plan carries a finding", law.ref)
            )
        item = law.item(found.id)
        if item is not None and found.finding == "not-applicable" and not item.may_not_apply:
            problems.append(
                Problem(
                    f"items.{n}.finding",
                    f"{item.label} ({item.ref}) is required of every SWPPP",
                    item.ref,
                )
            )
    return problems


@dataclass(frozen=True, kw_only=True)
class ReviewedContext(Context):
    case: ReviewedCase

    @property
    def open_items(self) -> list[ItemFound]:
        return [i for i in self.case.items if i.finding in OPEN]


def fitted_to(kind: str, data: dict[str, Any], pack: Pack) -> dict[str, Any]:
    """A sample SWPPP letter of another municipality made a case of ``pack`` (`pack check`):
    its items are ``pack``'s list, each with the sample's finding for the same id (present
    where the sample has none), so that another list is proven with the same samples."""
    if kind not in (APPROVAL, RETURN) or pack.swppp is None:
        return data
    theirs = {i.get("id"): i for i in data.get("items", [])}
    items = []
    for item in pack.swppp.items:
        found = dict(theirs.get(item.id, {"finding": "present"}))
        if found.get("finding") == "not-applicable" and not item.may_not_apply:
            found["finding"] = "present"
        items.append({**found, "id": item.id, "label": item.label, "ref": item.ref})
    if kind == RETURN and not any(i["finding"] in OPEN for i in items):
        items[0] = {**items[0], "finding": "missing"}
    return {**data, "items": items}
