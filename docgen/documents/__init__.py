"""Document kinds, one module each; KINDS maps a kind's CLI name to its definition."""

from __future__ import annotations

from docgen.documents import contractor_certification, penalty_statement
from docgen.documents import notice_of_violation, stop_work_order
from docgen.documents import maintenance_agreement, maintenance_easement
from docgen.documents.base import Kind
from docgen.errors import DocgenError

KINDS: dict[str, Kind] = {
    kind.name: kind for kind in (penalty_statement.KIND, contractor_certification.KIND, notice_of_violation.KIND, stop_work_order.KIND,
    maintenance_easement.KIND, maintenance_agreement.KIND)
}


def get_kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise DocgenError(f"unknown document kind {name!r}; kinds: {', '.join(KINDS)}") from None
