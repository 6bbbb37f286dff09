"""The day's firm mailing list on the desk (LAW.md § 9; `docgen mailing-list`): choose a
day (and the municipality, in a register of several), see its certified pieces with any
missing article number flagged, and download the list as PDF, DOCX or HTML to take to
the post office. The pieces are the register's (docgen.register.matter.mailing); the list is
rendered by the mailing-list kind in a rendering process, as the command renders it."""

from __future__ import annotations

from datetime import date
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from docgen.desk.base.web import FORMAT_TYPES, attachment, guarded, register, render
from docgen.desk.server import renderers
from docgen.documents import the_kind
from docgen.errors import DocgenError
from docgen.render.formats import FORMATS


def _asked(request: Request, jurisdictions: list[str]) -> tuple[date | None, str | None]:
    """The day and municipality in the query (an unknown municipality is ignored)."""
    params = request.query_params
    text = params.get("date", "").strip()
    try:
        day = date.fromisoformat(text) if text else None
    except ValueError:
        raise DocgenError(f"date: {text[:20]!r} is not a date (YYYY-MM-DD)") from None
    chosen = params.get("jurisdiction") or None
    return day, chosen if chosen in jurisdictions else None


def _case(request: Request, day: date, jurisdiction: str | None) -> dict[str, Any]:
    # register.matter.mailing takes 12 ms to import (docgen modules): loaded on first use
    from docgen.register.matter.mailing import mailing_list_case

    return mailing_list_case(register(request), day, jurisdiction)


@guarded("enforce")
def page(request: Request) -> Response:
    """The form; with a day, that day's pieces (or why there is no list)."""
    # documents.mailing_list and others take 19 ms to import (docgen modules): loaded on first use
    from docgen.documents.mailing_list import day_number
    from docgen.register.matter.mailing import jurisdictions

    known = jurisdictions(register(request))
    case, error, day, chosen = None, "", None, None
    try:
        day, chosen = _asked(request, known)
        if day is not None:
            case = _case(request, day, chosen)
    except DocgenError as err:
        error = str(err).removeprefix("error: ")
    missing = sum(1 for p in case["pieces"] if not p.get("article")) if case else 0
    return render(
        request,
        "mailing_list.html.j2",
        status=400 if error else 200,
        day=day,
        chosen=chosen,
        jurisdictions=known,
        case=case,
        missing=missing,
        number=day_number(day) if case and day else "",
        formats=FORMATS,  # what the list is rendered in (a PNG or JPG is only a scan's)
        error=error,
    )


@guarded("enforce")
def download(request: Request) -> Response:
    """The day's list in one format, rendered from the register's pieces now."""
    # documents.mailing_list and others take 19 ms to import (docgen modules): loaded on first use
    from docgen.documents.mailing_list import day_number
    from docgen.register.matter.mailing import jurisdictions

    fmt = request.path_params["fmt"]
    try:
        day = date.fromisoformat(request.path_params["day"])
    except ValueError:
        day = None
    if day is None or fmt not in FORMATS:
        return render(request, "missing.html.j2", status=404, what="file")
    _, chosen = _asked(request, jurisdictions(register(request)))
    try:
        case = _case(request, day, chosen)
    except DocgenError as err:
        return render(request, "error.html.j2", status=409, message=str(err))
    kind = the_kind(lists_mailings=True)  # the firm mailing list (PS Form 3877)
    tag, result = renderers.run(renderers.case_file, kind, case, fmt)
    if tag != fmt:
        return render(request, "error.html.j2", status=409, message=result)
    return Response(
        result,
        media_type=FORMAT_TYPES[fmt],
        headers={"content-disposition": attachment(f"{day_number(day)}-{kind}.{fmt}")},
    )


routes = [
    Route("/mailing-list", page, methods=["GET"]),
    Route("/mailing-list/{day}.{fmt}", download, methods=["GET"]),
]
