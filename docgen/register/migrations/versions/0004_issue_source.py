"""Each document records the content hash of the case or draft that produced it, unique,
so the same case issued twice (a double click, a retry after a crash, two desks) is the
one document.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("documents", sa.Column("source_sha256", sa.String(64), nullable=True))
    op.create_index("ux_documents_source_sha256", "documents", ["source_sha256"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_documents_source_sha256", "documents")
    with op.batch_alter_table("documents") as batch:
        batch.drop_column("source_sha256")
