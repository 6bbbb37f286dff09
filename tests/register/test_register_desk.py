"""The desk on a shared PostgreSQL register: users, sessions, drafts and the register's
records in one PostgreSQL database, through a real `docgen serve`."""

from __future__ import annotations

import pytest
from desk_server import start_desk, start_draft, stop_desk, typed_sample

from tests.helpers.served import service_form

from .conftest import fresh_postgres


@pytest.fixture(scope="module")
def desk(tmp_path_factory, postgres_template):
    server = start_desk(tmp_path_factory.mktemp("desk"), fresh_postgres(postgres_template))
    yield server
    stop_desk(server)


def test_a_notice_is_issued_served_and_verified_on_postgresql(desk):
    import psycopg

    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    clerk.post(where, data={**typed, "csrf_token": token})
    # The draft states no last day (LAW.md § 2, print first, serve second): the one the
    # desk shows is the register's, from the service recorded after issue.
    assert 'data-figure="deadline"' not in clerk.get(where).text
    document = clerk.post(f"{where}/issue", data={"csrf_token": token}).headers["location"]
    number = document.rsplit("/", 1)[1]
    pdf = clerk.get(f"{document}/file.pdf").content
    served = clerk.post(
        f"{document}/service",
        data={"csrf_token": token, **service_form("personal-delivery"), "date": "2026-11-11"},
    )
    assert served.status_code == 303
    # Delivered 11-11: day 15 is Thanksgiving (11-26), so the last day is 11-27.
    assert "Last day to appeal</dt><dd>November 27, 2026</dd>" in clerk.get(document).text
    verified = clerk.post("/verify", data={"csrf_token": token}, files={"file": ("n.pdf", pdf)})
    assert "Issued by this register" in verified.text and number in verified.text
    with psycopg.connect(desk.database) as conn:
        users = conn.execute("SELECT name, password_hash FROM desk_users ORDER BY name").fetchall()
        drafts = conn.execute("SELECT issued_as FROM desk_drafts").fetchall()
        numbers = conn.execute("SELECT number FROM documents").fetchall()
    assert [name for name, _ in users] == ["ada", "ann", "otto", "root"]
    assert all(hashed.startswith("$argon2id$") for _, hashed in users)
    # Recording service also issued the affidavit of service, a document of its own.
    assert drafts == [(number,)] and sorted(numbers) == [("AOS-2026-0001",), (number,)]
