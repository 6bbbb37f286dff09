"""An index on documents.number: a document is looked up by its number alone (every
document page, download and public check), and the unique (jurisdiction, number) index
cannot serve that, so each look-up read the whole table.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_documents_number", "documents", ["number"])


def downgrade() -> None:
    op.drop_index("ix_documents_number", "documents")
