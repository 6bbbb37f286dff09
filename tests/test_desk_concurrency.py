"""Many hands on one register, against real `docgen serve` processes: the command line
issuing beside a clerk's autosaves on SQLite, a register locked past the busy timeout,
two server processes issuing on PostgreSQL, a double post, a NUL in a PostgreSQL sign-in."""

from __future__ import annotations

import re
import sqlite3
import threading
import time

import pytest
from desk_server import (
    PASSWORD,
    csrf_of,
    database,
    docgen,
    serving,
    start_desk,
    start_draft,
    stop_desk,
    typed_sample,
)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module floods it (the command line issuing while a
    # clerk autosaves, double posts) and reads the desk's log for a traceback.
    yield from serving(tmp_path_factory)


def test_the_command_line_issues_while_a_clerk_autosaves_and_nothing_fails(desk, tmp_path):
    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    case = tmp_path / "case.yaml"
    case.write_text(_sample_yaml(), encoding="utf-8")
    statuses: list[int] = []
    done = threading.Event()

    def clerk() -> None:
        n = 0
        while not done.is_set() or n < 10:
            data = {"csrf_token": token, "violations[0].nature": f"typed {n}"}
            statuses.append(client.post(f"{where}/live", data=data).status_code)
            n += 1

    worker = threading.Thread(target=clerk)
    worker.start()
    try:
        for _ in range(2):
            issued = docgen(desk.home, "issue", "notice-of-violation", str(case), "--format", "pdf",
                            "-o", f"{tmp_path / 'out'}/", "--respondent", "new")  # fmt: skip
            assert issued.returncode == 0, issued.stderr
    finally:
        done.set()
        worker.join()
    assert statuses and set(statuses) == {200}, statuses
    assert f"typed {len(statuses) - 1}" in client.get(where).text
    log = (desk.home / "desk.log").read_text()
    assert "Traceback" not in log and "typed 1" not in log


def test_an_autosave_is_answered_while_the_command_line_renders_an_issue(desk, tmp_path):
    """The issue renders outside the register's write transaction: held in its render
    (faults.pause), the command line keeps no lock, and the clerk's autosave is answered
    (a lock held would keep it waiting past this client's timeout, then a 503)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    from desk_server import environment

    client = desk.signed_in("ann")
    where, token = start_draft(client, "notice-of-violation")
    case = tmp_path / "case.yaml"  # a case of its own: a repeat would not render at all
    case.write_text(_sample_yaml().replace("seed and mulch", "seed, mulch"), encoding="utf-8")
    pause = tmp_path / "pause"
    env = environment(desk.home, desk.database)
    env |= {"DOCGEN_PAUSE_AT": "rendering", "DOCGEN_PAUSE_FILE": str(pause)}
    command = ["issue", "notice-of-violation", str(case), "--format", "pdf",
               "-o", f"{tmp_path / 'out'}/", "--respondent", "new"]  # fmt: skip
    issuer = subprocess.Popen(
        [sys.executable, "-m", "docgen.cli", *command],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not Path(f"{pause}.reached").exists():
            assert issuer.poll() is None and time.monotonic() < deadline, issuer.communicate()
            time.sleep(0.05)
        data = {"csrf_token": token, "violations[0].nature": "typed while it renders"}
        saved = client.post(where, data=data, timeout=20)
        live = client.post(f"{where}/live", data=data, timeout=20)
        assert issuer.poll() is None  # answered while the issue is still in its render
    finally:
        Path(f"{pause}.go").touch()
        out, err = issuer.communicate(timeout=300)
    assert issuer.returncode == 0 and "NOV-" in out, err
    assert saved.status_code in (200, 303) and live.status_code == 200
    assert "typed while it renders" in client.get(where).text
    assert os.listdir(tmp_path / "out")


def _sample_yaml() -> str:
    import yaml

    case, _ = typed_sample("notice-of-violation", "homer-first-offense")
    case.pop("number", None)
    case.pop("prior_offenses", None)
    return yaml.safe_dump(case, allow_unicode=True)


def test_a_register_locked_past_the_busy_timeout_is_a_503_with_nothing_logged(
    tmp_path, monkeypatch
):
    monkeypatch.setenv("DOCGEN_LOCK_TIMEOUT", "3")  # the desk's wait: 30 s unless set
    desk = start_desk(tmp_path)
    try:
        client = desk.signed_in("ann")
        where, token = start_draft(client, "notice-of-violation")
        holder = sqlite3.connect(desk.home / "docgen.sqlite", isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            typed = "Sediment below the Route 11 outfall"
            started = time.monotonic()
            reply = client.post(
                where, data={"csrf_token": token, "violations[0].nature": typed}, timeout=120
            )
            waited = time.monotonic() - started
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert reply.status_code == 503 and "try again" in reply.text, waited
        assert waited >= 3  # the lock was waited for as long as set, then given up
        assert reply.headers["retry-after"] == "5"
        log = (desk.home / "desk.log").read_text()
        assert typed not in log and "Traceback" not in log and "[parameters" not in log
    finally:
        stop_desk(desk)


def test_a_double_post_of_one_form_acts_once(desk):
    client = desk.signed_in("otto")
    page = client.get("/drafts").text
    once = re.search(r'name="_once" value="([^"]+)"', page).group(1)
    data = {
        "csrf_token": csrf_of(page),
        "_once": once,
        "kind": "stop-work-order",
        "jurisdiction": "homer",
    }
    replies = []
    threads = [
        threading.Thread(target=lambda: replies.append(client.post("/drafts", data=data)))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    locations = {r.headers["location"] for r in replies}
    assert [r.status_code for r in replies] == [303, 303] and len(locations) == 1
    kind = (data["kind"],)
    made = database(desk).execute("select count(*) from desk_drafts where kind = ?", kind)
    assert made.fetchone()[0] == 1


# -- PostgreSQL ----------------------------------------------------------------------------


def test_two_server_processes_issue_on_postgresql_and_a_nul_is_refused(postgres_server, tmp_path):
    from tests.helpers import pgserver

    url = pgserver.create_database(postgres_server, "desk_workers")
    desk = start_desk(tmp_path, url, options=("--workers", "2"))
    try:
        login = desk.client()
        token = csrf_of(login.get("/login").text)
        nul = login.post(
            "/login", data={"username": "ann\x00", "password": PASSWORD, "csrf_token": token}
        )
        assert nul.status_code == 400 and "username" in nul.text

        _, typed = typed_sample("notice-of-violation", "homer-first-offense")
        numbers: list[str] = []

        def issue(name: str) -> None:
            client = desk.signed_in(name)
            where, token = start_draft(client, "notice-of-violation")
            mine = {**typed, "recipient.name": f"{typed['recipient.name']} ({name})"}
            client.post(where, data={**mine, "csrf_token": token})
            issued = client.post(
                f"{where}/issue", data={"csrf_token": token, "respondent": "new"}, timeout=300
            )
            assert issued.status_code == 303, issued.text
            numbers.append(issued.headers["location"].rsplit("/", 1)[1])

        clerks = [threading.Thread(target=issue, args=(n,)) for n in ("ann", "otto")]
        for clerk in clerks:
            clerk.start()
        for clerk in clerks:
            clerk.join()
        assert len(numbers) == 2 and len(set(numbers)) == 2
        log = (tmp_path / "desk.log").read_text()
        assert len(set(re.findall(r"Started server process \[(\d+)\]", log))) == 2
        assert "\x00" not in log and "Traceback" not in log
    finally:
        stop_desk(desk)
