"""Older convictions into the register from a CSV upload: the rows are shown first, then
imported all or nothing by the register's own import (`docgen register import-history`),
whose refusals, row by row, are shown with nothing imported."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path, PurePath

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.web import guarded, once, posted, render
from docgen.errors import DocgenError

MAX_CSV = 2 * 1024 * 1024  # a village's older convictions: some thousands of rows at most


@guarded("enforce")
def upload_page(request: Request) -> Response:
    return _page(request)


def _page(request: Request, status: int = 200, **context) -> Response:
    from docgen.register.maintenance import REQUIRED

    context.setdefault("error", "")
    context.setdefault("done", request.query_params.get("done", ""))
    return render(request, "import.html.j2", status=status, columns=REQUIRED, **context)


@guarded("enforce")
def preview(request: Request) -> Response:
    """The rows of the uploaded CSV, as the register would read them; nothing recorded."""
    from docgen.register.maintenance import REQUIRED

    upload = posted(request).get("file")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return _page(request, 400, error="Choose the CSV file of convictions to import.")
    blob = upload.file.read(MAX_CSV + 1)
    if len(blob) > MAX_CSV:
        return _page(request, 413, error="The file is larger than 2 MB; split it in parts.")
    try:
        text = blob.decode("utf-8-sig")
    except UnicodeDecodeError:
        return _page(request, 400, error="The file is not UTF-8 text; save it as CSV UTF-8.")
    rows = list(csv.DictReader(io.StringIO(text)))
    missing = [c for c in REQUIRED if rows and c not in rows[0]]
    if not rows or missing:
        why = "it has no rows" if not rows else f"it lacks the columns {', '.join(missing)}"
        return _page(request, 400, error=f"The file cannot be imported: {why}.")
    name = PurePath(upload.filename).name
    return _page(request, rows=rows, text=text, filename=name)


@guarded("enforce")
def commit(request: Request) -> Response:
    return once(request, _commit)


def _commit(request: Request) -> Response:
    """Every row imported, or none (the register refuses the whole file on one bad row)."""
    from docgen.register.maintenance import import_history

    form = posted(request)
    text = str(form.get("text") or "")
    name = PurePath(str(form.get("filename") or "upload.csv")).name or "upload.csv"
    if not text or len(text.encode()) > MAX_CSV:
        return _page(request, 400, error="Upload the file again: nothing was imported.")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        try:
            done = import_history(request.app.state.register(), path, request.scope["visitor"].name)
        except DocgenError as err:
            return _page(request, 400, error=str(err), text=text, filename=name)
    return RedirectResponse(f"/history/import?done={len(done)}", status_code=303)


routes = [
    Route("/history/import", upload_page, methods=["GET"]),
    Route("/history/import", preview, methods=["POST"]),
    Route("/history/import/commit", commit, methods=["POST"]),
]
