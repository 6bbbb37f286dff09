"""Register tests run on both backends: a SQLite file, and a real PostgreSQL 15 server
these tests start themselves (tests/helpers/pgserver.py: initdb and pg_ctl as the
``postgres`` user, on a temporary folder and a free loopback port), stopped at the end
of the session.

Without the server binaries the PostgreSQL half is skipped on a workstation and fails
in CI (the environment variable CI is set): CI must run both.
"""

from __future__ import annotations

import itertools
import os
import secrets
import shutil

import pytest

from tests.helpers import pgserver

BACKENDS = ("sqlite", "postgresql")
_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_template():
    """A server for the session with a migrated database that each test copies."""
    pgserver.require()
    from docgen.register import Register

    with pgserver.postgres() as server:
        Register.open(pgserver.create_database(server, "register_template")).close()
        yield server


def fresh_postgres(server: str) -> str:
    """A new database on ``server``, a copy of the migrated template."""
    # The random part: this module is also imported by name (tests.register.conftest, by
    # the model of the matter), and each import would count from 1 in the same process.
    name = f"register_{os.getpid()}_{next(_numbers)}_{secrets.token_hex(4)}"
    return pgserver.create_database(server, name, template="register_template")


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory):
    """A migrated SQLite register for the session, which each test copies (running every
    migration again for each test took more time than most of the tests)."""
    from docgen.register import Register

    path = tmp_path_factory.mktemp("register-template") / "docgen.sqlite"
    Register.open(f"sqlite:///{path}").close()
    return path


def fresh_sqlite(template, path) -> str:
    """A new SQLite register at ``path``, a copy of the migrated template."""
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    return f"sqlite:///{path}"


@pytest.fixture(params=BACKENDS)
def register_url(request, tmp_path, monkeypatch) -> str:
    """A new, empty, migrated register on each backend; also set for CLI subprocesses."""
    if request.param == "sqlite":
        template = request.getfixturevalue("sqlite_template")
        url = fresh_sqlite(template, tmp_path / "home" / "docgen.sqlite")
    else:
        url = fresh_postgres(request.getfixturevalue("postgres_template"))
    monkeypatch.setenv("DOCGEN_DATABASE_URL", url)
    return url


@pytest.fixture
def reg(register_url):
    from docgen.register import Register

    with Register.open(register_url) as opened:
        yield opened
