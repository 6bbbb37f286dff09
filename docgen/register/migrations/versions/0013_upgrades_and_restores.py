"""The register's own history: each schema upgrade with the docgen version that made it (so
an older docgen can say which version the register needs), and each restore from a backup
with the highest number of every series at backup time and, once the clerk has said, the
numbers used after the backup (a restored register issues nothing until then).

Revision ID: 0013
Revises: 0012
"""

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "register_upgrades",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revision_from", sa.String(40)),
        sa.Column("revision_to", sa.String(40), nullable=False),
        sa.Column("version", sa.String(100), nullable=False),
    )
    op.create_table(
        "restores",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("backup", sa.String(1000), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("by", sa.String(200), nullable=False),
        sa.Column("highest", sa.JSON, nullable=False),
        sa.Column("accounted_at", sa.DateTime(timezone=True)),
        sa.Column("accounted_by", sa.String(200)),
        sa.Column("gaps", sa.JSON),
    )


def downgrade() -> None:
    op.drop_table("restores")
    op.drop_table("register_upgrades")
