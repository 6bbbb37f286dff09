"""The desk's tables under the register's migrations, and one audit trail.

The desk used to make its tables itself (``create_all`` on first use, then ``ALTER
TABLE`` for the users' columns added since: full name, title, removed) and kept its
sign-ins and account changes in an audit table of its own, ``desk_audit``. Now every
desk table is made here where it is absent (a register a desk has used has them, with or
without the three later columns; a register made fresh has none), and the desk's audit
rows are copied, oldest first, into the register's audit trail (entity ``user``, the
account's name in ``detail``), which is frozen once written; ``desk_audit`` is dropped.

Revision ID: 0020
Revises: 0019
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

from docgen.register.storage.models import UtcDateTime

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

USERS = "desk_users"
OLD_AUDIT = "desk_audit"
ACCOUNT = "user"  # docgen.register.storage.models.DESK_ACCOUNT, as of this revision


def _tables() -> list[tuple[str, list[sa.schema.SchemaItem], list[str]]]:
    """Each desk table: its name, its columns, its indexed columns."""

    def users() -> sa.ForeignKey:
        return sa.ForeignKey(f"{USERS}.id", ondelete="CASCADE")

    return [
        (
            USERS,
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("name", sa.String(100), nullable=False, unique=True),
                sa.Column("role", sa.String(20), nullable=False),
                sa.Column("password_hash", sa.String(200), nullable=False),
                sa.Column("created", UtcDateTime, nullable=False),
                *_added_columns(),
            ],
            [],
        ),
        (
            "desk_user_sites",
            [
                sa.Column("user_id", sa.Integer, users(), primary_key=True),
                sa.Column("site_id", sa.Integer, primary_key=True),
            ],
            [],
        ),
        (
            "desk_sessions",
            [
                sa.Column("token_hash", sa.String(64), primary_key=True),
                sa.Column("user_id", sa.Integer, users(), nullable=False),
                sa.Column("csrf", sa.String(64), nullable=False),
                sa.Column("created", UtcDateTime, nullable=False),
                sa.Column("last_seen", UtcDateTime, nullable=False),
            ],
            [],
        ),
        (
            "desk_login_failures",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("name", sa.String(100), nullable=False),
                sa.Column("client", sa.String(64), nullable=False),
                sa.Column("at", UtcDateTime, nullable=False),
            ],
            ["name", "client", "at"],
        ),
        (
            "desk_public_checks",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("client", sa.String(64), nullable=False),
                sa.Column("at", UtcDateTime, nullable=False),
                sa.Column("upload", sa.Boolean, nullable=False),
                sa.Column("finished", UtcDateTime, nullable=True),
            ],
            ["client", "at"],
        ),
        (
            "desk_submissions",
            [
                sa.Column("token", sa.String(64), primary_key=True),
                sa.Column("user_id", sa.Integer, nullable=False),
                sa.Column("at", UtcDateTime, nullable=False),
                sa.Column("result", sa.String(300), nullable=True),
            ],
            ["at"],
        ),
        (
            "desk_drafts",
            [
                sa.Column("id", sa.Integer, primary_key=True),
                sa.Column("user_id", sa.Integer, users(), nullable=False),
                sa.Column("kind", sa.String(40), nullable=False),
                sa.Column("jurisdiction", sa.String(40), nullable=False),
                sa.Column("fields", sa.JSON, nullable=False),
                sa.Column("created", UtcDateTime, nullable=False),
                sa.Column("updated", UtcDateTime, nullable=False),
                sa.Column("issued_as", sa.String(100), nullable=True),
            ],
            [],
        ),
    ]


def _added_columns() -> list[sa.Column[Any]]:
    """The users' columns an older desk added with ALTER TABLE after it made the table."""
    return [
        sa.Column("full_name", sa.String(200), nullable=False, server_default=""),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        sa.Column("removed", UtcDateTime, nullable=True),
    ]


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    present = set(inspector.get_table_names())
    for name, columns, indexed in _tables():
        if name in present:
            continue
        op.create_table(name, *columns)
        for key in indexed:
            op.create_index(f"ix_{name}_{key}", name, [key])
    if USERS in present:
        have = {c["name"] for c in inspector.get_columns(USERS)}
        for column in _added_columns():
            if column.name not in have:
                # ALTER TABLE ... ADD COLUMN on both backends: a batch copy would drop the
                # users table that sessions and drafts refer to.
                op.add_column(USERS, column)
    if OLD_AUDIT in present:
        _move_audit()
        op.drop_table(OLD_AUDIT)


def _move_audit() -> None:
    """The desk's audit rows into the register's trail, oldest first: one read, one
    insert of them all."""
    conn = op.get_bind()
    old = sa.table(
        OLD_AUDIT,
        sa.column("id", sa.Integer),
        sa.column("at", UtcDateTime),
        *(sa.column(c, sa.String) for c in ("actor", "action", "subject", "client", "detail")),
    )
    trail = sa.table(
        "audit",
        sa.column("at", UtcDateTime),
        sa.column("actor", sa.String),
        sa.column("action", sa.String),
        sa.column("entity", sa.String),
        sa.column("entity_id", sa.Integer),
        sa.column("detail", sa.JSON),
    )
    rows = conn.execute(sa.select(old).order_by(old.c.id)).all()
    if not rows:
        return
    conn.execute(
        trail.insert(),
        [
            {
                "at": r.at,
                "actor": r.actor,
                "action": r.action,
                "entity": ACCOUNT,
                "entity_id": 0,
                "detail": _said(r.subject, r.client, r.detail),
            }
            for r in rows
        ],
    )


def _said(subject: str, client: str | None, detail: str | None) -> dict[str, str]:
    said = {"user": subject}
    if client:
        said["client"] = client
    if detail:
        said["detail"] = detail
    return said


def downgrade() -> None:
    """An older desk's own audit table, empty: the rows moved stay in the register's trail
    (frozen once written), and an older desk writes its new ones there. The desk's other
    tables and columns stay as an older desk would have made them."""
    op.create_table(
        OLD_AUDIT,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", UtcDateTime, nullable=False),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("subject", sa.String(100), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("detail", sa.String(200), nullable=False),
    )
    op.create_index(f"ix_{OLD_AUDIT}_at", OLD_AUDIT, ["at"])
