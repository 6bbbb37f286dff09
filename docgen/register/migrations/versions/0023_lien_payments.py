"""Payments on a lien (§ 228-79C(6); LAW.md § 14): "the cost of which shall become a lien
upon the property until paid". Each payment recorded against a notice of lien: the amount
(in cents), the day it was paid, by whom, and who recorded it; the release of the lien is
issued only once the payments cover the lien's amount.

Revision ID: 0023
Revises: 0020
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.storage.models import UtcDateTime

revision = "0023"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lien_payments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "document_id", sa.Integer, sa.ForeignKey("documents.id"), nullable=False, index=True
        ),
        sa.Column("amount_cents", sa.Integer, nullable=False),
        sa.Column("paid_on", sa.Date, nullable=False),
        sa.Column("paid_by", sa.String(500), nullable=False),
        sa.Column("recorded_at", UtcDateTime, nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lien_payments")
