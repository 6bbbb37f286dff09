"""The smaller findings, against a real `docgen serve`: a head readable two ways (folded
lines; Content-Length with Transfer-Encoding) is a 400; a NUL in the public check's
address or in the register's search is a 400 on SQLite and on PostgreSQL; an import
file named '..' or 300 characters long is refused in words; a wrong signing passphrase
never shows the key's path; a CSV cell a spreadsheet would run is neutralised."""

from __future__ import annotations

import socket

import pytest
from desk_server import csrf_of, start_desk, stop_desk

from docgen.desk.documents.register_list import _cell
from docgen.desk.server import renderers
from docgen.register import Issue
from tests.helpers import pgserver, pki
from tests.helpers.flood import status_of
from tests.helpers.register_cases import notice


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


def raw(desk, request: bytes) -> bytes:
    port = int(desk.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(request)
        answer = b""
        while data := sock.recv(65536):
            answer += data
    return answer


@pytest.mark.parametrize(
    ("head", "said"),
    [
        (
            b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            b"both Content-Length and Transfer-Encoding",
        ),
        (
            b"GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: one\r\n two\r\n\r\n",
            b"obsolete line folding",
        ),
        (
            b"GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Note: one\r\n\ttwo\r\n\r\n",
            b"obsolete line folding",
        ),
    ],
)
def test_a_head_readable_two_ways_is_a_400(desk, head, said):
    answer = raw(desk, head)
    assert status_of(answer) == "400" and said in answer, answer


def nul_answers(desk) -> list:
    clerk = desk.signed_in("ann")
    return [
        desk.client().get("/v/NOV-2026-0001%00"),
        desk.client().get("/v/NOV-2026-0001", params={"code": "AAAA\x00"}),
        clerk.get("/documents", params={"q": "Hill\x00"}),
        clerk.get("/documents.csv", params={"q": "\x00"}),
    ]


def test_a_nul_in_the_check_or_the_search_is_a_400_on_sqlite(desk):
    answers = nul_answers(desk)
    assert [a.status_code for a in answers] == [400] * 4
    assert "contains the control character U+0000" in answers[0].text


def test_a_nul_in_the_check_or_the_search_is_a_400_on_postgresql(postgres_server, tmp_path):
    url = pgserver.create_database(postgres_server, "small_findings")
    desk = start_desk(tmp_path, url)
    try:
        assert [a.status_code for a in nul_answers(desk)] == [400] * 4
        assert "Traceback" not in (tmp_path / "desk.log").read_text()
    finally:
        stop_desk(desk)


@pytest.mark.parametrize("name", ["..", "x" * 296 + ".csv"])
def test_an_import_file_badly_named_is_refused_in_words(desk, name):
    clerk = desk.signed_in("ann")
    token = csrf_of(clerk.get("/history/import").text)
    csv = b"name,offense_date\n"
    sent = clerk.post(
        "/history/import", data={"csrf_token": token}, files={"file": (name, csv, "text/csv")}
    )
    assert sent.status_code == 400, sent.text
    assert "name cannot be used" in sent.text and "Nothing was imported" in sent.text
    again = clerk.post(
        "/history/import/commit",
        data={"csrf_token": token, "text": csv.decode(), "filename": name, "_once": "x" + name[:5]},
    )
    assert again.status_code == 400 and "name cannot be used" in again.text


def test_a_wrong_signing_passphrase_never_shows_the_keys_path(tmp_path, monkeypatch):
    from docgen.signing.keys import PASSPHRASE_ENV

    settings = tmp_path / "settings"
    pki.install(settings)
    monkeypatch.setenv("DOCGEN_SETTINGS", str(settings))
    monkeypatch.setenv(PASSPHRASE_ENV, "not the passphrase at all")
    url = f"sqlite:///{tmp_path / 'register.sqlite'}"
    tag, said = renderers.issue(url, "notice-of-violation", notice(), Issue(), "ann")
    assert (tag, said) == ("refused", renderers.KEY_REFUSED)
    assert str(settings) not in said and ".p12" not in said


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("=1+1", "'=1+1"),
        (";=cmd", "';'=cmd"),  # neutralised too where a spreadsheet splits on ";"
        ("|calc", "'|calc"),
        ("\t=HYPERLINK(1)", "'\t'=HYPERLINK(1)"),  # and where it splits on a tab
        ("  =SUM(A1)", "'  =SUM(A1)"),
        ("\n@A1", "'\n@A1"),
        ("NOV-2026-0001", "NOV-2026-0001"),
        ("Hill, Pat", "Hill, Pat"),
        (None, ""),
    ],
)
def test_a_csv_cell_a_spreadsheet_would_run_is_neutralised(value, shown):
    assert _cell(value) == shown


def test_clients_made_one_after_another_never_fill_the_desks_bound_on_connections(desk):
    """Every client of the tests comes from 127.0.0.1, where the desk holds at most 2 x 16
    connections (docgen.desk.server.connections) and closes an idle one only after 5 s.
    Forty clients made one after another, as a module making one per test does, each get
    their page: a client's connection ends with its answer (desk_server.ONE_REQUEST_EACH)."""
    answers = [desk.client().get("/login").status_code for _ in range(40)]
    assert answers == [200] * 40
