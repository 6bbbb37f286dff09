"""The SWPPP on the desk (LAW.md § 15; docgen.register.plans.swppp): on a site's page, the plan's
state and the forms that record a plan received or an amended revision; the review page,
a checklist of the law's items (prefilled from the previous review of the same plan; for
an amendment, only the items it changes, the others shown as carried); and the approval
or return letter issued from the last review."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.cases.common import read_date
from docgen.desk.base.web import document_url, guarded, id_of, once, posted, register, render
from docgen.desk.sites.certify import acting_as, at_site, render_site_page
from docgen.errors import DocgenError
from docgen.register.plans import swppp
from docgen.register.sites import invitations


def _typed(request: Request) -> dict[str, str]:
    form = posted(request)
    return {k: str(v).strip() for k, v in form.items() if isinstance(v, str)}


def _date_of(typed: dict[str, str], key: str, label: str, error: list[str]) -> Any:
    if not typed.get(key):
        return None
    try:
        return read_date(typed[key])
    except ValueError as err:
        error.append(f"{label}: {err}")
        return None


def _back(where: invitations.SiteView, done: str) -> Response:
    return RedirectResponse(f"/certifications/{where.id}?swppp={done}#swppp", status_code=303)


@guarded("enforce")
@at_site
def add_plan(request: Request, where: invitations.SiteView) -> Response:
    return once(request, lambda request: _add_plan(request, where))


def _add_plan(request: Request, where: invitations.SiteView) -> Response:
    typed = _typed(request)
    error: list[str] = []
    dated = _date_of(typed, "dated", "Date the plan bears", error)
    received = _date_of(typed, "received", "Received on", error)
    amends = id_of(typed.get("amends", "")) if typed.get("amends") else None
    changes = [k.removeprefix("change.") for k in typed if k.startswith("change.")]
    if not error:
        try:
            swppp.add_plan(
                register(request).engine,
                where.id,
                title=typed.get("title") or None,
                revision=typed.get("revision", ""),
                preparer=typed.get("preparer") or None,
                qualification=typed.get("qualification") or None,
                received=received or invitations.today_in(where.jurisdiction),
                dated=dated,
                permit=typed.get("permit") or None,
                applicant=typed.get("applicant") or None,
                amends=amends,
                changes=changes or None,
                by=acting_as(request),
            )
            return _back(where, "received")
        except DocgenError as err:
            error = [str(err)]
    return render_site_page(request, where, 400, error, typed)


def _plan_at(request: Request, where: invitations.SiteView) -> swppp.Plan | None:
    plan_id = id_of(request.path_params["plan"])
    if plan_id is None:
        return None
    try:
        found = swppp.plan(register(request).engine, plan_id)
    except DocgenError:
        return None
    return found if found.site_id == where.id else None


@guarded("enforce")
@at_site
def review_page(request: Request, where: invitations.SiteView) -> Response:
    plan = _plan_at(request, where)
    if plan is None:
        return render(request, "missing.html.j2", status=404, what="plan")
    return _review_page(request, where, plan)


def _review_page(
    request: Request,
    where: invitations.SiteView,
    plan: swppp.Plan,
    status: int = 200,
    error: list[str] | None = None,
    typed: dict[str, str] | None = None,
    done: str = "",
) -> Response:
    engine = register(request).engine
    law = swppp.swppp_list(where.jurisdiction)
    before = swppp.prefill(engine, plan.id)
    last = swppp.last_review(engine, plan.id)
    rows = []
    for item in law.items:
        finding, words = before.get(item.id, ("", None))
        if typed is not None:
            finding = typed.get(f"item.{item.id}", "")
            words = typed.get(f"words.{item.id}")
        editable = plan.changes is None or item.id in plan.changes
        rows.append({"item": item, "finding": finding, "words": words or "", "editable": editable})
    visitor = request.scope["visitor"]
    return render(
        request,
        "swppp_review.html.j2",
        status=status,
        site=where,
        plan=plan,
        law=law,
        rows=rows,
        last=last,
        said=swppp.SAID,
        reviewer=(typed or {}).get("reviewer") or visitor.name,
        day=(typed or {}).get("date") or invitations.today_in(where.jurisdiction).isoformat(),
        error=error or [],
        done=done,
    )


@guarded("enforce")
@at_site
def record_review(request: Request, where: invitations.SiteView) -> Response:
    plan = _plan_at(request, where)
    if plan is None:
        return render(request, "missing.html.j2", status=404, what="plan")
    return once(request, lambda request: _record_review(request, where, plan))


def _record_review(request: Request, where: invitations.SiteView, plan: swppp.Plan) -> Response:
    typed = _typed(request)
    error: list[str] = []
    on = _date_of(typed, "date", "Date of the review", error)
    if on is None and not error:
        error.append("Date of the review: required")
    given: dict[str, tuple[str, str | None]] = {}
    for key, value in typed.items():
        if key.startswith("item.") and value:
            item_id = key.removeprefix("item.")
            given[item_id] = (value, typed.get(f"words.{item_id}") or None)
    if not error:
        try:
            swppp.record_review(
                register(request).engine,
                plan.id,
                given,
                reviewer=typed.get("reviewer", ""),
                on=on,
                by=acting_as(request),
            )
            return RedirectResponse(
                f"/certifications/{where.id}/swppp/{plan.id}#decision", status_code=303
            )
        except DocgenError as err:
            error = [str(err)]
    return _review_page(request, where, plan, 400, error, typed)


@guarded("enforce")
@at_site
def decide(request: Request, where: invitations.SiteView) -> Response:
    plan = _plan_at(request, where)
    if plan is None:
        return render(request, "missing.html.j2", status=404, what="plan")
    return once(request, lambda request: _decide(request, where, plan))


def _decide(request: Request, where: invitations.SiteView, plan: swppp.Plan) -> Response:
    typed = _typed(request)
    error: list[str] = []
    on = _date_of(typed, "date", "Date of the letter", error)
    outcome = typed.get("outcome", "")
    if outcome not in ("approved", "returned"):
        error.append("Approve or return: choose one")
    if on is None and not error:
        error.append("Date of the letter: required")
    if not error:
        try:
            issued = request.app.state.register().swppp_decide(
                plan.id, outcome, on, by=acting_as(request)
            )
            address = document_url(request, issued.number, issued.jurisdiction)
            return RedirectResponse(address, status_code=303)
        except DocgenError as err:
            error = [str(err)]
    return _review_page(request, where, plan, 400, error)


routes = [
    Route("/certifications/{site}/swppp", add_plan, methods=["POST"]),
    Route("/certifications/{site}/swppp/{plan}", review_page, methods=["GET"]),
    Route("/certifications/{site}/swppp/{plan}", record_review, methods=["POST"]),
    Route("/certifications/{site}/swppp/{plan}/decide", decide, methods=["POST"]),
]
