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
from docgen.register import db


def downgraded(url: str, revision: str) -> None:
    """Take the register at ``url`` back to schema ``revision``."""
    config = Config()
    migrations = Path(docgen.register.__file__).parent / "migrations"
    config.set_main_option("script_location", str(migrations))
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, revision)
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
