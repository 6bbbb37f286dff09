"""Older convictions into the register from a CSV upload: the rows are read and checked as
the register's own import reads them (docgen.register.people.history_csv; `docgen register
import-history`) and shown first, with every problem; then imported all or nothing
(docgen.register.people.imports)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path, PurePath
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.cases import labels
from docgen.desk.base.web import guarded, once, posted, render
from docgen.errors import DocgenError

MAX_CSV = 2 * 1024 * 1024  # a village's older convictions: some thousands of rows at most


def said(err: DocgenError, name: str) -> list[str]:
    """The register's refusal of an upload as the clerk reads it: each problem a line, a
    place in the file as the row of the sheet ("Row 3 of the file you uploaded"), never
    the file's name and line ("older.csv:3")."""
    lines = []
    for line in str(err).splitlines():
        line = re.sub(
            rf"{re.escape(name)}:(\d+): ([a-z_]+): ",
            r"row \1 of the file you uploaded, column \2: ",
            line,
        )
        line = re.sub(rf"{re.escape(name)}:(\d+)", r"row \1 of the file you uploaded", line)
        line = re.sub(rf"{re.escape(name)}\b", "the file you uploaded", line.strip())
        if line:
            lines.append(labels.capital(line))
    return lines


@guarded("enforce")
def upload_page(request: Request) -> Response:
    return _page(request)


def _page(request: Request, status: int = 200, **context: Any) -> Response:
    # register.people.history_csv takes 8 ms to import (docgen modules): loaded on first use
    from docgen.register.people.history_csv import REQUIRED

    error = context.get("error") or []
    context["error"] = [error] if isinstance(error, str) else error
    context.setdefault("done", request.query_params.get("done", ""))
    return render(request, "import.html.j2", status=status, columns=REQUIRED, **context)


@guarded("enforce")
def preview(request: Request) -> Response:
    """The rows of the uploaded CSV as the register reads them, and every problem it finds
    in them; nothing recorded."""
    # register.people.history_csv takes 8 ms to import (docgen modules): loaded on first use
    from docgen.register.people.history_csv import default_jurisdiction, read_rows, validate

    upload = posted(request).get("file")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return _page(request, 400, error="Choose the CSV file of convictions to import.")
    blob = upload.file.read(MAX_CSV + 1)
    if len(blob) > MAX_CSV:
        return _page(request, 413, error="The file is larger than 2 MB; split it in parts.")
    name = PurePath(upload.filename).name or "upload.csv"
    if (refusal := _bad_name(name)) is not None:
        return _page(request, 400, error=refusal)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(blob)
        try:
            rows = read_rows(path, default_jurisdiction())
        except DocgenError as err:
            return _page(request, 400, error=said(err, name))
        try:
            validate(rows, name)
        except DocgenError as err:
            rows_read = [c for _, c in rows]
            return _page(request, 400, error=said(err, name), rows=rows_read, filename=name)
    text = blob.decode("utf-8-sig")
    return _page(request, rows=[c for _, c in rows], text=text, filename=name)


MAX_NAME_BYTES = 200  # a file name on every file system the desk runs on takes 255


def _bad_name(name: str) -> str | None:
    """Why the uploaded file's ``name`` cannot be used (it names the file's rows in the
    problems found), or None."""
    if name in (".", "..") or len(name.encode()) > MAX_NAME_BYTES or not name.isprintable():
        return (
            f"The file's name cannot be used ({name[:40]!r}{'...' if len(name) > 40 else ''}): "
            f"rename it (at most {MAX_NAME_BYTES} characters, not '.' or '..', no control "
            "characters) and upload it again. Nothing was imported."
        )
    return None


@guarded("enforce")
def commit(request: Request) -> Response:
    return once(request, _commit)


def _commit(request: Request) -> Response:
    """Every row imported, or none (the register refuses the whole file on one bad row)."""
    # register.people.imports takes 58 ms to import (docgen modules): loaded on first use
    from docgen.register.people.imports import import_history

    form = posted(request)
    text = str(form.get("text") or "")
    name = PurePath(str(form.get("filename") or "upload.csv")).name or "upload.csv"
    if not text or len(text.encode()) > MAX_CSV:
        return _page(request, 400, error="Upload the file again: nothing was imported.")
    if (refusal := _bad_name(name)) is not None:
        return _page(request, 400, error=refusal)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text(text, encoding="utf-8")
        try:
            done = import_history(request.app.state.register(), path, request.scope["visitor"].name)
        except DocgenError as err:
            return _page(request, 400, error=said(err, name), text=text, filename=name)
    return RedirectResponse(f"/history/import?done={len(done.lines)}", status_code=303)


routes = [
    Route("/history/import", upload_page, methods=["GET"]),
    Route("/history/import", preview, methods=["POST"]),
    Route("/history/import/commit", commit, methods=["POST"]),
]
