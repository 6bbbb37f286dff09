"""Migration 0020: the desk's tables are the register's migrations', and the desk's
sign-ins and account changes are rows of the register's one audit trail, on both
backends. A register a desk of docgen 0019 used (its tables made by ``create_all``, its
own ``desk_audit``) keeps its users, sessions and audit rows; a fresh register gets the
desk's tables from Alembic alone."""

from __future__ import annotations

import os
import secrets
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

# Register: every model of the register loaded
from docgen.register import Register
from docgen.register.storage import db
from docgen.register.storage.models import Base
from tests.helpers import pgserver
from tests.helpers.old_registers import execute, migrated_to, old_desk_tables

from .conftest import BACKENDS

SIGNED_IN = datetime(2026, 11, 2, 14, 30, tzinfo=UTC)


@pytest.fixture(params=BACKENDS)
def empty_url(request, tmp_path) -> str:
    """A database with nothing in it yet, on each backend."""
    if request.param == "sqlite":
        return db.sqlite_url(tmp_path / "home" / "docgen.sqlite")
    server = request.getfixturevalue("postgres_template")
    name = f"empty_{os.getpid()}_{secrets.token_hex(4)}"
    return pgserver.create_database(server, name)


def schema_diff(url: str) -> list:
    assert Register
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()


def rows(url: str, query: str) -> list[tuple]:
    engine = db.make_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(sa.text(query))]
    finally:
        engine.dispose()


def old_desk_register(url: str, later_columns: bool) -> None:
    """A register at 0019 that a desk of that time used: a user, signed in, audited."""
    migrated_to(url, "0019")
    old_desk_tables(url, later_columns)
    now = {"at": SIGNED_IN}
    execute(
        url,
        "INSERT INTO desk_users (id, name, role, password_hash, created) "
        "VALUES (1, 'ann', 'clerk', '$argon2id$kept', :at)",
        **now,
    )
    execute(
        url,
        "INSERT INTO desk_sessions (token_hash, user_id, csrf, created, last_seen) "
        "VALUES ('ab12', 1, 'cd34', :at, :at)",
        **now,
    )
    for actor, action, client, detail in (
        ("cli", "user added", "", "role clerk"),
        ("ann", "sign-in", "203.0.113.7", ""),
    ):
        execute(
            url,
            "INSERT INTO desk_audit (at, actor, action, subject, client, detail) "
            "VALUES (:at, :actor, :action, 'ann', :client, :detail)",
            actor=actor,
            action=action,
            client=client,
            detail=detail,
            **now,
        )


@pytest.mark.parametrize("later_columns", [True, False], ids=["0019-desk", "older-desk"])
def test_a_register_an_older_desk_used_keeps_its_users_sessions_and_audit(empty_url, later_columns):
    from docgen.desk.admin import accounts
    from docgen.desk.base.database import sessions

    old_desk_register(empty_url, later_columns)
    desk = sessions(empty_url)  # the desk's first use upgrades it, as the register's does
    assert db.current_revision(desk.kw["bind"]) == db.HEAD
    users = rows(empty_url, "SELECT name, password_hash, full_name, title FROM desk_users")
    assert users == [("ann", "$argon2id$kept", "", "")]
    assert rows(empty_url, "SELECT token_hash, user_id FROM desk_sessions") == [("ab12", 1)]
    events = accounts.audit_rows(desk)
    said = [(e.actor, e.action, e.subject, e.client, e.detail) for e in events]
    assert said == [
        ("ann", "sign-in", "ann", "203.0.113.7", ""),
        ("cli", "user added", "ann", "", "role clerk"),
    ]
    assert [e.at for e in events] == [SIGNED_IN, SIGNED_IN]
    assert "desk_audit" not in sa.inspect(desk.kw["bind"]).get_table_names()
    # The same tables a fresh register has; only, on SQLite, the declared type an older
    # desk's ALTER TABLE gave ``removed`` (TIMESTAMP, not DATETIME: the same affinity,
    # read alike; retyping it would copy the users' table that sessions cascade from).
    diff = schema_diff(empty_url)
    if later_columns and empty_url.startswith("sqlite"):
        assert [(d[0][0], d[0][2], d[0][3]) for d in diff] == [
            ("modify_type", "desk_users", "removed")
        ]
    else:
        assert diff == []
    # The moved rows are the register's audit trail's: frozen once written.
    with pytest.raises(sa.exc.DBAPIError, match="frozen"):
        execute(empty_url, "DELETE FROM audit WHERE entity = 'user'")


def test_a_fresh_register_gets_the_desks_tables_from_its_migrations(empty_url):
    from docgen.desk.admin import accounts
    from docgen.desk.base.database import sessions

    desk = sessions(empty_url)
    tables = set(sa.inspect(desk.kw["bind"]).get_table_names())
    desks = {t for t in tables if t.startswith("desk_")}
    assert desks == {
        "desk_users",
        "desk_user_sites",
        "desk_sessions",
        "desk_login_failures",
        "desk_public_checks",
        "desk_submissions",
        "desk_drafts",
    }
    assert schema_diff(empty_url) == []
    accounts.add_user(desk, "root", "admin", "a long enough password 1")
    assert [(e.actor, e.action, e.subject) for e in accounts.audit_rows(desk)] == [
        ("cli", "user added", "root")
    ]


def test_the_desk_refuses_a_register_a_newer_docgen_upgraded(empty_url):
    from docgen.desk.base.database import engine
    from docgen.register import RegisterError

    migrated_to(empty_url, "head")
    execute(empty_url, "UPDATE alembic_version SET version_num = '0999'")
    with pytest.raises(RegisterError, match="upgraded by a newer docgen"):
        engine(empty_url)


def test_the_desks_default_database_is_the_one_the_environment_names_now(tmp_path, monkeypatch):
    """Its engine is kept per database, never under "the default" a process saw first."""
    from docgen.desk.base.database import engine

    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    for name in ("first", "second"):
        monkeypatch.setenv("DOCGEN_HOME", str(tmp_path / name))
        assert engine().url.database == str((tmp_path / name / "docgen.sqlite").resolve())
    assert engine() is engine(db.sqlite_url(tmp_path / "second" / "docgen.sqlite"))
