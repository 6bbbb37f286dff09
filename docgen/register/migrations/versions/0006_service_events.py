"""A service event per person served (LAW.md § 2, § 10): on whom (the landowner, or a
person the document was copied to) and their role, the time of a personal delivery, the
place, the address mailed to, the individual who took it for a firm with their capacity
and a description, and who signed the return receipt.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

COLUMNS = (
    ("served_on", sa.String(500)),
    ("role", sa.String(20)),
    ("time", sa.String(5)),
    ("place", sa.String(1200)),
    ("address", sa.String(1200)),
    ("individual", sa.String(500)),
    ("capacity", sa.String(200)),
    ("description", sa.Text),
    ("received_by", sa.String(500)),
)


def upgrade() -> None:
    for name, kind in COLUMNS:
        op.add_column("service_events", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("service_events") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
