"""The SWPPP's set of a site's signed certifications as one PDF, recorded and sealed
(docgen.register.sites.certification_sets): the site, the numbers it holds in order, its
SHA-256 and bytes; frozen once written, like the documents it holds.

Revision ID: 0018
Revises: 0017
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.migrations.frozen import freeze

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

TABLE = "certification_sets"


def upgrade() -> None:
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("site_id", sa.Integer, sa.ForeignKey("certification_sites.id"), nullable=False),
        sa.Column("numbers", sa.JSON, nullable=False),
        sa.Column("holds_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("sha256", sa.String(64), nullable=False, index=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
        sa.Column("signed", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
    )
    freeze(TABLE)


def downgrade() -> None:
    op.drop_table(TABLE)
