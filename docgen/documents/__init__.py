"""Document kinds, one module each; KINDS maps a kind's CLI name to its definition.

A kind's module (its case model, checks, template) is imported the first time the kind
is looked up, so `docgen check KIND` loads one kind, not all six. A bundle (the violation
packet) serves several kinds in one file; DOCUMENTS holds the kinds and the bundles, and
:func:`get_kind` answers for either.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import Any

from docgen.documents.base import Kind, Spec
from docgen.errors import DocgenError

MODULES = {
    "notice-of-violation": "docgen.documents.notice_of_violation",
    "stop-work-order": "docgen.documents.stop_work_order",
    "penalty-statement": "docgen.documents.penalty_statement",
    "contractor-certification": "docgen.documents.contractor_certification",
    "maintenance-easement": "docgen.documents.maintenance_easement",
    "maintenance-agreement": "docgen.documents.maintenance_agreement",
    "affidavit-of-service": "docgen.documents.affidavit_of_service",
    "stop-work-lifted": "docgen.documents.stop_work_lifted",
    "mailing-list": "docgen.documents.mailing_list",
    "inspection-report": "docgen.documents.inspection_report",
    "notice-of-deficiency": "docgen.documents.notice_of_deficiency",
    "approval-of-corrected-work": "docgen.documents.approval_of_corrected_work",
    "report-requirement": "docgen.documents.report_requirement",
    "return-receipt": "docgen.documents.return_receipt",
}
BUNDLES = {"packet": "docgen.documents.packet"}


class _Lazy(Mapping[str, Any]):
    """Read-only mapping that imports a kind's module on first access."""

    def __init__(self, modules: dict[str, str]):
        self._modules = modules

    def __getitem__(self, name: str) -> Any:
        if name not in self._modules:
            raise KeyError(name)
        return import_module(self._modules[name]).KIND

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)


KINDS: Mapping[str, Kind] = _Lazy(MODULES)
DOCUMENTS: Mapping[str, Spec] = _Lazy({**MODULES, **BUNDLES})


def kinds_with(**description: object) -> tuple[str, ...]:
    """The kinds whose description has these values (``served=True``,
    ``permission="enforce"``...), in MODULES order: what the register's filters and the
    desk's roles ask instead of listing kinds by name."""
    return tuple(
        name
        for name, kind in KINDS.items()
        if all(getattr(kind, key) == value for key, value in description.items())
    )


def get_kind(name: str) -> Spec:
    """The kind or bundle called ``name``; an unknown name is a DocgenError listing them."""
    try:
        return DOCUMENTS[name]
    except KeyError:
        raise DocgenError(
            f"unknown document kind {name!r}; kinds: {', '.join(DOCUMENTS)}"
        ) from None
