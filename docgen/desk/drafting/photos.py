"""Photos taken at an inspection, sent from the officer's phone into a draft (§ 228-79A(1);
LAW.md § 11): chosen through the browser's file input (the phone offers its camera there),
checked by content, bounded in size and count, and kept in the draft's own folder, the
folder its case's photo files are read from (docgen.documents.photos, as beside a case file).

Each photo is checked and made anew before anything is kept (docgen.documents.photos.uploaded),
in one of the desk's rendering processes (docgen.desk.server.renderers.photo, under its memory
limit; never in the server's process): a file that is not a JPEG or PNG by its first
bytes, too large in bytes or in the pixels its header declares, or one too many, is
refused with every problem at once and nothing kept. Of what the camera wrote, only the
time it was taken is kept, and the location (the EXIF GPS block) when the officer keeps
it; the time is read from the camera's own record when it wrote one.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from docgen.cases.inspection import INSPECT as WHY  # photos taken at the inspection
from docgen.cases.inspection import PHOTOS as FIELD
from docgen.desk.base import forms
from docgen.desk.base.database import Draft
from docgen.desk.base.web import posted
from docgen.desk.drafting import drafts
from docgen.desk.drafting.draft_files import folder, takes_photos
from docgen.desk.server import renderers
from docgen.documents.photos import MAX_BYTES, MAX_PHOTOS
from docgen.errors import Problem


def _filled(pairs: list[list[str]]) -> list[int]:
    """The rows of the photos group that hold anything typed or sent."""
    pattern = re.compile(rf"{FIELD}\[([0-9]+)\]")
    return sorted({int(m.group(1)) for n, v in pairs if v and (m := pattern.match(n))})


@drafts.on_draft("enforce")
def add(request: Request, draft: Draft) -> Response:
    """Keep the photos sent, each one a new row of the draft's photos; all or none."""
    if not takes_photos(draft.kind):
        return drafts.refused(request, draft, [Problem(FIELD, "this document takes no photos")])
    form = posted(request)
    sent = [
        (Path(f.filename).name, f)
        for f in form.getlist(FIELD)
        if not isinstance(f, str) and f.filename
    ]
    keep = form.get("keep_location") == "yes"
    filled = _filled(draft.fields)
    problems = []
    if not sent:
        problems.append(Problem(FIELD, "choose one photo or more (JPEG or PNG)", WHY))
    if len(filled) + len(sent) > MAX_PHOTOS:
        message = (
            f"{len(filled)} kept and {len(sent)} sent; an inspection keeps at most "
            f"{MAX_PHOTOS} photos"
        )
        problems.append(Problem(FIELD, message, WHY))
    made: list[Any] = []
    for name, upload in sent if not problems else []:
        tag, value = renderers.run(renderers.photo, upload.file.read(MAX_BYTES + 1), name, keep)
        if tag == "refused":
            problems.append(Problem(FIELD, value, WHY))
        else:
            made.append(value)
    if problems:
        response = drafts.refused(request, draft, problems)
        response.status_code = 400
        return response
    start = filled[-1] + 1 if filled else 0
    pairs = [p for p in draft.fields if not _row_at_or_after(p[0], start)]
    place = folder(draft.id)
    place.mkdir(parents=True, exist_ok=True)
    for n, photo in enumerate(made, start=start):
        name = f"photo-{n + 1}.{photo.extension}"
        (place / name).write_bytes(photo.data)
        row = f"{FIELD}[{n}]"
        taken = f"{photo.taken:%Y-%m-%dT%H:%M}" if photo.taken else ""
        pairs += [[f"{row}.file", name], [f"{row}.taken", taken]]
        pairs += [[f"{row}.keep_location", "yes" if keep else "no"]]
    drafts.save(request, draft, pairs)
    return RedirectResponse(f"/drafts/{draft.id}#{forms.input_id(FIELD)}", status_code=303)


def _row_at_or_after(name: str, start: int) -> bool:
    match = re.match(rf"{FIELD}\[([0-9]+)\]", name)
    return match is not None and int(match.group(1)) >= start


routes = [Route("/drafts/{draft}/photos", add, methods=["POST"])]
