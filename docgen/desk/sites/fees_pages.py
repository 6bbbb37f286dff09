"""A site's fees on the desk (§ 228-79D; LAW.md § 15; docgen.register.plans.fees): the statement
of fees for a period made through the same register function as `docgen fees statement`,
each service with its rate and amount and the total, and a payment recorded against it
(`docgen fees pay`), never more than the balance."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.cases.common import read_date
from docgen.desk.base.web import guarded, once, posted, register, render
from docgen.desk.sites.certify import acting_as, at_site
from docgen.documents.fee_statement import KIND as STATEMENT
from docgen.errors import DocgenError
from docgen.register.matter.rendering import rendered_outside
from docgen.register.plans import fees as fee_register
from docgen.register.sites import invitations
from docgen.register.storage import db
from docgen.register.storage.models import Document

# the register's option names, said in the form's words
WORDS = {
    "--amount": "Amount",
    "--method": "Paid by",
    "--date": "Date",
    "--to": "To",
}


def _said(err: DocgenError) -> str:
    text = str(err)
    for option, label in WORDS.items():
        text = text.replace(option, label)
    return text


def _typed(request: Request) -> dict[str, str]:
    form = posted(request)
    return {k: str(v).strip() for k, v in form.items() if isinstance(v, str)}


def _dates(typed: dict[str, str], fields: dict[str, str], error: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, label in fields.items():
        if not typed.get(key):
            error.append(f"{label}: required")
            continue
        try:
            found[key] = read_date(typed[key])
        except ValueError as err:
            error.append(f"{label}: {err}")
    return found


def statements(engine: Any, where: invitations.SiteView) -> list[dict[str, Any]]:
    """The statements of fees issued for the site, newest first, each with its balance."""
    with db.read_session(engine) as session:
        rows = session.scalars(
            select(Document)
            .where(Document.kind == STATEMENT.name, Document.jurisdiction == where.jurisdiction)
            .order_by(Document.issued.desc(), Document.id.desc())
        )
        mine = [
            d
            for d in rows
            if d.case.get("site") == where.site and d.case.get("project") == where.name
        ]
        return [{"number": d.number, "issued": d.issued, "case": d.case} for d in mine]


def _page(
    request: Request,
    where: invitations.SiteView,
    status: int = 200,
    error: list[str] | None = None,
    typed: dict[str, str] | None = None,
) -> Response:
    reg = request.app.state.register()
    listed = statements(register(request).engine, where)
    for s in listed:
        total, paid = fee_register.balance(reg, s["number"])
        s["total"], s["paid"], s["balance"] = total, paid, total - paid
    today = invitations.today_in(where.jurisdiction).isoformat()
    return render(
        request,
        "fees.html.j2",
        status=status,
        site=where,
        statements=listed,
        shown=request.query_params.get("number", ""),
        done=request.query_params.get("done", ""),
        today=today,
        error=error or [],
        typed=typed or {},
        money=lambda v: f"${Decimal(str(v)):,.2f}",
    )


@guarded("enforce")
@at_site
def fees_page(request: Request, where: invitations.SiteView) -> Response:
    return _page(request, where)


@guarded("enforce")
@at_site
def make_statement(request: Request, where: invitations.SiteView) -> Response:
    return once(request, lambda request: _make(request, where))


def _make(request: Request, where: invitations.SiteView) -> Response:
    typed = _typed(request)
    error: list[str] = []
    when = _dates(typed, {"from": "From", "to": "To", "date": "Date of the statement"}, error)
    for key, label in (("payer", "To whom"), ("officer", "Stated by"), ("title", "Title")):
        if not typed.get(key):
            error.append(f"{label}: required")
    if not error:
        reg = request.app.state.register()
        try:
            issued = rendered_outside(
                lambda: fee_register.statement(
                    reg,
                    where.id,
                    when["from"],
                    when["to"],
                    when["date"],
                    payer=typed["payer"],
                    officer={"name": typed["officer"], "title": typed["title"]},
                    by=acting_as(request),
                )
            )
            return RedirectResponse(
                f"/certifications/{where.id}/fees?number={issued.number}&done=issued#statement",
                status_code=303,
            )
        except DocgenError as err:
            error = [_said(err)]
    return _page(request, where, 400, error, typed)


@guarded("enforce")
@at_site
def record_payment(request: Request, where: invitations.SiteView) -> Response:
    return once(request, lambda request: _pay(request, where))


def _pay(request: Request, where: invitations.SiteView) -> Response:
    typed = _typed(request)
    number = request.path_params["number"]
    if number not in {s["number"] for s in statements(register(request).engine, where)}:
        return render(request, "missing.html.j2", status=404, what="statement of fees")
    error: list[str] = []
    when = _dates(typed, {"paid": "Date paid"}, error)
    if not typed.get("amount"):
        error.append("Amount: required")
    if not error:
        try:
            fee_register.pay(
                request.app.state.register(),
                number,
                typed["amount"],
                when["paid"],
                typed.get("method", ""),
                acting_as(request),
            )
            return RedirectResponse(
                f"/certifications/{where.id}/fees?number={number}&done=paid#statement",
                status_code=303,
            )
        except DocgenError as err:
            said = _said(err).replace("Date", "Date paid", 1)
            if "more than the balance" in said:
                said += ": record at most the balance due, or make a new statement"
            error = [said]
    typed["number"] = number
    return _page(request, where, 400, error, typed)


routes = [
    Route("/certifications/{site}/fees", fees_page, methods=["GET"]),
    Route("/certifications/{site}/fees", make_statement, methods=["POST"]),
    Route("/certifications/{site}/fees/{number}/pay", record_payment, methods=["POST"]),
]
