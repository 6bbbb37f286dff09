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
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base import auth, forms
from docgen.desk.base.offers import (
    PART,
    REFERENCES,
    Follow,
    copies,
    follows,
    made,
    shared,
    today_in,
)
from docgen.desk.base.web import (
    Handler,
    attachment,
    chosen,
    document_url,
    guarded,
    once,
    posted,
    register,
    render,
)
from docgen.desk.documents import record_forms
from docgen.desk.documents.document_page import addressed, document_page
from docgen.desk.drafting import drafts
from docgen.desk.server import renderers
from docgen.documents import KINDS
from docgen.errors import DocgenError
from docgen.register.matter.inspections import asks_at_once, started_by_register
from docgen.register.rules.parts import part_format
from docgen.register.storage.db import Refused


def _record(request: Request) -> Any:
    try:
        return request.app.state.register().document(request.path_params["number"], chosen(request))
    except DocgenError:
        return None


@guarded("register")
@addressed
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
    return register(request).files(number, jurisdiction).get(stored)


@guarded(None)
@addressed
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
@addressed
def follow(request: Request) -> Response:
    return once(request, _follow)


def _follow(request: Request) -> Response:
    """A draft of the chosen kind filled from the document: its shared fields, and the
    document's number in the field that names what it follows."""
    record, kind = _record(request), request.path_params["kind"]
    refused = _not_offered(request, record, kind, follows, "draft")
    if refused is not None:
        return refused
    started = started_by_register(record.kind, kind)  # filled by the register: a reinspection's
    if started is not None:  # open items, or the violations a notice escalates to
        try:
            case = started(request.app.state.register(), record.number, record.jurisdiction)
        except DocgenError as err:
            return document_page(request, record.number, [str(err)], 409)
        pairs = forms.pairs_of(case)
        if asks_at_once(record.kind, kind):  # what is missing asked for beside its field
            pairs = drafts.as_submitted(pairs)
        return drafts.new_draft(request, kind, record.jurisdiction, pairs)
    case = {k: record.case[k] for k in shared(record.kind, kind) if k in record.case}
    for field, many in REFERENCES.items():
        if field in KINDS[kind].model.model_fields:
            case[field] = [record.number] if many else record.number
    if record.kind not in KINDS[kind].follows:  # a new document for the same property
        return drafts.new_draft(request, kind, record.jurisdiction, forms.pairs_of(case))
    # The next step from this document (a penalty statement from its notice): dated today,
    # and checked at once, what the register could not fill (who signs it, whom to call)
    # asked for beside its field in the form's words, focus on the first.
    if "issued" in KINDS[kind].model.model_fields:
        case["issued"] = today_in(record.jurisdiction).isoformat()
    pairs = drafts.as_submitted(forms.pairs_of(case))
    return drafts.new_draft(request, kind, record.jurisdiction, pairs)


@guarded(None)
@addressed
def make(request: Request) -> Response:
    return once(request, _make)


def _make(request: Request) -> Response:
    """Issue the document the register makes from this one (nothing typed); a refusal
    (notified already, nothing deficient) is shown on the document's page."""
    record, kind = _record(request), request.path_params["kind"]
    refused = _not_offered(
        request, record, kind, lambda of, role: made(of, role, record.case), "issue"
    )
    if refused is not None:
        return refused
    try:
        on = record_forms.made_date(posted(request), KINDS[kind].title, record.jurisdiction)
    except DocgenError as err:
        return _made_again(request, record, kind, err)
    url, by = request.app.state.database_url, request.scope["visitor"].name
    tag, result = renderers.run(
        renderers.make, url, kind, record.number, by, on, record.jurisdiction
    )
    if tag == "asked":  # the register refused the date given (before the notice's service...)
        return _made_again(request, record, kind, Refused(result))
    if tag != "issued":
        return document_page(request, record.number, [result], 409, typed_for=kind)
    return RedirectResponse(document_url(request, result, record.jurisdiction), status_code=303)


def _made_again(request: Request, record: Any, kind: str, err: DocgenError) -> Response:
    """The form making ``kind`` shown again, refused for its date: the date marked, the
    refusal beside it under the form's own label, and the question it asks next."""
    title = KINDS[kind].title
    said = record_forms.said(err, "made", f"Date of the {title.lower()}")
    asked = record_forms.asked(err, kind, said, title)
    bad = {"date"}
    return document_page(request, record.number, said, 400, typed_for=kind, bad=bad, asked=asked)


@guarded("enforce")
@addressed
def lift(request: Request) -> Response:
    return once(request, _lift)


def _lift(request: Request) -> Response:
    """Lift a stop-work order on the day the Village confirmed compliance: the register
    records it and issues the written notice lifting it (`docgen lift`)."""
    number = request.path_params["number"]
    try:
        on = record_forms.lift_date(posted(request))
        copies = posted(request).get("copies") == "1"  # a copy for each other person served
        done = request.app.state.register().lift(
            number,
            on,
            by=request.scope["visitor"].name,
            copies=copies,
            jurisdiction=chosen(request),
        )
    except DocgenError as err:
        error, bad = record_forms.said(err, "lift"), record_forms.fields(err)
        asked = record_forms.asked(err, "lift", error)
        record = _record(request)
        if asked is None and record is not None and record.served_on is None:
            # What the order lacks is its service: asked for on the service form above
            asked = record_forms.Asked(
                "service", "date", record_forms.QUESTIONS["service", "date"], error
            )
        return document_page(request, number, error, 400, typed_for="lift", bad=bad, asked=asked)
    return RedirectResponse(document_url(request, done.number, done.jurisdiction), status_code=303)


@guarded("enforce")
@addressed
def withhold(request: Request) -> Response:
    return once(request, _withhold)


def _withhold(request: Request) -> Response:
    """Prevent the occupancy of the building or land, resting on this notice or order
    (§ 228-79C(5); `docgen withhold-occupancy`)."""
    number = request.path_params["number"]
    try:
        premises, on = record_forms.withheld(posted(request))
        done = request.app.state.register().withhold_occupancy(
            number, premises, on, by=request.scope["visitor"].name, jurisdiction=chosen(request)
        )
    except DocgenError as err:
        error, bad = record_forms.said(err, "withhold"), record_forms.fields(err)
        return document_page(request, number, error, 400, typed_for="withhold", bad=bad)
    return RedirectResponse(document_url(request, done.number, done.jurisdiction), status_code=303)


@guarded("enforce")
@addressed
def release(request: Request) -> Response:
    return once(request, _release)


def _release(request: Request) -> Response:
    """Release this order preventing occupancy in writing (`docgen release-occupancy`)."""
    number = request.path_params["number"]
    try:
        on = record_forms.lift_date(posted(request))
        done = request.app.state.register().release_occupancy(
            number, on, by=request.scope["visitor"].name, jurisdiction=chosen(request)
        )
    except DocgenError as err:
        error, bad = record_forms.said(err, "release"), record_forms.fields(err)
        return document_page(request, number, error, 400, typed_for="release", bad=bad)
    return RedirectResponse(document_url(request, done.number, done.jurisdiction), status_code=303)


@guarded("enforce")
@addressed
def restore(request: Request) -> Response:
    return once(request, _restore)


def _restore(request: Request) -> Response:
    """Require restoration of the land, resting on this notice or order (§ 228-79C(6);
    `docgen require-restoration`)."""
    number = request.path_params["number"]
    try:
        what, by_day, on = record_forms.restoration(posted(request))
        done = request.app.state.register().require_restoration(
            number, what, by_day, on, by=request.scope["visitor"].name, jurisdiction=chosen(request)
        )
    except DocgenError as err:
        error, bad = record_forms.said(err, "restore"), record_forms.fields(err)
        return document_page(request, number, error, 400, typed_for="restore", bad=bad)
    return RedirectResponse(document_url(request, done.number, done.jurisdiction), status_code=303)


def _after(
    request: Request, form: str, call: Callable[[Any, str, Any, str, str | None], Any]
) -> Response:
    """One step after the notice requiring restoration (§ 228-79C(6)): the form read and
    the register called as the command line calls it; a refusal shown on the page in the
    form's words; the document it issues (or this one again) shown after."""
    number, where = request.path_params["number"], chosen(request)
    try:
        done = call(request.app.state.register(), number, posted(request),
                    request.scope["visitor"].name, where)  # fmt: skip
    except DocgenError as err:
        error, bad = record_forms.said(err, form), record_forms.fields(err)
        return document_page(request, number, error, 400, typed_for=form, bad=bad)
    return RedirectResponse(document_url(request, done or number, where), status_code=303)


def _cost(reg: Any, number: str, form: Any, by: str, where: str | None) -> str:
    """`docgen state-restoration-cost`: the statement of the cost of corrective work."""
    items, report, on = record_forms.cost(form)
    return str(
        reg.state_restoration_cost(number, report, items, on, by=by, jurisdiction=where).number
    )


def _lien(reg: Any, number: str, form: Any, by: str, where: str | None) -> str:
    """`docgen record-lien`: the notice of lien for the cost the statement states."""
    return str(
        reg.record_lien(number, record_forms.lift_date(form), by=by, jurisdiction=where).number
    )


def _payment(reg: Any, number: str, form: Any, by: str, where: str | None) -> str:
    """`docgen record-lien-payment`: a payment on the lien (this page again after)."""
    paid, on, paid_by = record_forms.payment(form)
    reg.record_lien_payment(number, paid, on, paid_by, by=by, jurisdiction=where)
    return number


def _lien_release(reg: Any, number: str, form: Any, by: str, where: str | None) -> str:
    """`docgen release-lien`: the release of a lien paid in full."""
    return str(
        reg.release_lien(number, record_forms.lift_date(form), by=by, jurisdiction=where).number
    )


STEPS = {"cost": _cost, "lien": _lien, "payment": _payment, "release-lien": _lien_release}


def _step(form: str) -> Handler:
    @guarded("enforce")
    @addressed
    def handle(request: Request) -> Response:
        return once(request, lambda r: _after(r, form, STEPS[form]))

    return handle


routes = [
    Route("/documents/{number}/as/{name}.pdf", printed_copy, methods=["GET"]),
    Route("/documents/{number}/correct", correct, methods=["POST"]),
    Route("/documents/{number}/follow/{kind}", follow, methods=["POST"]),
    Route("/documents/{number}/make/{kind}", make, methods=["POST"]),
    Route("/documents/{number}/lift", lift, methods=["POST"]),
    Route("/documents/{number}/withhold", withhold, methods=["POST"]),
    Route("/documents/{number}/release-occupancy", release, methods=["POST"]),
    Route("/documents/{number}/restore", restore, methods=["POST"]),
    *(Route(f"/documents/{{number}}/{form}", _step(form), methods=["POST"]) for form in STEPS),
]
