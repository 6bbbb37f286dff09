"""Sign-in that holds, against a real `docgen serve`: growing waits instead of a lock a
stranger can hold, unlock, the proxy's address, equal timing, NIST password rules, user
changes from the command line and the admin page, each one an audit row."""

from __future__ import annotations

import html
import json
import re
import statistics
import time

import pytest
from desk_server import (
    PASSWORD,
    TIMEOUT,
    csrf_of,
    database,
    docgen,
    serving,
    start_desk,
    start_draft,
    stop_desk,
)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module changes users (locks, unlocks, ann's name and
    # title) and reads the register's audit trail from its start.
    yield from serving(tmp_path_factory)


def attempt(client, name: str, password: str, **headers):
    token = csrf_of(client.get("/login").text)
    return client.post(
        "/login",
        data={"username": name, "password": password, "csrf_token": token},
        headers=headers,
    )


def forget_failures(desk) -> None:
    database(desk).execute("delete from desk_login_failures").connection.commit()


def audit(desk) -> list[tuple[str, str, str, str]]:
    """The desk's rows of the register's one audit trail: who, what, whom, from where."""
    rows = database(desk).execute("select actor, action, detail from audit where entity = 'user'")
    said = [(actor, action, json.loads(detail)) for actor, action, detail in rows]
    return [(a, action, d["user"], d.get("client", "")) for a, action, d in said]


def test_a_strangers_wrong_passwords_slow_the_name_down_and_unlock_ends_it(desk):
    stranger = desk.client()
    for _ in range(3):
        assert attempt(stranger, "otto", "not the password").status_code == 401
    held = attempt(desk.client(), "otto", PASSWORD)
    assert held.status_code == 429
    assert re.search(r"try again in \d+ seconds?", html.unescape(held.text))
    done = docgen(desk.home, "users", "unlock", "otto")
    assert done.returncode == 0 and "3 failed sign-in(s) forgotten" in done.stdout
    assert attempt(desk.client(), "otto", PASSWORD).status_code == 303
    rows = audit(desk)
    assert ("otto", "sign-in failed", "otto", "127.0.0.1") in rows
    assert ("otto", "sign-in held back", "otto", "127.0.0.1") in rows
    assert ("cli", "unlocked", "otto", "") in rows
    assert ("otto", "sign-in", "otto", "127.0.0.1") in rows


def test_the_wait_grows_but_never_holds_a_name_past_a_minute(desk):
    from datetime import UTC, datetime, timedelta

    from docgen.desk.base import auth

    stranger = desk.client()
    for _ in range(3):
        attempt(stranger, "ann", "not the password")
    db = database(desk)
    # a stranger who kept at it for the whole window: 40 failures, the last 61 s ago
    long_ago = (datetime.now(UTC) - timedelta(seconds=61)).isoformat(sep=" ")
    db.executemany(
        "insert into desk_login_failures (name, client, at) values ('ann', '203.0.113.9', ?)",
        [(long_ago,)] * 37,
    )
    db.execute("update desk_login_failures set at = ? where name = 'ann'", (long_ago,))
    db.commit()
    assert timedelta(minutes=1) == auth.MAX_WAIT_PER_NAME
    assert attempt(desk.client(), "ann", PASSWORD).status_code == 303
    forget_failures(desk)


def test_an_unknown_name_costs_what_a_wrong_password_costs(desk):
    client = desk.client()
    unknown, wrong = [], []
    for i in range(3):
        for name, times in (("nobody-here", unknown), ("ada", wrong)):
            started = time.perf_counter()
            assert attempt(client, name, f"wrong password {i}").status_code == 401
            times.append(time.perf_counter() - started)
        forget_failures(desk)
    # without a hash for unknown names they answered ~35 times faster
    assert statistics.median(unknown) > 0.4 * statistics.median(wrong)


@pytest.mark.parametrize(
    ("password", "said"),
    [
        (" " * 12, "only spaces or characters that print nothing"),
        ("\u200b" * 12, "only spaces or characters that print nothing"),
        ("password1234", "one of the most common passwords"),
        ("Password1234!", "one of the most common passwords"),
        ("x" * (1024 * 1024), "at most 256 characters"),
        ("short", "at least 12 characters"),
        ("abababababab", "repeats a few characters"),
        ("zed-is-my-password-friend", "contains the user name"),
    ],
)
def test_passwords_follow_nist_sp_800_63b(desk, password, said):
    done = docgen(
        desk.home, "users", "add", "zed", "--role", "clerk", "--password-stdin", stdin=password
    )
    assert done.returncode == 1 and said in done.stderr


def test_passwd_role_and_full_name_from_the_command_line(desk):
    new = "a brand new passphrase for her"
    ada = desk.signed_in("ada")
    done = docgen(desk.home, "users", "passwd", "ada", "--password-stdin", stdin=new)
    assert done.returncode == 0, done.stderr
    assert ada.get("/drafts").status_code == 303  # her sessions ended
    assert attempt(desk.client(), "ada", new).status_code == 303
    assert attempt(desk.client(), "ada", PASSWORD).status_code == 401
    docgen(desk.home, "users", "passwd", "ada", "--password-stdin", stdin=PASSWORD)
    forget_failures(desk)

    assert docgen(desk.home, "users", "role", "otto", "attorney").returncode == 0
    assert "attorney" in docgen(desk.home, "users", "list").stdout.split("otto", 1)[1]
    assert docgen(desk.home, "users", "role", "otto", "officer").returncode == 0
    done = docgen(
        desk.home, "users", "set", "otto", "--full-name", "Dana R. Whitcomb", "--title",
        "Code Enforcement Officer",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    # the officer a new notice is filled with
    otto = desk.signed_in("otto")
    where, _ = start_draft(otto, "notice-of-violation")
    page = otto.get(where).text
    assert 'value="Dana R. Whitcomb"' in page and 'value="Code Enforcement Officer"' in page
    actions = {(a, s) for _, a, s, _ in audit(desk)}
    assert {("password changed", "ada"), ("role changed", "otto")} <= actions
    assert ("details changed", "otto") in actions


def test_an_admin_changes_a_role_unlocks_and_removes_after_asking_drafts_kept(desk):
    docgen(desk.home, "users", "add", "kim", "--role", "clerk", "--password-stdin", stdin=PASSWORD)
    kim = desk.signed_in("kim")
    where, token = start_draft(kim, "notice-of-violation")
    kim.post(where, data={"csrf_token": token, "violations[0].nature": "Kim's typing"})

    root = desk.signed_in("root")
    page = root.get("/users").text
    token = csrf_of(page)
    asked = root.get("/users/remove?name=kim")
    assert asked.status_code == 200 and "Yes, remove kim" in asked.text
    once = re.search(r'name="_once" value="([^"]+)"', asked.text).group(1)
    gone = root.post("/users/remove", data={"csrf_token": token, "_once": once, "name": "kim"})
    assert gone.status_code == 303
    again = root.post("/users/remove", data={"csrf_token": token, "_once": once, "name": "kim"})
    assert again.status_code == 303 and again.headers["location"] == gone.headers["location"]
    assert kim.get("/drafts").status_code == 303  # signed out
    page = root.get("/users").text
    assert "kim (removed" in page and "1 unissued draft" in page

    handed = root.post("/users/transfer", data={"csrf_token": token, "name": "kim", "to": "ann"})
    assert handed.status_code == 303
    ann = desk.signed_in("ann")
    assert "Kim&#39;s typing" in ann.get(where).text

    role = root.post("/users/role", data={"csrf_token": token, "name": "ada", "role": "clerk"})
    assert role.status_code == 303
    root.post("/users/role", data={"csrf_token": token, "name": "ada", "role": "attorney"})
    for _ in range(3):
        attempt(desk.client(), "ada", "wrong guess")
    unlocked = root.post("/users/unlock", data={"csrf_token": token, "name": "ada"})
    assert unlocked.status_code == 303
    assert attempt(desk.client(), "ada", PASSWORD).status_code == 303
    actions = [(actor, action, subject) for actor, action, subject, _ in audit(desk)]
    for done in ("user removed", "drafts transferred", "role changed", "unlocked"):
        assert any(a == ("root", done, s) for a in actions for s in ("kim", "ada")), done


def test_users_audit_and_the_users_page_read_the_registers_one_trail(desk):
    """Sign-ins and account changes are rows of the register's audit (migration 0020),
    which `docgen users audit` and the admin's page read; the desk has no audit table of
    its own."""
    assert attempt(desk.client(), "ann", "not her password").status_code == 401
    forget_failures(desk)
    said = ("--full-name", "Ann Baker", "--title", "Village Clerk")
    assert docgen(desk.home, "users", "set", "ann", *said).returncode == 0
    tables = database(desk).execute("select name from sqlite_master where type = 'table'")
    assert "desk_audit" not in {name for (name,) in tables}
    listed = docgen(desk.home, "users", "audit", "--limit", "2")
    assert listed.returncode == 0, listed.stderr
    lines = [" ".join(line.split()[2:]) for line in listed.stdout.splitlines()]  # no time
    assert lines == [
        "cli details changed ann Ann Baker, Village Clerk",
        "ann sign-in failed ann 127.0.0.1",
    ]
    page = html.unescape(desk.signed_in("root").get("/users").text)
    row = "<td>cli</td><td>details changed</td><td>ann</td><td></td>"
    row += "<td>Ann Baker, Village Clerk</td>"
    assert row in page


def test_x_forwarded_for_is_believed_only_from_the_proxy(tmp_path):
    """Behind --behind-proxy, a local process that is not the proxy rotates
    X-Forwarded-For: its failures still count against its own address; the proxy's
    (127.0.0.2 here) is believed."""
    import httpx

    from docgen.desk.base import auth

    desk = start_desk(
        tmp_path,
        options=("--behind-proxy", "--proxy-address", "127.0.0.2", "--host-name", "127.0.0.1"),
    )

    def through(client: httpx.Client, name: str, forwarded: str) -> int:
        # the cookies are Secure behind the proxy: sent by hand over plain HTTP here
        token = csrf_of(client.get("/login").text)
        return client.post(
            "/login",
            data={"username": name, "password": "wrong", "csrf_token": token},
            headers={"x-forwarded-for": forwarded, "cookie": f"docgen_login_csrf={token}"},
        ).status_code

    try:
        local = desk.client()
        statuses = [
            through(local, f"guess{n}", f"198.51.100.{n}")
            for n in range(auth.FREE_FAILURES_PER_CLIENT + 1)
        ]
        assert statuses[-1] == 429 and set(statuses[:-1]) == {401}
        signins = {client for _, action, _, client in audit(desk) if action.startswith("sign-in")}
        assert signins == {"127.0.0.1"}
        proxy = httpx.Client(
            base_url=desk.url,
            transport=httpx.HTTPTransport(local_address="127.0.0.2"),
            timeout=TIMEOUT,
        )
        desk.clients.append(proxy)
        assert through(proxy, "someone", "203.0.113.7") == 401
        assert ("someone", "sign-in failed", "someone", "203.0.113.7") in audit(desk)
    finally:
        stop_desk(desk)
