"""The files a draft's case names (an inspection's photos, docgen.desk.photos): kept in the
draft's own folder on the desk's server, the folder its case is read from as a case file's
folder is (docgen.documents.exhibits: a name may not leave it)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any, get_args

from docgen.cases.inspection import PHOTOS as FIELD
from docgen.cases.inspection import Photo
from docgen.documents import get_kind
from docgen.settings import home


def takes_photos(kind: str) -> bool:
    """Whether ``kind``'s case lists photos (its description's model says so)."""
    info = get_kind(kind).model.model_fields.get(FIELD)
    return info is not None and Photo in get_args(info.annotation)


def folder(draft_id: int) -> Path:
    """The folder the photos of draft ``draft_id`` are kept in (its case's folder)."""
    return home() / "desk-photos" / f"draft-{draft_id}"


def case_dir(draft: Any) -> Path | None:
    return folder(draft.id) if takes_photos(draft.kind) and folder(draft.id).is_dir() else None


def discard(draft_id: int) -> None:
    shutil.rmtree(folder(draft_id), ignore_errors=True)
