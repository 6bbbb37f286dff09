"""A service event as the tests record it: with every fact its affidavit states (LAW.md
§ 10), since the register fills none in. The issuing officer served it unless the test
names another server; a personal delivery gives the place, the time, the individual who
took it, their capacity and their description; a posting the place at the site."""

from __future__ import annotations

from datetime import date
from typing import Any

from docgen.register.matter.service_event import Service

# A delivery by hand as an officer records it (the person took it for the one served).
HAND = {
    "place": "the front counter of the office at 41 Route 281, Homer, NY 13077",
    "time": "10:15",
    "person": "Morgan T. Hale",
    "capacity": "managing member",
    "description": "male, about 45 years old, 5 ft 10 in, about 180 lb, brown hair",
}


# Where a posting at the site was made, as an officer records it.
POSTED = {"place": "the construction entrance gate, beside the permit board"}


def facts_of(method: str) -> dict[str, str]:
    """The facts the affidavit of ``method`` states beyond its date and server."""
    return {"personal-delivery": HAND, "posting": POSTED}.get(method, {})


def service_of(method: str, on: date | None, **given: Any) -> Service:
    """``Service(method, on, **given)`` with the facts a test leaves out recorded: by the
    issuing officer unless ``served_by`` is given; by hand, :data:`HAND`'s; posted,
    :data:`POSTED`'s."""
    facts: dict[str, Any] = dict(facts_of(method))
    if not given.get("served_by"):
        facts["by_officer"] = True
    return Service(method, on, **{**facts, **given})


def service_args(method: str, officer: bool = True) -> list[str]:
    """The options of ``docgen record-service`` that record what :func:`service_of` does
    (without ``officer``, the test names the server itself)."""
    facts = facts_of(method)
    args = ["--method", method, *(["--served-by-officer"] if officer else [])]
    for key, value in facts.items():
        args += [f"--{key}", value]
    return args


def service_form(method: str, **typed: str) -> dict[str, str]:
    """The desk's record-service form as a clerk fills it for :func:`service_of`'s event:
    the issuing officer of the samples named as the server."""
    facts = facts_of(method)
    return {"method": method, "served_by": "Dana R. Whitcomb", **facts, **typed}
