"""The contractors' own certifications: the sites whose SWPPP gathers them, and each
firm's invitation (its token kept as a SHA-256 only, its expiry, whether it was opened,
revoked or used, and the certification it issued).

Revision ID: 0014
Revises: 0013
"""

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "certification_sites",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("jurisdiction", sa.String(40), nullable=False),
        sa.Column("project", sa.JSON, nullable=False),
        sa.Column("site", sa.JSON, nullable=False),
        sa.Column("began", sa.Date),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
    )
    op.create_table(
        "certification_invitations",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("site_id", sa.Integer, sa.ForeignKey("certification_sites.id"), nullable=False),
        sa.Column("firm", sa.String(500), nullable=False),
        sa.Column("email", sa.String(320)),
        sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("expires", sa.Date, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by", sa.String(200), nullable=False),
        sa.Column("mailed_at", sa.DateTime(timezone=True)),
        sa.Column("opened_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_at", sa.DateTime(timezone=True)),
        sa.Column("revoked_by", sa.String(200)),
        sa.Column("document_id", sa.Integer, sa.ForeignKey("documents.id"), unique=True),
        sa.Column("signed_at", sa.DateTime(timezone=True)),
        sa.Column("signed_by", sa.String(500)),
        sa.Column("method", sa.String(20)),
        sa.Column("shown_sha256", sa.String(64)),
    )
    op.create_index(
        "ix_certification_invitations_site_id", "certification_invitations", ["site_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_certification_invitations_site_id", "certification_invitations")
    op.drop_table("certification_invitations")
    op.drop_table("certification_sites")
