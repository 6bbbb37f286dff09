"""A site's log book on the desk (§ 228-78D(2); § 301-73A(2); LAW.md § 12): choose a site,
see its reports as written with each gap and its provision, and upload the inspector's CSV
(all rows or none, every problem named by row and column). The log book is opened with
`docgen logbook SITE --open`; the gaps are docgen.law.logbook's."""

from __future__ import annotations

import tempfile
from pathlib import Path, PurePath
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.register_pages import register
from docgen.desk.web import guarded, posted, render
from docgen.errors import DocgenError
from docgen.register.logbook import COLUMNS, MAX_BYTES, add_entries, log_sites, logbook


def _page(request: Request, site: str, status: int = 200, error: str = "") -> Response:
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
        error=error,
        done=request.query_params.get("done", ""),
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
            count = add_entries(register(request), site, path, request.scope["visitor"].name)
        except DocgenError as err:
            return _page(request, site, 400, str(err).removeprefix("error: "))
    return RedirectResponse(f"/logbook?site={quote(site)}&done={count}", status_code=303)


routes = [
    Route("/logbook", page, methods=["GET"]),
    Route("/logbook", upload, methods=["POST"]),
]
