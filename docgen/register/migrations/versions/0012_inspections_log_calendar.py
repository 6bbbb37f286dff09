"""Reinspections asked for, the site log book and calendar feed tokens (§ 228-79A(1),
§ 228-78D(2), § 301-73A(2); LAW.md §§ 11, 12).

- ``reinspection_requests``: a reinspection asked for on a notice of deficiency (who, when);
  the calendar shows it until a reinspection of that notice is recorded.
- ``log_sites``: a site whose log book the register keeps, with the facts that set its
  interval (the D(2)(c) exemption, the D(2)(d) authorization to disturb an acre or more).
- ``log_entries``: each log book report as the inspector wrote it.
- ``calendar_tokens``: the secret of each user's calendar feed, kept as its SHA-256,
  revocable.

Revision ID: 0012
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.storage.models import UtcDateTime

revision = "0012"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reinspection_requests",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "document_id", sa.Integer, sa.ForeignKey("documents.id"), nullable=False, index=True
        ),
        sa.Column("asked_on", sa.Date, nullable=False),
        sa.Column("asked_by", sa.String(500), nullable=False),
        sa.Column("recorded_at", UtcDateTime, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    op.create_table(
        "log_sites",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("jurisdiction", sa.String(40), nullable=False),
        sa.Column("site_id", sa.Integer, sa.ForeignKey("sites.id"), nullable=False, unique=True),
        sa.Column("started", sa.Date, nullable=False),
        sa.Column("ended", sa.Date),
        sa.Column("exemption", sa.String(40)),
        sa.Column("acre_authorized", sa.String(3), nullable=False),
        sa.Column("recorded_at", UtcDateTime, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    op.create_table(
        "log_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "log_site_id", sa.Integer, sa.ForeignKey("log_sites.id"), nullable=False, index=True
        ),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("time", sa.String(5), nullable=False),
        sa.Column("inspector", sa.String(500), nullable=False),
        sa.Column("qualification", sa.String(500), nullable=False),
        sa.Column("role", sa.String(30), nullable=False),
        sa.Column("rainfall", sa.String(20)),
        sa.Column("findings", sa.Text, nullable=False),
        sa.Column("corrective_actions", sa.Text),
        sa.Column("source", sa.String(1000), nullable=False),
        sa.Column("recorded_at", UtcDateTime, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    op.create_table(
        "calendar_tokens",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_name", sa.String(100), nullable=False, index=True),
        sa.Column("token_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", UtcDateTime, nullable=False),
        sa.Column("revoked_at", UtcDateTime),
    )


def downgrade() -> None:
    for table in ("calendar_tokens", "log_entries", "log_sites", "reinspection_requests"):
        op.drop_table(table)
