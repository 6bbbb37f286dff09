"""Number gaps with their reasons: a number typed above its series' next is taken only
when the clerk says why the numbers before it were not issued here (``--number-gap``);
the gap is recorded with that reason, and `register check` reports every gap in every
series with its reason or "unexplained".

Names' keys read anew: a space inside a CJK name is no word break, and look-alike
letters are Unicode's confusables (UTS #39), so the keys recorded before are recomputed
(docgen.register.people.matching) for every respondent and alias.

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "number_gaps",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("jurisdiction", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("year", sa.Integer(), nullable=False),
        sa.Column("first", sa.Integer(), nullable=False),
        sa.Column("last", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(1000), nullable=False),
        sa.Column("recorded_by", sa.String(200), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_number_gaps_series", "number_gaps", ["jurisdiction", "kind", "year"])


def downgrade() -> None:
    op.drop_index("ix_number_gaps_series", "number_gaps")
    op.drop_table("number_gaps")
