"""Slow and many clients against a real `docgen serve`, bare and behind the documented
Caddy: a body has its page's total time and size (not a time per byte), a stranger's
body is never waited for, and one address holds only its share of the desk's requests
and connections while a normal client keeps getting pages (docgen.desk.server.limits,
docgen.desk.server.connections). Figures (p50/p95 under the flood): benchmarks/slow_clients.py."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable

import httpx
import pytest
from desk_server import serving, start_desk, stop_desk

from tests.helpers.caddy import CADDYFILE, start_caddy
from tests.helpers.flood import SlowBodies, Timings, Watch, pages, status_of
from tests.test_deploy import need


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module floods it (slow clients hold its
    # connections).
    yield from serving(tmp_path_factory)


def opened(desk, head: str) -> socket.socket:
    port = int(desk.url.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head.encode())
    return sock


def post_head(path: str, length: int, extra: str = "") -> str:
    return (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {length}\r\n\r\n"
    )


def test_a_sign_in_body_a_byte_at_a_time_is_cut_off_at_10_seconds_in_all(desk):
    sock = opened(desk, post_head("/login", 4000))
    answer, took = dribbled(sock, first=12)  # the status line's start; the rest unread
    assert status_of(answer) == "408" and 9 < took < 20, (answer[:200], took)
    # Still sending for half a second, as a client that has not read the answer yet
    # would: the desk reads and drops what comes for a moment (a lingering close), so the
    # answer is read whole and the connection ends, never reset. Closed at once, the
    # desk's system answered these bytes with a reset (docgen.desk.server.connections).
    for _ in range(10):
        sock.sendall(b"a" * 100)
        time.sleep(0.05)
    answer += rest_until_closed(sock)  # then closed: the rest of the body is not awaited
    assert b"must be sent within 10 seconds" in answer


def dribbled(sock: socket.socket, most: float = 30, first: int = 65536) -> tuple[bytes, float]:
    """A byte every half second on ``sock`` until the first of an answer (what came, at
    most ``first`` bytes of it) and ``most`` seconds; how long it took."""
    started = time.monotonic()
    sock.settimeout(0.5)
    answer = b""
    while not answer and time.monotonic() - started < most:
        try:
            answer = sock.recv(first)
        except TimeoutError:
            sock.sendall(b"a")  # a byte every half second: never idle, never done
    return answer, time.monotonic() - started


def rest_until_closed(sock: socket.socket) -> bytes:
    """What else comes on ``sock`` until the other side closes it (within 30 s: through
    Caddy, after its own wait for the body, and on a busy machine); closed either way, so
    a failure here leaves no open socket to fail the next test."""
    sock.settimeout(30)
    rest = b""
    try:
        while data := sock.recv(65536):
            rest += data
    finally:
        sock.close()
    return rest


def rest_of_answer(sock: socket.socket, answer: bytes) -> bytes:
    """The whole HTTP answer begun with ``answer``: its head and the body its head says
    (Content-Length, or chunks to the last), then the socket closed. Through Caddy the
    connection may stay open after the answer (its own wait for the body the client never
    finished), so the answer is read by its length, not until the other side closes."""
    sock.settimeout(30)
    try:
        while True:
            head, _, body = answer.partition(b"\r\n\r\n")
            if _:
                fields = head.decode("latin-1").lower()
                length = re.search(r"\ncontent-length: *(\d+)", fields)
                if length and len(body) >= int(length.group(1)):
                    return answer
                if "transfer-encoding: chunked" in fields and body.endswith(b"0\r\n\r\n"):
                    return answer
            data = sock.recv(65536)
            if not data:
                return answer
            answer += data
    finally:
        sock.close()


def test_a_stranger_posting_to_a_signed_in_page_is_sent_to_sign_in_unread(desk):
    sock = opened(desk, post_head("/drafts", 10_000_000))
    answer = sock.recv(65536)
    assert status_of(answer) == "303" and b"location: /login" in answer.lower()
    rest_until_closed(sock)  # closed: the ten megabytes are never waited for


def test_sign_in_and_public_check_bodies_are_small(desk):
    client = desk.client()
    form = {"content-type": "application/x-www-form-urlencoded"}
    big = client.post("/login", content=b"x" * (17 * 1024), headers=form)
    assert big.status_code == 413 and "a sign-in form may be at most 16 KB" in big.text
    upload = client.post("/v/HOM-2026-0001", files={"file": ("a.pdf", b"%PDF" + b"x" * 5_000_000)})
    assert upload.status_code == 413 and "a file to compare may be at most 4 MB" in upload.text


def answered_both_ways(flood: SlowBodies) -> bool:
    return flood.seen["429"] > 0 and flood.seen["408"] > 0


def flood_and_pages(
    port: int,
    desk_port: int,
    client: httpx.Client,
    answered: Callable[[SlowBodies], bool] = answered_both_ways,
    **attack,
) -> tuple[SlowBodies, Timings, int]:
    """60 slow bodies from 127.0.0.2 while ``client`` asks for the sign-in page: what the
    flood was answered, the client's timings, the most connections the desk held.

    The client's pages start once every slow body has sent its head and go on until
    ``answered`` sees the flood answered both ways, refused beyond its share (429) and cut
    off at the body's 10 s (408): they span the whole time the flood held its connections
    (at most 40 s, for a busy machine)."""
    with Watch(desk_port) as held, SlowBodies(port, sockets=60, interval=1.0, **attack) as flood:
        assert flood.in_place.wait(30), f"only {flood.heads} of 60 slow bodies began"
        timings = pages(
            client, "/login", seconds=40, pause=0.2,
            done=lambda: answered(flood),
        )  # fmt: skip
    return flood, timings, held.held


def test_one_address_holds_only_its_share_of_the_bare_desk(desk):
    port = int(desk.url.rsplit(":", 1)[1])
    flood, timings, held = flood_and_pages(port, port, desk.client())
    assert set(timings.statuses) == {200}, timings.summary()
    assert flood.seen["429"] > 0 and flood.seen["408"] > 0, flood.seen
    assert held <= 2 * 16 + 4  # the flood's 32 connections, the client's, the server's
    assert "Traceback" not in (desk.home / "desk.log").read_text()


# What the desk logs when it refuses the flood's surplus and cuts off a slow body, behind
# Caddy (which sends the client's address on).
FLOOD_ANSWERED = tuple(f'127.0.0.2:0 - "POST /login HTTP/1.1" {status}' for status in (429, 408))


def test_one_address_holds_only_its_share_through_caddy(tmp_path):
    caddy = need("caddy")
    desk = start_desk(
        tmp_path,
        options=("--behind-proxy", "--proxy-address", "127.0.0.1", "--host-name", "localhost"),
    )
    proxy = None
    try:
        desk_port = int(desk.url.rsplit(":", 1)[1])
        proxy = start_caddy(caddy, tmp_path, desk_port)
        with httpx.Client(base_url=proxy.site, verify=proxy.trusted, timeout=30) as client:
            log = tmp_path / "desk.log"
            _, timings, held = flood_and_pages(
                proxy.https_port, desk_port, client,
                lambda _: all(line in log.read_text() for line in FLOOD_ANSWERED),
                host_name="localhost", tls=proxy.trusted,
            )  # fmt: skip
        assert set(timings.statuses) == {200}, timings.summary()
        # Caddy holds the 60 clients (it relays nothing until it stops waiting, at its
        # read_body); the desk holds 16 of them in flight, each for 10 s at most, beside
        # the connections Caddy keeps open to reuse
        assert held <= 16 + 8
        text = log.read_text()
        assert all(line in text for line in FLOOD_ANSWERED), text[-2000:]
        assert "Traceback" not in text
    finally:
        if proxy is not None:
            proxy.stop()
        stop_desk(desk)


def test_a_slow_sign_in_through_caddy_is_refused_in_words_not_an_empty_page(tmp_path):
    """Caddy 2.6 answers a body it stopped waiting for with an empty 200; the documented
    Caddyfile waits longer than the desk does (tests/test_deploy.py), so the clerk gets
    the desk's 408, which says what to do. Here Caddy waits 14 s instead of its 2 min
    30 s (the same file otherwise): longer than sign-in's 10 s, and the test quick."""
    caddy = need("caddy")
    documented = CADDYFILE.read_text(encoding="utf-8")
    assert "\t\t\tread_body 2m30s\n" in documented
    config = tmp_path / "Caddyfile"
    config.write_text(documented.replace("read_body 2m30s", "read_body 14s"), encoding="utf-8")
    desk = start_desk(
        tmp_path,
        options=("--behind-proxy", "--proxy-address", "127.0.0.1", "--host-name", "localhost"),
    )
    proxy = None
    try:
        proxy = start_caddy(caddy, tmp_path, int(desk.url.rsplit(":", 1)[1]), config=config)
        raw = socket.create_connection(("127.0.0.1", proxy.https_port), timeout=30)
        sock = proxy.trusted.wrap_socket(raw, server_hostname=proxy.name)
        sock.sendall(post_head("/login", 4000).replace("127.0.0.1", proxy.name, 1).encode())
        answer, took = dribbled(sock)
        answer = rest_of_answer(sock, answer)
        assert status_of(answer) == "408" and 9 < took < 25, (answer[:300], took)
        words = " ".join(answer.decode(errors="replace").split())
        assert "must be sent within 10 seconds" in words, words[-600:]
        assert "Traceback" not in (tmp_path / "desk.log").read_text()
    finally:
        if proxy is not None:
            proxy.stop()
        stop_desk(desk)
