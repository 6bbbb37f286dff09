"""The migrations build exactly the tables the models describe, on both backends."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from docgen.register.storage import db
from docgen.register.storage.models import Base


def test_head_constant_is_the_newest_migration():
    scripts = ScriptDirectory(str(Path(db.__file__).parent.parent / "migrations"))
    assert scripts.get_current_head() == db.HEAD


def test_migrated_schema_matches_the_models(reg):
    with reg.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_upgrade_again_is_a_no_op(reg):
    assert reg.upgrade() == (db.HEAD, db.HEAD)
