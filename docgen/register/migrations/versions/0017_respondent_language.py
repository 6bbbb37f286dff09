"""A respondent's preferred language (LAW.md § 13): the language of the courtesy copy
offered, by default, when a document is issued to them; never the English original's.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("respondents", sa.Column("language", sa.String(16), nullable=True))


def downgrade() -> None:
    # ALTER TABLE ... DROP COLUMN on both backends (SQLite 3.35 and later): a batch copy
    # would drop the respondents table that documents and offenses refer to.
    op.drop_column("respondents", "language")
