"""The SWPPP and its review (LAW.md § 15; § 228-77D(4), § 228-78B(1), (2); § 301-71A, B):
a site's plan, each revision a row of its own (title, revision or date, preparer and
qualification, permit or NOI identifier; an amendment names the revision it amends and the
items it changes); each review an event (reviewer, date, per item of the pack's list:
present, missing, not adequate with the reviewer's words, or not applicable); the approval
or return letter issued from a review. Every row frozen once written: a later fact is a
new row.

Revision ID: 0024
Revises: 0023
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.migrations.frozen import freeze

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "swppp_plans",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("site_id", sa.Integer, sa.ForeignKey("certification_sites.id"), nullable=False),
        sa.Column("amends_id", sa.Integer, sa.ForeignKey("swppp_plans.id"), unique=True),
        sa.Column("title", sa.String(500), nullable=False),
        sa.Column("revision", sa.String(100), nullable=False),
        sa.Column("dated", sa.Date),
        sa.Column("preparer", sa.String(500), nullable=False),
        sa.Column("qualification", sa.String(500), nullable=False),
        sa.Column("permit", sa.String(200)),
        sa.Column("applicant", sa.String(500)),
        sa.Column("changes", sa.JSON),
        sa.Column("received", sa.Date, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    op.create_index("ix_swppp_plans_site_id", "swppp_plans", ["site_id"])
    op.create_table(
        "swppp_reviews",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("plan_id", sa.Integer, sa.ForeignKey("swppp_plans.id"), nullable=False),
        sa.Column("reviewer", sa.String(500), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("findings", sa.JSON, nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    op.create_index("ix_swppp_reviews_plan_id", "swppp_reviews", ["plan_id"])
    op.create_table(
        "swppp_decisions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "review_id", sa.Integer, sa.ForeignKey("swppp_reviews.id"), nullable=False, unique=True
        ),
        sa.Column(
            "document_id", sa.Integer, sa.ForeignKey("documents.id"), nullable=False, unique=True
        ),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("day", sa.Date, nullable=False),
    )
    op.create_table(
        "fee_payments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "document_id", sa.Integer, sa.ForeignKey("documents.id"), nullable=False, index=True
        ),
        sa.Column("day", sa.Date, nullable=False),
        sa.Column("amount", sa.Numeric(12, 2), nullable=False),
        sa.Column("method", sa.String(200), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    for table in ("swppp_plans", "swppp_reviews", "swppp_decisions", "fee_payments"):
        freeze(table)


def downgrade() -> None:
    for table in ("fee_payments", "swppp_decisions", "swppp_reviews", "swppp_plans"):
        op.drop_table(table)
