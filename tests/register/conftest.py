"""Register tests run on both backends: a SQLite file, and a real PostgreSQL 15 server
these tests start themselves (initdb and pg_ctl as the ``postgres`` user, on a temporary
folder and a free loopback port), stopped at the end of the session.

Without the server binaries the PostgreSQL half is skipped on a workstation and fails
in CI (the environment variable CI is set): CI must run both.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

PG_BIN = Path(os.environ.get("DOCGEN_PG_BIN", "/usr/lib/postgresql/15/bin"))
BACKENDS = ("sqlite", "postgresql")


def _as_postgres(args: list[str]) -> list[str]:
    # initdb and pg_ctl refuse to run as root.
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def postgres_server():
    """The URL of a PostgreSQL server started for this session (superuser ``postgres``)."""
    if not (PG_BIN / "initdb").exists():
        message = f"PostgreSQL server binaries not found in {PG_BIN} (scripts/setup.sh --test)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    base = Path(tempfile.mkdtemp(prefix="docgen-pg-"))
    if os.geteuid() == 0:
        user = pwd.getpwnam("postgres")
        os.chown(base, user.pw_uid, user.pw_gid)
    data, port = base / "data", _free_port()
    subprocess.run(
        _as_postgres(
            [
                str(PG_BIN / "initdb"),
                "-D",
                str(data),
                "-U",
                "postgres",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ]
        ),
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off"
    subprocess.run(
        _as_postgres(
            [
                str(PG_BIN / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(base / "log"),
                "-w",
                "-o",
                options,
                "start",
            ]
        ),
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_postgres([str(PG_BIN / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(base, ignore_errors=True)


_numbers = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_template(postgres_server):
    """A database migrated once; each test gets a fresh copy of it."""
    import psycopg

    from docgen.register import Register

    with psycopg.connect(f"{postgres_server}/postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE register_template")
    Register.open(f"{postgres_server}/register_template").close()
    return postgres_server


def fresh_postgres(server: str) -> str:
    import psycopg

    name = f"register_{os.getpid()}_{next(_numbers)}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name} TEMPLATE register_template")
    return f"{server}/{name}"


@pytest.fixture(params=BACKENDS)
def register_url(request, tmp_path, monkeypatch) -> str:
    """A new, empty, migrated register on each backend; also set for CLI subprocesses."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'home' / 'docgen.sqlite'}"
    else:
        url = fresh_postgres(request.getfixturevalue("postgres_template"))
    monkeypatch.setenv("DOCGEN_DATABASE_URL", url)
    return url


@pytest.fixture
def reg(register_url):
    from docgen.register import Register

    with Register.open(register_url) as opened:
        yield opened
