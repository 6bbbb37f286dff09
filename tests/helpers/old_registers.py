"""A register at an older schema, as an older docgen left it: made at the newest revision,
then taken back with the migrations' own downgrades (Alembic), so its rows are written
in the layout of that time (``old_layout_row``) and ``docgen register upgrade`` migrates
it as it would a register the older docgen made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

import docgen.register
from docgen.register.storage import db

MIGRATIONS = Path(docgen.register.__file__).parent / "migrations"


def downgraded(url: str, revision: str) -> None:
    """Take the register at ``url`` back to schema ``revision``."""
    _alembic(url, command.downgrade, revision)


def migrated_to(url: str, revision: str) -> None:
    """A new register at ``url`` made at schema ``revision``, as the docgen of that time
    made it on first use."""
    _alembic(url, command.upgrade, revision)


def _alembic(url: str, step, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            config.attributes["connection"] = conn
            step(config, revision)
            conn.commit()
    finally:
        engine.dispose()


def old_layout_row(url: str, table: str, values: dict[str, Any]) -> None:
    """Insert a row into ``table`` with the columns that table has at the register's
    schema now (an older one's: a column it lacks cannot be given)."""
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            reflected = sa.Table(table, sa.MetaData(), autoload_with=conn)
            conn.execute(reflected.insert().values(**values))
    finally:
        engine.dispose()


def execute(url: str, statement: str, **params: Any) -> None:
    engine = db.make_engine(url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text(statement), params)
    finally:
        engine.dispose()


def old_desk_tables(url: str, later_columns: bool = True) -> None:
    """The desk's tables as docgen 0019 and before made them itself (``create_all`` on
    first use, then ``ALTER TABLE`` for the users' columns added since, which a desk
    older still did not have: ``later_columns`` off), with its own ``desk_audit``."""
    from docgen.register.storage.models import UtcDateTime

    meta = sa.MetaData()
    users = ("desk_users.id", "CASCADE")
    sa.Table(
        "desk_users",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, unique=True),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("created", UtcDateTime, nullable=False),
    )
    sa.Table(
        "desk_user_sites",
        meta,
        sa.Column("user_id", sa.ForeignKey(users[0], ondelete=users[1]), primary_key=True),
        sa.Column("site_id", sa.Integer, primary_key=True),
    )
    sa.Table(
        "desk_sessions",
        meta,
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.ForeignKey(users[0], ondelete=users[1]), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", UtcDateTime, nullable=False),
        sa.Column("last_seen", UtcDateTime, nullable=False),
    )
    sa.Table(
        "desk_login_failures",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(100), nullable=False, index=True),
        sa.Column("client", sa.String(64), nullable=False, index=True),
        sa.Column("at", UtcDateTime, nullable=False, index=True),
    )
    sa.Table(
        "desk_audit",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", UtcDateTime, nullable=False, index=True),
        sa.Column("actor", sa.String(100), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("subject", sa.String(100), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("detail", sa.String(200), nullable=False),
    )
    sa.Table(
        "desk_public_checks",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("client", sa.String(64), nullable=False, index=True),
        sa.Column("at", UtcDateTime, nullable=False, index=True),
        sa.Column("upload", sa.Boolean, nullable=False),
        sa.Column("finished", UtcDateTime),
    )
    sa.Table(
        "desk_submissions",
        meta,
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("at", UtcDateTime, nullable=False, index=True),
        sa.Column("result", sa.String(300)),
    )
    sa.Table(
        "desk_drafts",
        meta,
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("user_id", sa.ForeignKey(users[0], ondelete=users[1]), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("jurisdiction", sa.String(40), nullable=False),
        sa.Column("fields", sa.JSON, nullable=False),
        sa.Column("created", UtcDateTime, nullable=False),
        sa.Column("updated", UtcDateTime, nullable=False),
        sa.Column("issued_as", sa.String(100)),
    )
    engine = db.make_engine(url)
    try:
        meta.create_all(engine)
        if later_columns:
            zoned = "TIMESTAMP" if engine.dialect.name == "sqlite" else "TIMESTAMP WITH TIME ZONE"
            with engine.begin() as conn:
                for name, kind in (
                    ("full_name", "VARCHAR(200) NOT NULL DEFAULT ''"),
                    ("title", "VARCHAR(200) NOT NULL DEFAULT ''"),
                    ("removed", zoned),
                ):
                    conn.execute(sa.text(f"ALTER TABLE desk_users ADD COLUMN {name} {kind}"))
    finally:
        engine.dispose()
