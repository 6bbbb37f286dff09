"""What an issued document's page offers the visitor: the other copies its kind prints
(layouts, the bundles that start with it, one file per party of a split case), the
documents that may be started from it or that the register makes from it, and whether it
is served, appealable, charged or liftable.

Every choice is read from the kinds' descriptions (docgen.documents), never from a kind's
name.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from starlette.requests import Request

from docgen.desk.base import auth
from docgen.desk.base.web import register
from docgen.documents import BUNDLES, KINDS, get_kind, kind_named
from docgen.documents.affidavit_of_service import persons_served
from docgen.register.after_notice import resting_kinds, step_after

# What a document's case holds about itself, never carried into another document (the
# officer comes from the signed-in user; the register gives the number and the priors).
OWN = ("jurisdiction", "number", "issued", "served", "officer", "offense", "prior_offenses")


# The field of a following document that names the document it follows: a list of
# numbers or one number (the notices a stop-work order rests on, the notice a penalty
# statement follows).
REFERENCES = {"notices": True, "notice": False}


@dataclass(frozen=True)
class Copy:
    """Another rendering of an issued document's case: a layout or a bundle."""

    name: str
    label: str


@dataclass(frozen=True)
class Follow:
    """A document that may be started from an issued one."""

    kind: str
    label: str
    dated: str = ""  # the label of its date (the register makes it dated today unless given)


def copies(kind: str, case: dict[str, Any]) -> list[Copy]:
    """The placards, packets and per-party files a document of ``kind`` can be printed
    as: its kind's layouts, the bundles whose first part it is, and one file for each
    part its kind splits the case into (a certification's firms)."""
    spec = get_kind(kind)
    found = [Copy(layout, f"{spec.title}, {layout} (PDF)") for layout in spec.layouts]
    for name in BUNDLES:
        bundle = get_kind(name)
        if bundle.parts[0] == kind:
            found.append(Copy(name, f"{bundle.title} (PDF)"))
    for n, (party, _) in enumerate(split_parts(kind, case), start=1):
        found.append(Copy(f"{PART}{n}", f"{spec.title} for {party} (PDF)"))
    return found


PART = "part-"  # a copy's name: the Nth part of a split case


def split_parts(kind: str, case: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(party, case of that party alone) for each part of a kind that splits its case."""
    spec = get_kind(kind)
    return spec.split(case) if spec.split is not None else []


def follows(kind: str, role: str) -> list[Follow]:
    """The kinds ``role`` may start from an issued ``kind``: those whose description says
    they follow it, and those sharing its parties and site, or its property."""
    source = get_kind(kind)
    found = []
    for name in auth.kinds_for(role):
        target = KINDS[name]
        if name == kind:
            continue
        if kind in target.follows:
            found.append(Follow(name, f"{target.title} from this {source.title.lower()}"))
        elif target.permission == source.permission and _same_fields(kind, name):
            found.append(Follow(name, f"{target.title} for the same property"))
    return found


def made(kind: str, role: str, case: dict[str, Any]) -> list[Follow]:
    """The kinds ``role`` issues that the register makes whole from an issued ``kind``
    whose stored case is ``case`` (each kind's ``made_from`` and ``made_when``)."""
    return [
        Follow(
            name,
            f"Issue the {KINDS[name].title.lower()} from this {get_kind(kind).title.lower()}",
            f"Date of the {KINDS[name].title.lower()}",
        )
        for name in auth.kinds_for(role)
        if kind in KINDS[name].made_from and KINDS[name].made_when(case)
    ]


def _same_fields(kind: str, other: str) -> bool:
    """Whether every field of either case (but its own) is one the other takes."""
    return set(shared(kind, kind)) == set(shared(kind, other)) == set(shared(other, other))


def shared(kind: str, other: str) -> list[str]:
    """The case fields of ``kind`` that ``other`` takes as they are."""
    mine = get_kind(kind).model.model_fields
    theirs = get_kind(other).model.model_fields
    return [f for f in mine if f in theirs and f not in OWN and f not in REFERENCES]


def for_document(request: Request, record: Any) -> dict[str, Any]:
    """What the document's page offers the visitor."""
    role, spec = request.scope["visitor"].role, kind_named(record.kind)
    return {
        "persons": [p["name"] for p in persons_served(record.case)] if spec.served else [],
        "offenses": _offenses(request, record) if spec.charges_offense else [],
        "served": spec.served,  # service is recorded only for kinds that are served
        "appealable": spec.appealable,  # its service starts an appeal period
        "charges": spec.charges_offense,  # dispositions only for a charged offense
        "liftable": spec.liftable and request.scope["visitor"].may("enforce"),
        "lifted_by": record.lifted_by,
        # § 228-79C(1)(f): the appeal recorded of a notice that may be appealed, and whether
        # this visitor records its steps
        "appeal": _appeal(request, record) if spec.appealable else None,
        # LAW.md § 11: each dated item and its date as extended, to grant a later one
        "schedule": (
            request.app.state.register().schedule(record.number, record.jurisdiction)
            if (spec.halts or spec.charges_offense)
            and request.scope["visitor"].may("enforce")
            and not record.superseded_by
            else []
        ),
        "may_appeal": spec.appealable
        and request.scope["visitor"].may("enforce")
        and not record.superseded_by,
        **_after_notice(request, record, spec),
        "copies": copies(record.kind, record.case),
        "follows": follows(record.kind, role) if not record.superseded_by else [],
        "made": made(record.kind, role, record.case) if not record.superseded_by else [],
        "may_correct": record.kind in auth.kinds_for(role) and not record.superseded_by,
        "today": today_in(record.jurisdiction),  # what a made document is dated unless told
    }


def _appeal(request: Request, record: Any) -> Any:
    return request.app.state.register().appeal(record.number, record.jurisdiction)


def _after_notice(request: Request, record: Any, spec: Any) -> dict[str, Any]:
    """Occupancy withheld (§ 228-79C(5)): a notice or order in effect offers the order
    preventing occupancy resting on it; that order offers its release, or names it."""
    enforce = request.scope["visitor"].may("enforce") and not record.superseded_by
    holds = spec.step == "withholds"
    released = (
        step_after(
            request.app.state.register(), record.number, "releases-hold", record.jurisdiction
        )
        if holds
        else None
    )
    return {
        "withholds": enforce and record.kind in resting_kinds(),
        "releasable": enforce and holds and released is None,
        "released_by": released,
        **_restoration(request, record, spec, enforce),
    }


# Each step after the notice requiring restoration (§ 228-79C(6)) and the one that follows
# it: the cost stated on the notice, the lien on the statement, the release on the lien.
NEXT = {"requires-restoration": "states-cost", "states-cost": "liens", "liens": "releases-lien"}


def _restoration(request: Request, record: Any, spec: Any, enforce: bool) -> dict[str, Any]:
    """The statement of cost offered on a notice requiring restoration, the notice of lien
    on a statement, payments and the release on a lien (its balance shown); or the
    document that followed, named."""
    step = spec.step if spec.step in NEXT else None
    if step is None:
        return {"step": None}
    reg = request.app.state.register()
    followed = step_after(reg, record.number, NEXT[step], record.jurisdiction)
    found: dict[str, Any] = {"step": step, "followed_by": followed}
    found["offers"] = enforce and followed is None
    if step == "liens":
        # register.after_notice.liens loads render.filters (babel): loaded on first use
        from docgen.law.deadlines import long_date
        from docgen.register.after_notice.liens import standing
        from docgen.render.filters import money

        owed, paid = standing(reg, record.number, record.jurisdiction)
        found["balance"] = money(owed)
        found["payments"] = [(money(p.amount), long_date(p.paid_on), p.paid_by) for p in paid]
        found["offers_payment"] = found["offers"] and owed > 0
    return found


def today_in(jurisdiction: str) -> date:
    """Today in the municipality: what a document made or started from another is dated
    unless the person says otherwise."""
    # law.packs loads yaml (+42 ms): loaded on first use
    from docgen.law.pack import municipal_today
    from docgen.law.packs import load_pack

    return municipal_today(load_pack(jurisdiction))


def _offenses(request: Request, record: Any) -> list[Any]:
    """The offense the document charges, with its disposition (the register's history)."""
    if record.respondent is None:
        return []
    return register(request).charged(record)
