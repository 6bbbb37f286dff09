"""The register: respondents, sites, frozen documents and their files, offenses, service
events, numbering counters and the audit trail.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.migrations.frozen import freeze

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

FROZEN = ("documents", "document_files", "audit")


def _when() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "respondents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(500), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("name_key", sa.String(500), nullable=False, index=True),
        sa.Column("created_at", _when(), nullable=False),
    )
    op.create_table(
        "respondent_aliases",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("respondent_id", sa.Integer, sa.ForeignKey("respondents.id"), nullable=False),
        sa.Column("name", sa.String(500), nullable=False),
        sa.Column("name_key", sa.String(500), nullable=False, index=True),
        sa.UniqueConstraint("respondent_id", "name_key"),
    )
    op.create_table(
        "respondent_addresses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("respondent_id", sa.Integer, sa.ForeignKey("respondents.id"), nullable=False),
        sa.Column("street", sa.String(500), nullable=False),
        sa.Column("city", sa.String(500), nullable=False),
        sa.Column("state", sa.String(2), nullable=False),
        sa.Column("zip", sa.String(10), nullable=False),
        sa.Column("address_key", sa.String(1200), nullable=False, index=True),
        sa.UniqueConstraint("respondent_id", "address_key"),
    )
    op.create_table(
        "sites",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("site_key", sa.String(1200), nullable=False, index=True),
        sa.Column("address", sa.String(1200)),
        sa.Column("description", sa.Text),
        sa.Column("tax_map", sa.String(500)),
    )
    op.create_table(
        "documents",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("jurisdiction", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("number", sa.String(200), nullable=False),
        sa.Column("issued", sa.Date, nullable=False),
        sa.Column("respondent_id", sa.Integer, sa.ForeignKey("respondents.id"), index=True),
        sa.Column("site_id", sa.Integer, sa.ForeignKey("sites.id")),
        sa.Column("supersedes_id", sa.Integer, sa.ForeignKey("documents.id"), unique=True),
        sa.Column("about_id", sa.Integer, sa.ForeignKey("documents.id"), index=True),
        sa.Column("case", sa.JSON, nullable=False),
        sa.Column("remedies_due", sa.Date),
        sa.Column("docgen_version", sa.String(40), nullable=False),
        sa.Column("pack_version", sa.String(80), nullable=False),
        sa.Column("recorded_at", _when(), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
        sa.UniqueConstraint("jurisdiction", "number"),
        sa.Index("ix_documents_kind_issued", "kind", "issued"),
    )
    op.create_table(
        "document_files",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("document_id", sa.Integer, sa.ForeignKey("documents.id"), nullable=False),
        sa.Column("format", sa.String(10), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False, index=True),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("content", sa.LargeBinary, nullable=False),
        sa.UniqueConstraint("document_id", "format"),
    )
    op.create_table(
        "offenses",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("respondent_id", sa.Integer, sa.ForeignKey("respondents.id"), nullable=False),
        sa.Column("document_id", sa.Integer, sa.ForeignKey("documents.id"), unique=True),
        sa.Column("jurisdiction", sa.String(40), nullable=False),
        sa.Column("committed", sa.Date, nullable=False),
        sa.Column("continued_through", sa.Date),
        sa.Column("violations", sa.JSON, nullable=False),
        sa.Column("disposition", sa.String(20), nullable=False),
        sa.Column("disposition_date", sa.Date),
        sa.Column("convicted", sa.Date),
        sa.Column("court", sa.String(500)),
        sa.Column("docket", sa.String(200)),
        sa.Column("reference", sa.String(500)),
        sa.CheckConstraint(
            "disposition IN ('pending', 'convicted', 'dismissed', 'acquitted', 'withdrawn')",
            name="ck_offenses_disposition",
        ),
    )
    op.create_index("ix_offenses_respondent_id", "offenses", ["respondent_id"])
    op.create_table(
        "service_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("document_id", sa.Integer, sa.ForeignKey("documents.id"), nullable=False),
        sa.Column("method", sa.String(30), nullable=False),
        sa.Column("date", sa.Date, nullable=False),
        sa.Column("received", sa.Date),
        sa.Column("served_by", sa.String(200), nullable=False),
        sa.Column("article", sa.String(60)),
        sa.Column("appeal_deadline", sa.Date),
        sa.Column("recorded_at", _when(), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
    )
    op.create_index("ix_service_events_document_id", "service_events", ["document_id"])
    op.create_table(
        "counters",
        sa.Column("jurisdiction", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(40), primary_key=True),
        sa.Column("year", sa.Integer, primary_key=True),
        sa.Column("last", sa.Integer, nullable=False),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", _when(), nullable=False, index=True),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("entity", sa.String(40), nullable=False),
        sa.Column("entity_id", sa.Integer, nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )
    _freeze()


def _freeze() -> None:
    """Issued documents, their files and the audit trail are never updated or deleted."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION docgen_frozen() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            "RAISE EXCEPTION 'docgen register: % rows are frozen once written', TG_TABLE_NAME; "
            "END $$"
        )
    for table in FROZEN:
        freeze(table)


def downgrade() -> None:
    for table in ("audit", "counters", "service_events", "offenses", "document_files"):
        op.drop_table(table)
    for table in ("documents", "sites", "respondent_addresses", "respondent_aliases"):
        op.drop_table(table)
    op.drop_table("respondents")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION docgen_frozen()")
