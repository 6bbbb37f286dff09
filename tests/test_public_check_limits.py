"""The public check does bounded work against a real `docgen serve --workers 2` behind a
proxy address: the per-address limit is kept in the register (it holds across server
processes) and counts the address X-Forwarded-For names only when the configured proxy
sends it; an upload is bounded in size and in pages and objects (parsed in a rendering
process); uploads in flight are counted per address and on the whole desk (SQLite and
PostgreSQL); a malformed code costs one Argon2id check, as any code does, for an issued
and an unknown number alike."""

from __future__ import annotations

import httpx
import pytest
from desk_server import sqlite_of, start_desk, stop_desk

from docgen.desk.base.database import sessions
from docgen.desk.public import public_check
from docgen.desk.public.public_check import BUSY, LIMIT, UPLOADING, UPLOADS_IN_FLIGHT, admit, finish
from docgen.register import Register
from tests.helpers import pgserver
from tests.helpers.register_cases import notice


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """(the desk, the issued number, its access code, its PDF)."""
    home = tmp_path_factory.mktemp("checks")
    with Register.open(sqlite_of(home)) as register:
        done = register.issue("notice-of-violation", notice(), formats=("pdf",))
    options = (
        "--workers",
        "2",
        "--behind-proxy",
        "--proxy-address",
        "127.0.0.1",
        "--host-name",
        "localhost",
    )
    desk = start_desk(home, options=options)
    yield desk, done.number, done.access_code, done.files["pdf"]
    stop_desk(desk)


def client_from(desk, address: str) -> httpx.Client:
    """A client on ``address`` opening a new connection for each request (so each may
    reach either server process)."""
    transport = httpx.HTTPTransport(
        local_address=address, limits=httpx.Limits(max_keepalive_connections=0)
    )
    return httpx.Client(base_url=desk.url, transport=transport, timeout=60)


def test_the_limit_holds_across_server_processes(checked):
    desk, number, _, _ = checked
    with client_from(desk, "127.0.0.3") as client:
        statuses = [client.get(f"/v/{number}").status_code for _ in range(LIMIT + 1)]
    assert statuses == [200] * LIMIT + [429]
    log = (desk.home / "desk.log").read_text()
    assert log.count("Started server process") == 2


def test_x_forwarded_for_is_believed_only_from_the_proxy_address(checked):
    desk, number, _, _ = checked
    with client_from(desk, "127.0.0.4") as stranger:  # loopback, but not the proxy
        statuses = [
            stranger.get(f"/v/{number}", headers={"x-forwarded-for": f"203.0.113.{n}"})
            for n in range(LIMIT + 1)
        ]
    assert [s.status_code for s in statuses] == [200] * LIMIT + [429]
    refused = statuses[-1]
    assert refused.headers["retry-after"] == "600" and "Too many checks" in refused.text
    with client_from(desk, "127.0.0.1") as proxy:  # the proxy: each visitor its own count
        statuses = [
            proxy.get(f"/v/{number}", headers={"x-forwarded-for": f"198.51.100.{n}"})
            for n in range(LIMIT + 1)
        ]
    assert {s.status_code for s in statuses} == {200}


def pdf_claiming(pages: int, objects: int) -> bytes:
    """A small PDF whose page tree and trailer claim ``pages`` and ``objects``."""
    parts = [b"%PDF-1.7\n"]
    offsets = []
    for body in (
        b"<</Type/Catalog/Pages 2 0 R>>",
        b"<</Type/Pages/Kids[]/Count %d>>" % pages,
    ):
        offsets.append(sum(map(len, parts)))
        parts.append(b"%d 0 obj\n%s\nendobj\n" % (len(offsets), body))
    start = sum(map(len, parts))
    table = b"xref\n0 3\n0000000000 65535 f \n" + b"".join(
        b"%010d 00000 n \n" % offset for offset in offsets
    )
    trailer = b"trailer\n<</Size %d/Root 1 0 R>>\nstartxref\n%d\n%%%%EOF\n" % (objects, start)
    return b"".join(parts) + table + trailer


def test_an_upload_is_bounded_in_size_pages_and_objects(checked):
    desk, number, code, pdf = checked
    with client_from(desk, "127.0.0.5") as visitor:
        same = visitor.post(f"/v/{number}", data={"code": code}, files={"file": ("a.pdf", pdf)})
        assert same.status_code == 200 and "Identical." in same.text
        bomb = pdf_claiming(pages=10_000_000, objects=10_000_000)
        claimed = visitor.post(f"/v/{number}", data={"code": code}, files={"file": ("b.pdf", bomb)})
        assert claimed.status_code == 200 and "Not the issued file." in claimed.text
        assert "Its signature was not checked: the file has 10000000 pages" in claimed.text
        big = b"%PDF" + b"x" * (5 * 1024 * 1024)
        too_big = visitor.post(f"/v/{number}", data={"code": code}, files={"file": ("c", big)})
        assert too_big.status_code == 413 and "at most 4 MB" in too_big.text
    assert "Traceback" not in (desk.home / "desk.log").read_text()


@pytest.fixture(params=["sqlite", "postgresql"])
def desk_db(request, tmp_path):
    if request.param == "sqlite":
        return sessions(sqlite_of(tmp_path))
    server = request.getfixturevalue("postgres_server")
    return sessions(pgserver.create_database(server, f"checks_{tmp_path.name[-8:].lower()}"))


def test_uploads_in_flight_are_counted_per_address_and_on_the_whole_desk(desk_db):
    first, refused = admit(desk_db, "203.0.113.1", upload=True)
    assert first is not None and refused is None
    assert admit(desk_db, "203.0.113.1", upload=True) == (None, UPLOADING)
    assert admit(desk_db, "203.0.113.1", upload=False)[1] is None  # a plain check goes on
    others = [admit(desk_db, f"198.51.100.{n}", upload=True) for n in range(UPLOADS_IN_FLIGHT)]
    assert [why for _, why in others] == [None] * (UPLOADS_IN_FLIGHT - 1) + [BUSY]
    finish(desk_db, first)
    assert admit(desk_db, "192.0.2.1", upload=True)[1] is None  # a place came free


def test_the_limit_counts_uploads_and_checks_together(desk_db):
    for n in range(LIMIT):
        asked, why = admit(desk_db, "203.0.113.2", upload=n % 2 == 0)
        assert why is None
        finish(desk_db, asked)
    assert admit(desk_db, "203.0.113.2", upload=False) == (None, public_check.LIMITED)


def test_a_malformed_code_costs_one_check_for_an_issued_and_an_unknown_number(
    tmp_path, monkeypatch
):
    from docgen.register.matter.checks import public_record
    from docgen.signing import codes

    with Register.open(sqlite_of(tmp_path)) as register:
        issued = register.issue("notice-of-violation", notice(), formats=("html",))
        engine = register.engine
        real = codes._hasher()
        verified: list[str] = []

        class Counting:
            def verify(self, stored: str, code: str) -> bool:
                verified.append(code)
                return real.verify(stored, code)

            def hash(self, code: str) -> str:
                return real.hash(code)

        public_record(engine, "NOV-1999-0001", "warm the decoy")
        monkeypatch.setattr(codes, "_hasher", Counting)
        costs = {}
        for number in (issued.number, "NOV-1999-0001"):
            for code in ("x", "1234", "AAAA-AAAA-AAAA", "a" * 500):
                verified.clear()
                assert public_record(engine, number, code) is None
                costs[number, code] = len(verified)
        assert set(costs.values()) == {1}, costs
        assert public_record(engine, issued.number, issued.access_code) is not None


def test_a_malformed_code_is_refused_before_the_register_is_asked(tmp_path):
    """A code that cannot be one costs the decoy's Argon2id check and no query: the time
    of a look-up told an issued number from an unknown one (issue 48)."""
    from sqlalchemy import event

    from docgen.register.matter.checks import public_record

    with Register.open(sqlite_of(tmp_path)) as register:
        asked: list[str] = []
        event.listen(register.engine, "before_cursor_execute", lambda *a: asked.append(a[2]))
        for code in ("not-a-code", "", "0" * 40):
            assert public_record(register.engine, "NOV-2026-0001", code) is None
        assert asked == []
        public_record(register.engine, "NOV-2026-0001", "ABCD-EFGH-JKMN")
        assert any("documents.number" in query for query in asked)  # a well-formed one is
