"""The files a draft's case names (an inspection's photos, docgen.desk.drafting.photos; an
easement's map exhibit, docgen.desk.drafting.uploads): kept in the draft's own folder on the
desk's server under names the desk made, and read from there as the files sent with a case are
(docgen.documents.exhibits.SentFiles): a name in the draft is a key among the files the
desk wrote, never a path, so nothing else on the server's disk can be named."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, get_args

from docgen.cases.inspection import PHOTOS as FIELD
from docgen.cases.inspection import Photo
from docgen.documents import get_kind
from docgen.documents.exhibits import SentFiles
from docgen.settings import home

ADVICE = (
    "the desk reads only files uploaded to the draft, never a path typed: choose the file "
    "on the draft's page and send it there"
)


def takes_photos(kind: str) -> bool:
    """Whether ``kind``'s case lists photos (its description's model says so)."""
    info = get_kind(kind).model.model_fields.get(FIELD)
    return info is not None and Photo in get_args(info.annotation)


def folder(draft_id: int) -> Path:
    """The folder the files of draft ``draft_id`` are kept in (its case's folder)."""
    return home() / "desk-photos" / f"draft-{draft_id}"


def case_dir(draft: Any) -> SentFiles:
    """The files the desk wrote for the draft, each found by its own name (none: none)."""
    place = folder(draft.id)
    found = place.iterdir() if place.is_dir() else ()
    names = sorted(p.name for p in found if p.is_file() and p.name[0] != ".")  # not a .sending
    return SentFiles(place, tuple((name, name) for name in names), ADVICE)


def discard(draft_id: int) -> None:
    shutil.rmtree(folder(draft_id), ignore_errors=True)
