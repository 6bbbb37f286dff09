"""A real desk for the tests: `docgen serve` on a free loopback port over a fresh register.

The users, one per role, are added through the accounts' API (as `docgen users add` adds
them; tests/test_desk_signin.py tests the command itself). A fresh SQLite register is a
copy of the first one this test process made that way: the same tables, migrations and
users, without paying for four hashes again.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.helpers import cli
from tests.helpers.cli import Run

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "correct horse battery staple"
USERS = {"ann": "clerk", "otto": "officer", "ada": "attorney", "root": "admin"}
# Seconds a test waits for the desk's answer: sized for a machine busy with other work
# (a render on two loaded cores takes several seconds), never tuned down to make a test
# fast; a desk that does not answer at all still fails the test.
TIMEOUT = 60
# One TLS context for every client a test makes: httpx loads the system's certificate
# authorities into a new one for each client otherwise (28 ms of the processor each; the
# desk is plain HTTP on loopback, but a client makes its context all the same).
TLS = ssl.create_default_context()
# A client's connection is closed after each answer, never kept open between requests:
# the desk bounds the connections one address holds (2 x 16, docgen.desk.server.connections)
# and closes an idle one only after 5 s, and every client of every test comes from
# 127.0.0.1. A module that opened a client per test faster than that (the vocabulary's:
# 36) filled the bound on a desk other modules used too, and a new connection was refused.
ONE_REQUEST_EACH = httpx.Limits(max_keepalive_connections=0)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Desk:
    url: str
    home: Path
    process: subprocess.Popen
    database: str
    clients: list[httpx.Client] = field(default_factory=list)
    signed: set[str] = field(default_factory=set)  # the names signed in through the form

    def client(self) -> httpx.Client:
        """A fresh browser-like client (closed when the desk stops)."""
        client = httpx.Client(
            base_url=self.url,
            follow_redirects=False,
            timeout=TIMEOUT,
            verify=TLS,
            limits=ONE_REQUEST_EACH,
        )
        self.clients.append(client)
        return client

    def signed_in(self, name: str) -> httpx.Client:
        """A client signed in as ``name``, with a session of its own. The first on this
        desk for each name signs in through the form, as the user does; each later one has
        its session opened in the desk's database as the form opens it once the password
        is right (docgen.desk.base.auth.open_session: audited alike). The password's
        Argon2 check costs 0.2 to 0.3 s of the processor, and a run signs in some 250
        times; the form itself is tested in tests/test_desk_signin.py."""
        client = self.client()
        if name not in self.signed:
            token = csrf_of(client.get("/login").text)
            reply = client.post(
                "/login", data={"username": name, "password": PASSWORD, "csrf_token": token}
            )
            assert reply.status_code == 303, reply.text
            self.signed.add(name)
        else:
            opened_session(client, self.database, name)
        return client


def typed_sample(kind: str, name: str) -> tuple[dict, dict[str, str]]:
    """A sample case (fixtures/KIND/NAME.yaml) and what a clerk types for it in the form
    (what the form asks for: a served kind's service is recorded after issue, not typed)."""
    from docgen.cases.loader import read_case_file
    from docgen.desk.base import forms

    case = read_case_file(ROOT / "fixtures" / kind / f"{name}.yaml")
    typed = forms.pairs_of({k: v for k, v in case.items() if k not in forms.not_asked(kind)})
    return case, dict(typed)


def start_draft(client: httpx.Client, kind: str, jurisdiction: str = "homer") -> tuple[str, str]:
    """A new draft of ``kind``: (its address, the session's CSRF token)."""
    token = csrf_of(client.get("/drafts").text)
    made = client.post(
        "/drafts", data={"kind": kind, "jurisdiction": jurisdiction, "csrf_token": token}
    )
    return made.headers["location"], token


def csrf_of(html: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)


def environment(home: Path, database: str) -> dict[str, str]:
    """DOCGEN_HOME, and the register's database: its SQLite file there, or ``database``."""
    return {**os.environ, "DOCGEN_HOME": str(home), "DOCGEN_DATABASE_URL": database}


def docgen(home: Path, *args: str, stdin: str = "", database: str = "") -> Run:
    """``docgen ARGS`` over the register in ``home`` (or ``database``), in this test
    process (tests/helpers/cli.py): the desk still serves it from a process of its own."""
    return cli.docgen(*args, env=environment(home, database or sqlite_of(home)), stdin=stdin)


def serving(tmp_path_factory) -> Iterator[Desk]:
    """A desk over a fresh SQLite register, stopped after the test module (a fixture's
    body: ``yield from serving(tmp_path_factory)``)."""
    server = start_desk(tmp_path_factory.mktemp("desk"))
    yield server
    stop_desk(server)


def database(desk: Desk) -> sqlite3.Connection:
    """The desk's SQLite register, opened beside the server (as another process would)."""
    return sqlite3.connect(desk.home / "docgen.sqlite")


def sqlite_of(home: Path) -> str:
    return f"sqlite:///{home / 'docgen.sqlite'}"


def start_desk(home: Path, database: str = "", options: tuple[str, ...] = ()) -> Desk:
    """The desk over ``database`` (default: the SQLite register in ``home``, the one the
    test filled before starting it, else a fresh one), started with ``options`` (say
    ``--workers 2``) after its port."""
    if database:
        add_users(database)
    elif (home / "docgen.sqlite").exists():  # a register the test filled: users added to it
        database = sqlite_of(home)
        add_users(database)
    else:
        database = sqlite_of(home)
        shutil.copyfile(_template() / "docgen.sqlite", home / "docgen.sqlite")
    port = free_port()
    env = environment(home, database)
    with open(home / "desk.log", "w") as log:  # the server keeps its own descriptor
        process = subprocess.Popen(
            [sys.executable, "-m", "docgen.cli", "serve", "--port", str(port), *options],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 2 * TIMEOUT
    with httpx.Client(verify=TLS) as probe:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError((home / "desk.log").read_text())
            try:
                probe.get(url + "/login", timeout=TIMEOUT)
                return Desk(url, home, process, database)
            except httpx.TransportError:
                time.sleep(0.1)  # not listening yet: connecting is refused at once
    process.kill()
    raise RuntimeError(f"the desk did not start within {2 * TIMEOUT} s")


def add_users(database: str) -> None:
    """USERS added to ``database``, each with PASSWORD, through the accounts' API."""
    from docgen.desk.admin import accounts
    from docgen.desk.base.database import sessions

    db = sessions(database)
    try:
        for name, role in USERS.items():
            accounts.add_user(db, name, role, PASSWORD)
    finally:
        db.kw["bind"].dispose()


def opened_session(client: httpx.Client, database: str, name: str) -> None:
    """``client`` given a new session of user ``name`` in ``database``, opened as the
    desk's sign-in opens one after the password, and its cookie."""
    # the desk's modules (SQLAlchemy, starlette): loaded by a test that signs in, not by
    # every module importing this one
    from sqlalchemy import select

    from docgen.desk.base import auth
    from docgen.desk.base.database import User, now, sessions
    from docgen.desk.base.web import SESSION_COOKIE

    db = sessions(database)
    try:
        with db.begin() as s:
            user = s.scalar(select(User).where(User.name == name, User.removed.is_(None)))
            assert user is not None, f"no user {name} on the desk"
            token = auth.open_session(s, user, "127.0.0.1", now())
    finally:
        db.kw["bind"].dispose()
    client.cookies.set(SESSION_COOKIE, token)


_templates: list[Path] = []


def _template() -> Path:
    """A folder holding a fresh SQLite register with USERS, made once per test process."""
    if not _templates:
        folder = Path(tempfile.mkdtemp(prefix="docgen-desk-template-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        add_users(sqlite_of(folder))
        _templates.append(folder)
    return _templates[0]


def stop_desk(desk: Desk) -> None:
    for client in desk.clients:
        client.close()
    desk.process.terminate()  # an issue in flight and the rendering processes finish first
    try:
        desk.process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        desk.process.kill()
        desk.process.wait()
