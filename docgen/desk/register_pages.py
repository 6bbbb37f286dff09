"""The register in the browser: documents with filters, history, service, verify."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from docgen.desk.web import guarded, render


@guarded("register")
async def documents(request: Request) -> Response:
    return render(request, "documents.html.j2", documents=[])


routes = [Route("/documents", documents, methods=["GET"])]
