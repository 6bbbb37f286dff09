"""A file a draft's case names (an easement's map exhibit, LAW.md § 8: the easement area
can be found from the recorded instrument alone): taken as an upload on the draft, never as
a path typed (the exhibit is the case's file, not the server's).

The file sent is checked before anything is kept: by its first bytes (a PDF, PNG or JPEG),
its size (docgen.documents.exhibits.MAX_BYTES), and, read in one of the desk's rendering
processes, as the command line reads a case's exhibit (a PDF bounded in pages, objects,
inflated streams and pixels before its first page is drawn). It is then written into the
draft's own folder under a name the desk makes from the field and the file's content
(``easement-exhibit-<hash>.pdf``), the one the draft's case names; sending another
replaces it, and Remove takes it away. A refusal is the draft's page with the reason beside
the field, nothing kept.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import PurePath

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.desk.base import forms
from docgen.desk.base.database import Draft
from docgen.desk.base.web import posted
from docgen.desk.drafting import drafts
from docgen.desk.drafting.draft_files import folder
from docgen.desk.server import renderers
from docgen.documents.exhibits import MAX_BYTES, file_kind
from docgen.errors import Problem

SUFFIXES = {"pdf": "pdf", "png": "png", "jpeg": "jpg"}
WHAT = f"a PDF, PNG or JPEG file of at most {MAX_BYTES // 2**20} MB"


def own_name(path: str, data: bytes) -> str:
    """The name the desk keeps the file of field ``path`` under: the field, the file's
    content hash and its type read from it. The register knows an issue asked twice by its
    case (docgen.register.matter.issuing.source_hash), which names the file: another map makes
    another name, so a draft differing only in its map is never taken for one issued."""
    digest = hashlib.sha256(data).hexdigest()[:16]
    return f"{_slug(path)}-{digest}.{SUFFIXES[str(file_kind(data[:8]))]}"


def _slug(path: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", path).strip("-")


@drafts.on_draft()
def upload(request: Request, draft: Draft) -> Response:
    """Attach (or replace) the file of one of the draft's file fields, or remove it."""
    form = posted(request)
    node = forms.form_for(draft.kind, draft.jurisdiction)
    fields = forms.uploads(node)
    path = str(form.get("field") or "")
    if path not in fields:
        return drafts.refused(request, draft, [Problem("", "this document takes no such file")])
    kept = forms.values(draft.fields).get(path, "")
    if form.get("_action") == "remove":
        _forget(draft, path, kept)
        return _saved(request, draft, path, "")
    sent = form.get("file")
    if sent is None or isinstance(sent, str) or not sent.filename:
        problem: str | None = f"choose the file to attach ({WHAT}), then press Attach"
    else:
        data = sent.file.read(MAX_BYTES + 1)
        problem = _checked(data, PurePath(sent.filename.replace("\\", "/")).name)
    if problem is not None:
        response = drafts.refused(request, draft, [Problem(path, problem, fields[path].citation)])
        response.status_code = 400
        return response
    name = own_name(path, data)
    place = folder(draft.id)
    place.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=place, prefix=".sending-")
    with os.fdopen(handle, "wb") as out:
        out.write(data)
    os.replace(temporary, place / name)  # whole or not at all
    if kept != name:
        _forget(draft, path, kept)
    return _saved(request, draft, path, name)


def _checked(data: bytes, name: str) -> str | None:
    """Why ``data`` (a file called ``name``) cannot be attached (None: it can), read in a
    rendering process."""
    if not data or len(data) > MAX_BYTES:
        size = "empty" if not data else f"larger than {MAX_BYTES // 2**20} MB"
        return f"{name!r} is {size}; send {WHAT}"
    if file_kind(data[:8]) is None:
        return (
            f"{name!r} is not a PDF, PNG or JPEG file (read from its first bytes, not its "
            f"name); save or scan the map as {WHAT} and send that"
        )
    tag, why = renderers.run(renderers.exhibit, data, name)
    if tag == "refused":
        return f"{why}; send the map's own sheet as {WHAT}"
    return None


def _forget(draft: Draft, path: str, kept: str) -> None:
    """The draft's file of field ``path`` removed (only a name the desk made for it)."""
    if re.fullmatch(rf"{_slug(path)}-[0-9a-f]{{16}}\.(pdf|png|jpg)", kept):
        (folder(draft.id) / kept).unlink(missing_ok=True)


def _saved(request: Request, draft: Draft, path: str, name: str) -> Response:
    pairs = [p for p in draft.fields if p[0] != path]
    if name:
        pairs.append([path, name])
    drafts.save(request, draft, pairs)
    return RedirectResponse(f"/drafts/{draft.id}#{forms.input_id(path)}", status_code=303)


routes = [Route("/drafts/{draft}/upload", upload, methods=["POST"])]
