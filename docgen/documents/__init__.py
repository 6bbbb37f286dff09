"""Document kinds, one module each; KINDS maps a kind's CLI name to its definition."""

from __future__ import annotations

from docgen.documents import penalty_statement
from docgen.documents.base import Kind
from docgen.errors import DocgenError

KINDS: dict[str, Kind] = {kind.name: kind for kind in (penalty_statement.KIND,)}


def get_kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise DocgenError(f"unknown document kind {name!r}; kinds: {', '.join(KINDS)}") from None
