"""What a clerk or an attorney does with an issued document, from its page: the other
copies its kind offers (a stop-work order's site placard, a notice's violation packet),
a correction (a draft started from its stored case; issuing it supersedes the document
through the register), and the next document from it (a stop-work order or a penalty
statement from a notice, a maintenance agreement for an easement's property), filled
with what the register knows.

Every choice is read from the kinds' descriptions (docgen.documents): their layouts, the
bundles that start with them, the permission that issues them, the fields their cases
share; never from a kind's name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk import auth, drafts, forms, record_forms, renderers
from docgen.desk.web import attachment, guarded, once, posted, render
from docgen.documents import BUNDLES, KINDS, get_kind
from docgen.errors import DocgenError
from docgen.register.parts import part_format

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


def made(kind: str, role: str) -> list[Follow]:
    """The kinds ``role`` issues that the register makes whole from an issued ``kind``."""
    return [
        Follow(
            name, f"Issue the {KINDS[name].title.lower()} from this {get_kind(kind).title.lower()}"
        )
        for name in auth.kinds_for(role)
        if kind in KINDS[name].made_from
    ]


def _same_fields(kind: str, other: str) -> bool:
    """Whether every field of either case (but its own) is one the other takes."""
    return set(_shared(kind, kind)) == set(_shared(kind, other)) == set(_shared(other, other))


def _shared(kind: str, other: str) -> list[str]:
    """The case fields of ``kind`` that ``other`` takes as they are."""
    mine = get_kind(kind).model.model_fields
    theirs = get_kind(other).model.model_fields
    return [f for f in mine if f in theirs and f not in OWN and f not in REFERENCES]


def _record(request: Request) -> Any:
    try:
        return request.app.state.register().document(request.path_params["number"])
    except DocgenError:
        return None


@guarded("register")
def printed_copy(request: Request) -> Response:
    """A placard or packet of an issued document: its stored case rendered in that
    layout or bundle (a copy for posting or serving; the record's files stay as issued)."""
    record, name = _record(request), request.path_params["name"]
    if record is None or name not in {c.name for c in copies(record.kind, record.case)}:
        return render(request, "missing.html.j2", status=404, what="file")
    kept = _kept_part(request, record.number, record.jurisdiction, name)
    if kept is not None:  # a part issued with the document: its own sealed file
        tag, result = "pdf", kept
    else:
        tag, result = renderers.run(renderers.printed_copy, record.kind, name, record.case)
    if tag != "pdf":
        return render(request, "error.html.j2", status=409, message=result)
    return Response(
        result,
        media_type="application/pdf",
        headers={"content-disposition": attachment(f"{record.number}-{name}.pdf")},
    )


def _kept_part(request: Request, number: str, jurisdiction: str, name: str) -> bytes | None:
    """The stored file of part ``name`` (part-N) of an issued document, if it was kept."""
    if not name.startswith(PART):
        return None
    stored = part_format(int(name.removeprefix(PART)) - 1, "pdf")
    return request.app.state.register().files(number, jurisdiction).get(stored)


@guarded(None)
def correct(request: Request) -> Response:
    return once(request, _correct)


def _correct(request: Request) -> Response:
    """A draft holding the document's stored case; issuing it supersedes the document."""
    record = _record(request)
    if record is None:
        return render(request, "missing.html.j2", status=404, what="document")
    if record.kind not in auth.kinds_for(request.scope["visitor"].role):
        return render(request, "denied.html.j2", status=403, why="your role may not issue this")
    if record.superseded_by:
        why = f"it was already corrected by {record.superseded_by}; correct that one"
        return render(request, "denied.html.j2", status=409, why=why)
    case = {k: v for k, v in record.case.items() if k not in forms.not_asked(record.kind)}
    pairs = [*forms.pairs_of(case), [SUPERSEDES, record.number]]
    return drafts.new_draft(request, record.kind, record.jurisdiction, pairs)


SUPERSEDES = "_supersedes"  # a draft's page field: the number its issue corrects


def supersedes(draft: Any) -> str | None:
    """The number a draft corrects, if it was started as a correction."""
    return forms.values(draft.fields).get(SUPERSEDES) or None


def _not_offered(
    request: Request,
    record: Any,
    kind: str,
    offered: Callable[[str, str], list[Follow]],
    act: str,
) -> Response | None:
    """The page refusing ``kind`` from ``record`` (None: its page offers it the visitor)."""
    if record is None:
        return render(request, "missing.html.j2", status=404, what="document")
    if kind not in {f.kind for f in offered(record.kind, request.scope["visitor"].role)}:
        return render(request, "denied.html.j2", status=403, why=f"your role may not {act} this")
    return None


@guarded(None)
def follow(request: Request) -> Response:
    return once(request, _follow)


def _follow(request: Request) -> Response:
    """A draft of the chosen kind filled from the document: its shared fields, and the
    document's number in the field that names what it follows."""
    record, kind = _record(request), request.path_params["kind"]
    refused = _not_offered(request, record, kind, follows, "draft")
    if refused is not None:
        return refused
    case = {k: record.case[k] for k in _shared(record.kind, kind) if k in record.case}
    for field, many in REFERENCES.items():
        if field in KINDS[kind].model.model_fields:
            case[field] = [record.number] if many else record.number
    return drafts.new_draft(request, kind, record.jurisdiction, forms.pairs_of(case))


@guarded(None)
def make(request: Request) -> Response:
    return once(request, _make)


def _make(request: Request) -> Response:
    """Issue the document the register makes from this one (nothing typed); a refusal
    (notified already, nothing deficient) is shown on the document's page."""
    from docgen.desk.register_pages import _document_page

    record, kind = _record(request), request.path_params["kind"]
    refused = _not_offered(request, record, kind, made, "issue")
    if refused is not None:
        return refused
    url, by = request.app.state.database_url, request.scope["visitor"].name
    tag, result = renderers.run(renderers.make, url, kind, record.number, by)
    if tag != "issued":
        return _document_page(request, record.number, [result], 409)
    return RedirectResponse(f"/documents/{result}", status_code=303)


def for_document(request: Request, record: Any) -> dict[str, Any]:
    """What the document's page offers the visitor."""
    from docgen.documents.affidavit_of_service import persons_served

    role, spec = request.scope["visitor"].role, get_kind(record.kind)
    return {
        "persons": [p["name"] for p in persons_served(record.case)] if spec.served else [],
        "offenses": _offenses(request, record) if spec.charges_offense else [],
        "served": spec.served,  # service is recorded only for kinds that are served
        "appealable": spec.appealable,  # its service starts an appeal period
        "charges": spec.charges_offense,  # dispositions only for a charged offense
        "liftable": spec.liftable and request.scope["visitor"].may("enforce"),
        "lifted_by": record.lifted_by,
        "copies": copies(record.kind, record.case),
        "follows": follows(record.kind, role) if not record.superseded_by else [],
        "made": made(record.kind, role) if not record.superseded_by else [],
        "may_correct": record.kind in auth.kinds_for(role) and not record.superseded_by,
    }


@guarded("enforce")
def lift(request: Request) -> Response:
    return once(request, _lift)


def _lift(request: Request) -> Response:
    """Lift a stop-work order on the day the Village confirmed compliance: the register
    records it and issues the written notice lifting it (`docgen lift`)."""
    from docgen.desk.register_pages import _document_page

    number = request.path_params["number"]
    try:
        on = record_forms.lift_date(posted(request))
        copies = posted(request).get("copies") == "1"  # a copy for each other person served
        done = request.app.state.register().lift(
            number, on, by=request.scope["visitor"].name, copies=copies
        )
    except DocgenError as err:
        error, bad = record_forms.said(err, "lift"), record_forms.fields(err)
        return _document_page(request, number, error, 400, typed_for="lift", bad=bad)
    return RedirectResponse(f"/documents/{done.number}", status_code=303)


def _offenses(request: Request, record: Any) -> list[Any]:
    """The offense the document charges, with its disposition (the register's history)."""
    if record.respondent is None:
        return []
    return request.app.state.register().charged(record)


routes = [
    Route("/documents/{number}/as/{name}.pdf", printed_copy, methods=["GET"]),
    Route("/documents/{number}/correct", correct, methods=["POST"]),
    Route("/documents/{number}/follow/{kind}", follow, methods=["POST"]),
    Route("/documents/{number}/make/{kind}", make, methods=["POST"]),
    Route("/documents/{number}/lift", lift, methods=["POST"]),
]
