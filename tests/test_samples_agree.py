"""The samples agree with each other, since clerks copy them: one property has one tax map
number and one owner; one person or firm has one role."""

from __future__ import annotations

from collections import defaultdict

from conftest import ROOT

from docgen import api

FIXTURES = sorted((ROOT / "fixtures").glob("*/*.yaml"))


def people(value, found):
    if isinstance(value, dict):
        if "name" in value and "role" in value:
            found.append((value["name"], value["role"]))
        for v in value.values():
            people(v, found)
    elif isinstance(value, list):
        for v in value:
            people(v, found)
    return found


def test_one_person_one_role():
    roles = defaultdict(set)
    for path in FIXTURES:
        for name, role in people(api.load(path)[0], []):
            roles[name].add(role)
    assert {n: r for n, r in roles.items() if len(r) > 1} == {}


def test_one_property_one_tax_map_number_and_one_owner():
    tax_maps, owners = defaultdict(set), defaultdict(set)
    for path in FIXTURES:
        data = api.load(path)[0]
        place = data.get("site") or data.get("property") or {}
        street = (place.get("address") or {}).get("street")
        if not street:
            continue
        if place.get("tax_map"):
            tax_maps[street].add(str(place["tax_map"]))
        owner = data.get("owner") or (
            data["recipient"] if data.get("recipient", {}).get("role") == "landowner" else None
        )
        if owner:
            owners[street].add(owner["name"])
    assert {s: t for s, t in tax_maps.items() if len(t) > 1} == {}
    assert {s: o for s, o in owners.items() if len(o) > 1} == {}
