"""The municipality's year on the desk (LAW.md § 15, a reading chosen; `docgen year`):
choose the municipality and the reporting period (the pack's, named by the year it ends
in), see each figure with the rule it follows and its document numbers, and the chart by
month, and download the draft report (PDF, DOCX, HTML, rendered in a rendering process
as the command renders it) or the figures as CSV. Computed from the register only."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from docgen.desk.base.web import FORMAT_TYPES, attachment, guarded, register, render
from docgen.desk.server import renderers
from docgen.documents.kind import Options
from docgen.documents.municipal_year import KIND as REPORT
from docgen.documents.municipal_year import YearCase, context, number_of
from docgen.errors import DocgenError
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack, pack_names
from docgen.law.year import named_holding
from docgen.register.reading.year import as_csv, case_of, figures, reporting_period

CSV_TYPE = "text/csv; charset=utf-8"


def _municipalities() -> list[tuple[str, str]]:
    """(id, name) of each pack that gives a reporting period and the report."""
    found = []
    for name in pack_names():
        pack = load_pack(name)
        if pack.year is not None and pack.provides(REPORT.name):
            found.append((name, pack.name.value))
    return found


def _asked(request: Request, known: list[tuple[str, str]]) -> tuple[str, int]:
    """The municipality and the period's year in the query; by default the first
    municipality and the period that holds today."""
    ids = [j for j, _ in known]
    chosen = request.query_params.get("jurisdiction") or ids[0]
    if chosen not in ids:
        raise DocgenError(f"Municipality: {chosen[:40]!r} is not one this desk reports on")
    text = request.query_params.get("period", "").strip()
    if not text:
        pack = load_pack(chosen)
        return chosen, named_holding(pack.part("year").starts.value, municipal_today(pack))
    if not text.isdigit() or len(text) != 4:
        raise DocgenError(
            f"Reporting period: {text[:20]!r} is not a year; write the year the period ends "
            "in, e.g. 2026"
        )
    return chosen, int(text)


def _report(
    request: Request, jurisdiction: str, year: int
) -> tuple[Any, list[Any], dict[str, Any]]:
    visitor = request.scope["visitor"]
    when = reporting_period(jurisdiction, year, None, None)
    found = figures(register(request).engine, jurisdiction, when.start, when.through)
    by = {"name": visitor.full_name or visitor.name, "title": visitor.title or visitor.role}
    today = municipal_today(load_pack(jurisdiction))
    return when, found, case_of(jurisdiction, when, found, today, by)


@guarded("register")
def page(request: Request) -> Response:
    """The form; the chosen period's figures, chart and downloads (or why there are none)."""
    known = _municipalities()
    chosen, year, error, shown = (known[0][0] if known else ""), None, "", None
    try:
        chosen, year = _asked(request, known)
        when, found, case = _report(request, chosen, year)
        made = context(YearCase.model_validate(case), load_pack(chosen), Options())
        shown = {"when": when, "found": found, "chart": made}
    except DocgenError as err:
        error = str(err).removeprefix("error: ")
    return render(
        request,
        "year.html.j2",
        status=400 if error else 200,
        municipalities=known,
        chosen=chosen,
        year=year,
        shown=shown,
        formats=("pdf", "docx", "html", "csv"),
        error=error,
    )


@guarded("register")
def download(request: Request) -> Response:
    """The draft report in one format, or the figures as CSV, made from the register now."""
    fmt = request.path_params["fmt"]
    if fmt not in (*FORMAT_TYPES, "csv"):
        return render(request, "missing.html.j2", status=404, what="file")
    try:
        chosen, year = _asked(request, _municipalities())
        when, found, case = _report(request, chosen, year)
    except DocgenError as err:
        return render(request, "error.html.j2", status=409, message=str(err))
    name = f"{chosen}-{number_of(when.start, when.end)}-{REPORT.name}.{fmt}"
    if fmt == "csv":
        body: bytes = as_csv(found).encode("utf-8")
        kind = CSV_TYPE
    else:
        tag, result = renderers.run(renderers.case_file, REPORT.name, case, fmt)
        if tag != fmt:
            return render(request, "error.html.j2", status=409, message=result)
        body, kind = result, FORMAT_TYPES[fmt]
    return Response(body, media_type=kind, headers={"content-disposition": attachment(name)})


routes = [
    Route("/year", page, methods=["GET"]),
    Route("/year/report.{fmt}", download, methods=["GET"]),
]
