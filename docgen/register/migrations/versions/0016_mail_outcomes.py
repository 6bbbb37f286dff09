"""What comes back after mailing (LAW.md § 2): a table of mail outcomes (the return
receipt recorded on its mailing, or the envelope returned undelivered, with its reason),
frozen once written; each service event names its affidavit; article numbers are
looked up (each mailed piece has its own).

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.migrations.frozen import freeze

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

TABLE = "mail_outcomes"


def upgrade() -> None:
    with op.batch_alter_table("service_events") as batch:
        batch.add_column(sa.Column("affidavit_id", sa.Integer, nullable=True))
        batch.create_foreign_key(
            "fk_service_events_affidavit_id", "documents", ["affidavit_id"], ["id"]
        )
        batch.create_index("ix_service_events_affidavit_id", ["affidavit_id"])
        batch.create_index("ix_service_events_article", ["article"])
    op.create_table(
        TABLE,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column(
            "event_id", sa.Integer, sa.ForeignKey("service_events.id"), nullable=False, unique=True
        ),
        sa.Column("outcome", sa.String(20), nullable=False),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("signed_by", sa.String(500)),
        sa.Column("reason", sa.String(40)),
        sa.Column("appeal_deadline", sa.Date),
        sa.Column("scan_sha256", sa.String(64)),
        sa.Column("annex_id", sa.Integer, sa.ForeignKey("documents.id")),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
        sa.CheckConstraint("outcome IN ('receipt', 'returned')", name="ck_mail_outcomes_outcome"),
    )
    freeze(TABLE)


def downgrade() -> None:
    op.drop_table(TABLE)
    with op.batch_alter_table("service_events") as batch:
        batch.drop_index("ix_service_events_article")
        batch.drop_index("ix_service_events_affidavit_id")
        batch.drop_constraint("fk_service_events_affidavit_id", type_="foreignkey")
        batch.drop_column("affidavit_id")
