"""Case data for the register's tests: a valid notice of violation without a number."""

from __future__ import annotations

from copy import deepcopy
from datetime import date, timedelta
from itertools import count
from typing import Any

NOTICE: dict[str, Any] = {
    "jurisdiction": "homer",
    "issued": "2026-11-16",
    "served": {
        "date": "2026-11-16",
        "means": "personal",
        "method": "personal delivery to the landowner",
    },
    "officer": {"name": "Dana R. Whitcomb", "title": "Code Enforcement Officer"},
    "recipient": {
        "name": "Tioughnioga Ridge Development LLC",
        "role": "landowner",
        "address": {"street": "41 Route 281", "city": "Homer", "state": "NY", "zip": "13077"},
    },
    "site": {"description": "Vacant lot on the east side of Route 11"},
    "violations": [
        {
            "provision": "§ 228-78B(1)",
            "nature": "Land disturbed without an approved stormwater pollution prevention plan",
            "observed": "2026-11-09",
        }
    ],
    "remedies": [{"measure": "Stabilize all disturbed soil", "due": "2026-11-23"}],
}


# Each call is a case of its own (its remedy names a work area of its own): the register
# issues a case once, and a second issue of the same case returns the first document.
_AREAS = count(1)


def notice(
    issued: str = "2026-11-16",
    committed: str | None = None,
    name: str | None = None,
    street: str | None = None,
) -> dict[str, Any]:
    """A valid notice case without a number, committed on ``committed`` (default: 7 days
    before ``issued``), to ``name`` at ``street``."""
    data = deepcopy(NOTICE)
    day = date.fromisoformat(issued)
    committed = committed or (day - timedelta(days=7)).isoformat()
    data["issued"] = issued
    data["served"]["date"] = issued
    data["violations"][0]["observed"] = committed
    data["remedies"][0]["due"] = (day + timedelta(days=7)).isoformat()
    data["remedies"][0]["measure"] += f", work area {next(_AREAS)}"
    if name:
        data["recipient"]["name"] = name
    if street:
        data["recipient"]["address"]["street"] = street
    return data
