"""The desk's verify page: a number, or a file compared byte for byte with what the
register issued under it (`docgen verify`), for the staff signed in.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from docgen.desk.base.web import (
    guarded,
    posted,
    register,
    render,
)

MAX_UPLOAD = 20 * 1024 * 1024


@guarded("register")
def verify_page(request: Request) -> Response:
    return _verified(request)


@guarded("register")
def verify(request: Request) -> Response:
    """Upload a PDF (or DOCX): issued by this register, byte for byte, or not."""
    upload = posted(request).get("file")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return _verified(request, error="Choose the file to verify.", status=400)
    blob = upload.file.read(MAX_UPLOAD + 1)
    if len(blob) > MAX_UPLOAD:
        error = "The file is larger than 20 MB; no document issued here is that large."
        return _verified(request, error=error, status=413)
    return _verified(request, result=register(request).verify(blob), checked=True)


def _verified(
    request: Request, result: Any = None, checked: bool = False, error: str = "", status: int = 200
) -> Response:
    return render(
        request, "verify.html.j2", status=status, result=result, checked=checked, error=error
    )


routes = [
    Route("/verify", verify_page, methods=["GET"]),
    Route("/verify", verify, methods=["POST"]),
]
