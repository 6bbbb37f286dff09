"""Access codes of issued documents (the public check), kept as Argon2id hashes, and
whether each document's PDF was signed; frozen like the documents they belong to.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "access_codes",
        sa.Column("document_id", sa.Integer, sa.ForeignKey("documents.id"), primary_key=True),
        sa.Column("code_hash", sa.String(200), nullable=False),
        sa.Column("signed", sa.Boolean, nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER access_codes_frozen BEFORE UPDATE OR DELETE ON access_codes "
            "FOR EACH ROW EXECUTE FUNCTION docgen_frozen()"
        )
        return
    for event in ("UPDATE", "DELETE"):
        op.execute(
            f"CREATE TRIGGER access_codes_frozen_{event.lower()} BEFORE {event} ON "
            "access_codes BEGIN SELECT RAISE(ABORT, 'docgen register: access_codes rows "
            "are frozen once written'); END"
        )


def downgrade() -> None:
    op.drop_table("access_codes")
