"""A site's log book on the desk (§ 228-78D(2); § 301-73A(2); LAW.md § 12): choose a site,
see its reports as written with each gap and its provision, and upload the inspector's CSV
(all rows or none, every problem named by row and column), or type one report as the
inspector wrote it (checked as a CSV row is, every problem named by the form's label, what
was typed kept). The log book is opened with `docgen logbook SITE --open`; the gaps are
docgen.law.logbook's."""

from __future__ import annotations

import tempfile
from pathlib import Path, PurePath
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base.web import guarded, posted, register, render
from docgen.errors import DocgenError
from docgen.register.sites.logbook import (
    COLUMNS,
    MAX_BYTES,
    ROLES,
    add_entries,
    add_entry,
    log_sites,
    logbook,
)
from docgen.register.storage.db import Refused

# The form's label of each column of a report (LAW.md § 12: as the inspector wrote it);
# the page and every message about a field read them here.
ENTRY = {
    "date": "Date inspected",
    "time": "Time",
    "inspector": "Inspector",
    "qualification": "Qualification",
    "role": "Inspected as",
    "rainfall": "Rainfall (inches, when recorded)",
    "findings": "Findings",
    "corrective_actions": "Corrective actions",
}


def _label(column: str) -> str:
    return ENTRY.get(column, column).split(" (")[0]


def _page(
    request: Request,
    site: str,
    status: int = 200,
    error: str | list[str] = "",
    typed: dict[str, str] | None = None,
    bad: frozenset[str] = frozenset(),
) -> Response:
    reg = register(request)
    sites = log_sites(reg)
    log = logbook(reg, site) if site in sites else None
    return render(
        request,
        "logbook.html.j2",
        status=status,
        sites=sites,
        site=site,
        log=log,
        columns=COLUMNS,
        labels=ENTRY,
        roles=ROLES,
        error=[error] if isinstance(error, str) and error else error,
        typed=typed or {},
        bad=bad,
        done=request.query_params.get("done", ""),
        already=request.query_params.get("already", ""),
    )


@guarded("enforce")
def page(request: Request) -> Response:
    return _page(request, request.query_params.get("site", ""))


@guarded("enforce")
def upload(request: Request) -> Response:
    form = posted(request)
    site = str(form.get("site") or "")
    file = form.get("file")
    if file is None or isinstance(file, str) or not file.filename:
        return _page(request, site, 400, "Choose the log book's CSV file.")
    blob = file.file.read(MAX_BYTES + 1)
    if len(blob) > MAX_BYTES:
        return _page(request, site, 413, "The file is larger than 5 MB; split it in parts.")
    name = PurePath(file.filename).name or "logbook.csv"
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(blob)
        try:
            added = add_entries(register(request), site, path, request.scope["visitor"].name)
        except DocgenError as err:
            return _page(request, site, 400, str(err).removeprefix("error: "))
    done = f"done={added.recorded}" + (f"&already={added.already}" if added.already else "")
    return RedirectResponse(f"/logbook?site={quote(site)}&{done}", status_code=303)


@guarded("enforce")
def add_one(request: Request) -> Response:
    """One report typed in the form; a refusal shows every problem by its label, beside
    what was typed, and records nothing."""
    form = posted(request)
    site = str(form.get("site") or "")
    typed = {c: str(form.get(c) or "") for c in COLUMNS}
    try:
        add_entry(register(request), site, typed, request.scope["visitor"].name)
    except Refused as err:
        bad = frozenset(p.field for p in err.problems)
        return _page(request, site, 400, err.said(_label), typed, bad)
    except DocgenError as err:
        return _page(request, site, 400, str(err).removeprefix("error: "), typed)
    return RedirectResponse(f"/logbook?site={quote(site)}&done=1", status_code=303)


routes = [
    Route("/logbook", page, methods=["GET"]),
    Route("/logbook", upload, methods=["POST"]),
    Route("/logbook/entry", add_one, methods=["POST"]),
]
