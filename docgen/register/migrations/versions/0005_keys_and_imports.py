"""Names keyed in every script, with a loose key for near matches; imported history in
batches that can be withdrawn.

Every name and address key is computed again by docgen.register.people.matching (the first
keys dropped every letter outside ASCII, so 李娜 and 王伟 had the same, empty key).

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

from docgen.register.migrations.keys import rekey

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for table in ("respondents", "respondent_aliases"):
        # NOT NULL with a default, so SQLite can add it in place (rebuilding a table that
        # others reference would trip their foreign keys); every row is filled below.
        op.add_column(
            table, sa.Column("loose_key", sa.String(500), nullable=False, server_default="")
        )
        op.create_index(f"ix_{table}_loose_key", table, ["loose_key"])
    op.create_table(
        "import_batches",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("source", sa.String(1000), nullable=False),
        sa.Column("sha256", sa.String(64), nullable=False, index=True),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("duplicates", sa.Integer, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
        sa.Column("by", sa.String(200), nullable=False),
        sa.Column("undone_at", sa.DateTime(timezone=True)),
        sa.Column("undone_by", sa.String(200)),
    )
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its reference in place; Alembic would rebuild the table.
        op.execute(
            "ALTER TABLE offenses ADD COLUMN import_batch_id INTEGER REFERENCES import_batches (id)"
        )
    else:
        op.add_column(
            "offenses",
            sa.Column("import_batch_id", sa.Integer, sa.ForeignKey("import_batches.id")),
        )
    op.create_index("ix_offenses_import_batch_id", "offenses", ["import_batch_id"])
    rekey(op.get_bind())


def downgrade() -> None:
    op.drop_index("ix_offenses_import_batch_id", "offenses")
    with op.batch_alter_table("offenses") as batch:
        batch.drop_column("import_batch_id")
    op.drop_table("import_batches")
    for table in ("respondents", "respondent_aliases"):
        op.drop_index(f"ix_{table}_loose_key", table)
        op.drop_column(table, "loose_key")
