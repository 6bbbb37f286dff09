"""The parts of a document whose kind splits its case (a certification's firms), kept with
it: at issue each part is rendered with the document's own verification line, signed, and
stored as a further document file ``partN.pdf`` (N counting the parts from 1) with its
SHA-256, so the per-firm file the desk hands out is a file of the issued document and
`verify` names whose part it is."""

from __future__ import annotations

import re
from typing import Any

from docgen.documents import get_kind

_PART = re.compile(r"part([1-9][0-9]?)\.(\w+)")
MOST = 99  # document_files.format holds ten characters: part99.pdf


def part_format(index: int, fmt: str) -> str:
    """The stored format of part ``index`` (from 0) in ``fmt``."""
    return f"part{index + 1}.{fmt}"


def part_of(stored: str) -> int | None:
    """The part index (from 0) of a stored format; None for any other file."""
    found = _PART.fullmatch(stored)
    return int(found[1]) - 1 if found else None


def parts(kind: str, case: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(party, case of that party alone) for each part, when the case has more than one
    and no more than the register keeps; else none (the document is its one part)."""
    spec = get_kind(kind)
    found = spec.split(case) if spec.split is not None else []
    return found if 1 < len(found) <= MOST else []


def part_for(kind: str, case: dict[str, Any], stored: str) -> str | None:
    """Whose part the stored format ``stored`` is, or None."""
    index = part_of(stored)
    found = parts(kind, case)
    if index is None or index >= len(found):
        return None
    return found[index][0]
