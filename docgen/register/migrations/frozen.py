"""Rows frozen once written (documents, their files, the audit trail, mail outcomes, sets
of certifications): the triggers that refuse an UPDATE or DELETE, for a migration that
makes such a table. On PostgreSQL they call docgen_frozen(), made by migration 0001."""

from __future__ import annotations

from alembic import op


def freeze(table: str) -> None:
    """Refuse every later UPDATE and DELETE of ``table``'s rows, on either backend."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            f"CREATE TRIGGER {table}_frozen BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION docgen_frozen()"
        )
        return
    for event in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER {table}_frozen_{event.lower()} BEFORE {event} ON {table} "
            f"BEGIN SELECT RAISE(ABORT, 'docgen register: {table} rows are frozen once "
            "written'); END"
        )
