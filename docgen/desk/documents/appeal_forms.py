"""The appeal of a notice of violation on its page (§ 228-79C(1)(f)): the notice of
appeal received (its acknowledgment), the notice of hearing and the decision, each a form
whose post is the register's call (docgen.register.after_notice.appeals, as `docgen
appeal`); the desk adds no rule of its own, and a refusal is said with the form's labels."""

from __future__ import annotations

import re

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base.web import chosen, document_url, guarded, once, posted
from docgen.desk.documents import record_forms
from docgen.desk.documents.document_page import addressed, document_page
from docgen.errors import DocgenError, Problem
from docgen.register.storage.db import Refused

text = record_forms.text


def _received(request: Request) -> str:
    form, number = posted(request), request.path_params["number"]
    days, problems = record_forms.dates(form, {"received": True, "date": False})
    if problems:
        raise Refused(problems)
    issued = request.app.state.register().record_appeal(
        number,
        days["received"],
        received_by=text(form.get("received_by")) or "",
        filed_by=text(form.get("filed_by")),
        on=days["date"],
        by=request.scope["visitor"].name,
        jurisdiction=chosen(request),
    )
    return str(issued.number)


def _hearing(request: Request) -> str:
    form, number = posted(request), request.path_params["number"]
    days, problems = record_forms.dates(form, {"hearing": True, "date": False})
    if problems:
        raise Refused(problems)
    issued = request.app.state.register().schedule_hearing(
        number,
        days["hearing"],
        text(form.get("time")) or "",
        place=text(form.get("place")),
        signed_by=text(form.get("signed_by")),
        on=days["date"],
        by=request.scope["visitor"].name,
        jurisdiction=chosen(request),
    )
    return str(issued.number)


def _decision(request: Request) -> str:
    form, number = posted(request), request.path_params["number"]
    # "Remedial measure N, now due" (remedy_N): the date a modified decision sets
    typed = [k for k in form if re.fullmatch(r"remedy_\d+", str(k))]
    days, problems = record_forms.dates(form, {"date": True, **dict.fromkeys(typed, False)})
    if problems:
        raise Refused(problems)
    remedies = {int(k.split("_")[1]): day for k in typed if (day := days[k]) is not None}
    reasons = [line for line in (text(form.get("reason")) or "").splitlines() if line.strip()]
    issued = request.app.state.register().decide_appeal(
        number,
        text(form.get("outcome")) or "",
        reasons,
        on=days["date"],
        signed_by=text(form.get("signed_by")) or "",
        title=text(form.get("title")) or "",
        modification=text(form.get("modification")),
        remedies=remedies,
        by=request.scope["visitor"].name,
        jurisdiction=chosen(request),
    )
    return str(issued.number)


def _extend(request: Request) -> str:
    form, number = posted(request), request.path_params["number"]
    days, problems = record_forms.dates(form, {"until": True, "date": False})
    typed = text(form.get("item")) or ""
    if not typed.isdigit():
        problems.append(Problem("item", "choose the item whose date is extended"))
    if problems:
        raise Refused(problems)
    issued = request.app.state.register().extend(
        number,
        int(typed),
        days["until"],
        granted_by=text(form.get("granted_by")) or "",
        reason=text(form.get("reason")) or "",
        on=days["date"],
        by=request.scope["visitor"].name,
        jurisdiction=chosen(request),
    )
    return str(issued.number)


STEPS = {
    "received": ("appeal", _received),
    "hearing": ("hearing", _hearing),
    "decision": ("decision", _decision),
    "extend": ("extend", _extend),
}


@guarded("enforce")
@addressed
def step(request: Request) -> Response:
    return once(request, _step)


def _step(request: Request) -> Response:
    number, name = request.path_params["number"], request.path_params["step"]
    if name not in STEPS:
        return document_page(request, number, "no such step of an appeal", 404)
    form, act = STEPS[name]
    try:
        act(request)
    except DocgenError as err:
        error, bad = record_forms.said(err, form), record_forms.fields(err)
        return document_page(request, number, error, 400, typed_for=form, bad=bad)
    # back to the notice: its page shows what was done, the new document linked, what next
    where = document_url(request, number, chosen(request), done=form)
    return RedirectResponse(where, status_code=303)


routes = [
    Route("/documents/{number}/appeal/{step}", step, methods=["POST"]),
    Route("/documents/{number}/later/{step}", step, methods=["POST"]),  # step: extend
]
