"""Malformed and hostile requests against a real `docgen serve`: bounded input, ids,
control characters, line breaks typed in text areas, headers, sessions, file modes."""

from __future__ import annotations

import html
import io
import os
import re
import select
import socket
import stat
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from desk_server import TIMEOUT, csrf_of, database, docgen, serving, start_draft, typed_sample


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module ages every session in the desk's database and
    # counts them, and holds connections open against the desk's budget.
    yield from serving(tmp_path_factory)


@pytest.mark.parametrize(
    ("field", "said"),
    [
        ("violations[50000].nature", "row index '50000'"),
        ("violations[\u00b2].nature", "row index '\u00b2'"),
        ("a" + ".b" * 3000, "nested more than"),
    ],
)
def test_a_field_no_form_sends_is_refused_naming_it_and_the_draft_still_opens(desk, field, said):
    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    for path in (where, f"{where}/live"):
        reply = client.post(path, data={"csrf_token": token, field: "x"})
        assert reply.status_code == 400 and said in html.unescape(reply.text)
        assert "Traceback" not in reply.text
    page = client.get(where)
    assert page.status_code == 200 and "50000" not in page.text


def test_a_nul_or_other_control_character_is_a_400_naming_the_field(desk):
    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    for bad in ("\x00", "\x1b[31m", "\x7f"):
        reply = client.post(
            where, data={"csrf_token": token, "violations[0].nature": f"Silt{bad}fence"}
        )
        assert reply.status_code == 400
        assert "violations[0].nature" in reply.text and "control character U+00" in reply.text
    login = desk.client()
    token = csrf_of(login.get("/login").text)
    reply = login.post("/login", data={"username": "ann\x00", "password": "x", "csrf_token": token})
    assert reply.status_code == 400 and "username" in reply.text


@pytest.mark.parametrize("path", ["/drafts/{}", "/drafts/{}/preview", "/respondents/{}"])
def test_ids_of_25_digits_or_not_ascii_digits_are_not_found(desk, path):
    client = desk.signed_in("ann")
    for wrong in ("1" * 25, "\u0661", "-1", "1e3"):
        assert client.get(path.format(wrong)).status_code == 404
    token = csrf_of(client.get("/drafts").text)
    reply = client.post(f"/drafts/{'9' * 25}/live", data={"csrf_token": token})
    assert reply.status_code == 404


def test_rows_stop_at_the_cap(desk):
    from docgen.desk.base.forms import MAX_ROW

    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    full = {f"violations[{i}].nature": f"row {i}" for i in range(MAX_ROW + 1)}
    client.post(where, data={**full, "csrf_token": token, "_action": "add:violations"})
    page = client.get(where).text
    assert f"row {MAX_ROW}" in page and f'name="violations[{MAX_ROW + 1}].nature"' not in page


def test_crlf_typed_in_a_legal_description_prints_its_paragraphs(desk):
    """Enter in a text area sends CRLF: accepted, kept as line breaks, and the paragraphs
    of the legal description come back apart in the Word copy, the PDF and the HTML."""
    from docx import Document as Word
    from pypdf import PdfReader

    from docgen import api
    from docgen.desk.base import forms

    attorney = desk.signed_in("ada")
    where, token = start_draft(attorney, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-individual")
    first = "ALL THAT TRACT OR PARCEL OF LAND situate in the Village of Homer."
    second = "EXCEPTING the lands conveyed to the County of Cortland."
    typed["property.legal_description"] = f"{first}\r\n\r\n{second}\r\n"
    reply = attorney.post(where, data={**typed, "csrf_token": token})
    assert reply.status_code == 303
    stored = database(desk).execute("select fields from desk_drafts order by id desc").fetchone()
    assert "\\r" not in stored[0] and f"{first}\\n\\n{second}" in stored[0]

    word = Word(io.BytesIO(attorney.get(f"{where}/word").content))
    paragraphs = [p.text.strip() for p in word.paragraphs]
    assert first in paragraphs and second in paragraphs

    preview = attorney.get(f"{where}/preview").text
    assert f"{first}</p>" in preview and f">{second}</p>" in preview

    draft_id = int(where.rsplit("/", 1)[1])
    pairs = [list(p) for p in _fields(desk, draft_id)]
    data = forms.case_data("maintenance-easement", "homer", pairs)
    _, files = api.render_bytes("maintenance-easement", data, ("pdf",))
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(files["pdf"])).pages)
    lines = [line.strip() for line in text.splitlines()]
    assert first in lines and second in lines


def _fields(desk, draft_id: int) -> list:
    import json

    row = database(desk).execute("select fields from desk_drafts where id = ?", (draft_id,))
    return json.loads(row.fetchone()[0])


def test_a_session_past_its_expiry_saves_nothing_and_is_deleted(desk):
    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    month_ago = (datetime.now(UTC) - timedelta(days=30)).isoformat(sep=" ")
    db = database(desk)
    before = db.execute("select count(*) from desk_sessions").fetchone()[0]
    db.execute("update desk_sessions set created = ?, last_seen = ?", (month_ago, month_ago))
    db.commit()
    reply = client.post(
        f"{where}/live", data={"csrf_token": token, "violations[0].nature": "typed late"}
    )
    assert reply.status_code == 303 and reply.headers["location"] == "/login"
    assert "typed late" not in str(_fields(desk, int(where.rsplit("/", 1)[1])))
    after = db.execute("select count(*) from desk_sessions").fetchone()[0]
    assert after < before


def test_signing_out_of_an_expired_session_deletes_it(desk):
    client = desk.signed_in("ann")
    token = csrf_of(client.get("/drafts").text)
    db = database(desk)
    two_hours = (datetime.now(UTC) - timedelta(hours=2)).isoformat(sep=" ")
    count = db.execute("select count(*) from desk_sessions").fetchone()[0]
    db.execute("update desk_sessions set last_seen = ?", (two_hours,))
    db.commit()
    assert client.post("/logout", data={"csrf_token": token}).status_code == 303
    assert db.execute("select count(*) from desk_sessions").fetchone()[0] == count - 1


def test_content_disposition_is_rfc_6266_whatever_the_number(desk):
    """A number typed on the command line with quotes and a second filename is either
    refused at issue or sent as a sanitized filename and an encoded filename*."""
    from docgen.register import Register
    from docgen.register.storage.db import RegisterError

    case, _ = typed_sample("stop-work-order", "homer-silt-fence")
    case = {**case, "number": 'X"; filename="evil.exe'}
    try:
        with Register.open(desk.database) as reg:
            reg.issue("stop-work-order", case, formats=("html",), by="cli")
    except RegisterError as err:  # the register refuses such a number: as good
        assert "number" in str(err)
        return
    client = desk.signed_in("ann")
    got = client.get('/documents/X"; filename="evil.exe/file.html')
    header = got.headers["content-disposition"]
    assert got.status_code == 200
    assert header.startswith('attachment; filename="X_filename_evil.exe')
    assert "filename*=UTF-8''X%22%3B%20filename%3D%22evil.exe" in header
    assert header.count('"') == 2


def test_a_host_header_not_named_is_refused(desk):
    reply = httpx.get(desk.url + "/drafts/", headers={"host": "evil.example"}, timeout=TIMEOUT)
    assert reply.status_code == 400 and "evil.example" not in reply.headers.get("location", "")


def test_the_register_and_its_folder_are_the_owners_only(tmp_path):
    home = tmp_path / "fresh" / "home"
    done = docgen(home, "users", "list")
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(home / "docgen.sqlite").st_mode) == 0o600


def test_a_connection_slow_to_send_its_head_is_closed_and_a_kept_one_is_not(tmp_path):
    """uvicorn has no header timeout of its own (docgen.desk.server.connections): a connection
    that sends nothing, or its headers a byte at a time, is closed after --header-timeout;
    a kept-alive connection that asks again later, within the keep-alive, is answered."""
    from desk_server import environment, free_port, sqlite_of

    port = free_port()
    command = [sys.executable, "-m", "docgen.cli", "serve", "--port", str(port)]
    with open(tmp_path / "desk.log", "w") as log:
        server = subprocess.Popen(
            [*command, "--header-timeout", "1"],
            env=environment(tmp_path, sqlite_of(tmp_path)),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    head = b"GET /login HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    sockets: list[socket.socket] = []
    try:
        kept = connected(port, sockets, deadline=60)
        kept.sendall(head + b"\r\n")
        assert answered(kept).startswith(b"HTTP/1.1 200")
        silent, slow = connected(port, sockets), connected(port, sockets)
        slow.sendall(head)
        for _ in range(40):  # a header byte every 0.2 s: never a whole head
            try:
                slow.sendall(b"X")
                readable, _, _ = select.select([slow], [], [], 0.2)
                if readable and slow.recv(100) == b"":
                    break
            except OSError:
                # closed with a byte of ours unread, the system resets the connection
                # instead of ending it: a slow head is owed no answer, only the end
                break
        else:
            pytest.fail("a head sent a byte at a time was waited for 8 s")
        silent.settimeout(10)
        assert silent.recv(100) == b""  # closed, not timed out
        kept.sendall(head + b"\r\n")  # past the head timeout, within the keep-alive
        assert answered(kept).startswith(b"HTTP/1.1 200")
    finally:
        for sock in sockets:
            sock.close()
        server.terminate()
        server.wait(timeout=60)


def connected(port: int, sockets: list[socket.socket], deadline: float = 5) -> socket.socket:
    until = time.monotonic() + deadline
    while True:
        try:
            sockets.append(socket.create_connection(("127.0.0.1", port), timeout=10))
            return sockets[-1]
        except OSError:
            if time.monotonic() > until:
                raise
            time.sleep(0.1)


def answered(sock: socket.socket) -> bytes:
    """One whole response on ``sock`` (its head and Content-Length bytes of body)."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"(?i)content-length: *(\d+)", head).group(1))
    while len(body) < length:
        body += sock.recv(65536)
    return head


def test_the_public_certify_door_has_its_own_budget_and_checks_the_link_first(desk):
    """An anonymous POST to /certify/<token>: past the scan's size it is refused before the
    page is asked (not the signed-in pages' 20 MB), and to a link that does not work it is
    answered at once, its body never read (a client sending nothing after its head)."""
    from docgen.desk.server import limits
    from docgen.register.sites import certifying

    assert limits.SCAN_UPLOAD == certifying.MAX_SCAN
    stranger = desk.client()
    big = stranger.post("/certify/no-such-link", files={"scan": ("s.pdf", bytes(15 * 2**20))})
    assert big.status_code == 413
    assert "a certification with its signed scan may be at most 10 MB" in big.text
    sockets: list[socket.socket] = []
    try:
        sock = connected(int(desk.url.rsplit(":", 1)[1].strip("/")), sockets)
        sock.settimeout(10)  # the signed-in budget would wait 120 s for the body, then 408
        sock.sendall(
            b"POST /certify/no-such-link HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000000\r\n\r\n"
        )
        assert answered(sock).startswith(b"HTTP/1.1 404")
    finally:
        for sock in sockets:
            sock.close()
