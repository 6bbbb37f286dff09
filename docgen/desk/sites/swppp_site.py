"""What a site's page shows of its SWPPP (LAW.md § 15; docgen.register.plans.swppp): each
revision received, the plan's state and the law's list for the amendment form. The pages
that record and review a plan are docgen.desk.sites.swppp_pages."""

from __future__ import annotations

from typing import Any

from docgen.errors import DocgenError
from docgen.register.plans import swppp
from docgen.register.sites import invitations

PLAN_FIELDS = (
    ("title", "Title of the plan"),
    ("revision", "Revision (or the plan's date)"),
    ("dated", "Date the plan bears"),
    ("preparer", "Prepared by"),
    ("qualification", "Preparer's qualification"),
    ("permit", "SPDES permit or NOI"),
    ("applicant", "Applicant (to whom the letters go)"),
    ("received", "Received on"),
)


def site_section(engine: Any, where: invitations.SiteView) -> dict[str, Any]:
    """What the site's page shows of its SWPPP: each revision, the state, the list."""
    listed = _has_list(where.jurisdiction)
    plans = swppp.plans(engine, where.id) if listed else []
    return {
        "plans": plans,
        "latest": plans[-1] if plans else None,
        "state": swppp.state(engine, where.id) if plans else "no SWPPP received",
        "law_items": swppp.swppp_list(where.jurisdiction).items if listed else [],
        "today": invitations.today_in(where.jurisdiction).isoformat(),
    }


def _has_list(jurisdiction: str) -> bool:
    try:
        swppp.swppp_list(jurisdiction)
    except DocgenError:
        return False
    return True
