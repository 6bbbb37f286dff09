"""Document kinds, one module each; KINDS maps a kind's CLI name to its definition.

A kind's module (its case model, checks, template) is imported the first time the kind
is looked up, so `docgen check KIND` loads one kind, not all six.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from docgen.documents.base import Kind
from docgen.errors import DocgenError

MODULES = {
    "notice-of-violation": "docgen.documents.notice_of_violation",
    "stop-work-order": "docgen.documents.stop_work_order",
    "penalty-statement": "docgen.documents.penalty_statement",
    "contractor-certification": "docgen.documents.contractor_certification",
    "maintenance-easement": "docgen.documents.maintenance_easement",
    "maintenance-agreement": "docgen.documents.maintenance_agreement",
}


class _Kinds(Mapping[str, Kind]):
    """Read-only mapping that imports a kind's module on first access."""

    def __getitem__(self, name: str) -> Kind:
        if name not in MODULES:
            raise KeyError(name)
        return import_module(MODULES[name]).KIND

    def __iter__(self) -> Iterator[str]:
        return iter(MODULES)

    def __len__(self) -> int:
        return len(MODULES)


KINDS: Mapping[str, Kind] = _Kinds()


def get_kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise DocgenError(f"unknown document kind {name!r}; kinds: {', '.join(KINDS)}") from None
