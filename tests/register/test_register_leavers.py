"""Leaving ends access (issue 48, item 1), on SQLite and PostgreSQL: `docgen users remove`
ends every standing credential of the user at once, each proven dead through the desk
itself (in this process, over the register), and each check of a credential also asks
whether its user may still sign in, so one that escaped revocation is dead all the same.

CREDENTIALS lists the standing credentials: every secret the register keeps that opens
something for a user (the first test fails when a table gains a secret neither list names,
as an API token or a password-reset link would). The desk has no API tokens and no reset
links: an administrator sets a new password (`docgen users passwd`).
"""

from __future__ import annotations

from datetime import date

import httpx
import pytest
from desk_server import PASSWORD, csrf_of, start_desk, stop_desk
from sqlalchemy import update

from docgen.desk.admin import accounts
from docgen.desk.base import auth
from docgen.desk.base.database import sessions
from docgen.register import RegisterError
from docgen.register.reading import feed
from docgen.register.sites import certifying, invitations
from docgen.register.storage import db
from docgen.register.storage.models import Base, CalendarToken, Invitation
from tests.helpers.cli import docgen

SITE = {"address": {"street": "12 Elm Street", "city": "Homer", "state": "NY", "zip": "13077"}}

# Every column in which the register keeps a secret, and what it opens. A user's:
# proven dead after a removal below. The others belong to no user.
CREDENTIALS = {
    "desk_users.password_hash": "signing in with the password",
    "desk_sessions.token_hash": "a signed-in browser (the session cookie)",
    "desk_sessions.csrf": "the session's form token: a post of its forms",
    "calendar_tokens.token_sha256": "the calendar feed's secret address",
    "certification_invitations.token_sha256": "an invitation link a developer's account made",
}
NOT_A_USERS = {
    "desk_submissions.token": "a form's one-time token: acts only within a live session",
    "access_codes.code_hash": "a document's access code for the public check, printed on it",
}
SECRET_WORDS = ("token", "password", "csrf", "secret", "code", "api_key")


def test_every_secret_the_register_keeps_is_a_credential_listed_here():
    kept = {
        f"{table.name}.{column.name}"
        for table in Base.metadata.sorted_tables
        for column in table.columns
        if any(word in column.name for word in SECRET_WORDS)
    }
    assert kept == set(CREDENTIALS) | set(NOT_A_USERS)
    # Invitation links end with the accounts that identify a site's firms, and only those.
    assert invitations.ENDS_WITH_ACCOUNT == auth.SITE_BOUND


@pytest.fixture
def desk(reg, register_url, tmp_path):
    """A real desk over the register; an officer (otto) and a developer (sam) signed in,
    and each one's standing credentials."""
    site = invitations.add_site(
        reg.engine, "homer", {"name": "Elm Street Subdivision"}, SITE, date(2026, 3, 2), "ann"
    )
    server = start_desk(tmp_path, register_url)  # USERS added: otto among them
    users = sessions(register_url)
    accounts.add_user(users, "sam", "developer", PASSWORD, sites=[site])
    expires = invitations.default_expires(invitations.site(reg.engine, site))
    sams = invitations.made_as("sam", "developer")
    _, link = invitations.invite(reg.engine, site, "Acme Earthworks LLC", None, expires, sams)
    _, clerks_link = invitations.invite(reg.engine, site, "Beta Paving", None, expires, "ann")
    yield {
        "users": users,
        "app": server.client(),  # no session: a firm, a calendar
        "otto": server.signed_in("otto"),
        "sam": server.signed_in("sam"),
        "feeds": {name: feed.new_token(reg, name) for name in ("otto", "sam")},
        "link": link,
        "clerks_link": clerks_link,
        "site": site,
    }
    stop_desk(server)
    users.kw["bind"].dispose()


def alive(desk) -> dict[str, bool]:
    """Whether each standing credential of otto (an officer) and sam (a developer) opens
    what it opened."""
    app, users = desk["app"], desk["users"]
    otto_page = desk["otto"].get("/due")
    sam_page = desk["sam"].get(f"/certifications/{desk['site']}")
    feeds = {name: f"/calendar/{token}.ics" for name, token in desk["feeds"].items()}
    return {
        "otto: password": auth.sign_in(users, "otto", PASSWORD, "test") is not None,
        "sam: password": auth.sign_in(users, "sam", PASSWORD, "test") is not None,
        "otto: session": otto_page.status_code == 200,
        "sam: session": sam_page.status_code == 200,
        "otto: calendar feed": app.get(feeds["otto"]).status_code == 200,
        "sam: calendar feed": app.get(feeds["sam"]).status_code == 200,
        "sam: invitation link": app.get(f"/certify/{desk['link']}").status_code == 200,
        "sam: sites": bool(accounts.bound_sites(users).get("sam")),
        # last: the form's post (revoking otto's feed) acts only with a live session
        "otto: form token": otto_page.status_code == 200
        and _revoke_feed(desk["otto"], otto_page.text) == 200,
    }


def _revoke_feed(client: httpx.Client, page: str) -> int:
    return client.post("/due/feed/revoke", data={"csrf_token": csrf_of(page)}).status_code


def test_removing_a_user_ends_every_credential_of_theirs_at_once(reg, desk):
    before = alive(desk)
    assert before == dict.fromkeys(before, True)
    desk["feeds"]["otto"] = feed.new_token(reg, "otto")  # the form token's post revoked it
    for name in ("otto", "sam"):
        removed = docgen("users", "remove", name)
        assert removed.returncode == 0, removed.stderr
        assert "signed out; their calendar feed addresses" in removed.stdout
    after = alive(desk)
    assert after == dict.fromkeys(after, False)
    # A clerk's link is the municipality's: it outlives the clerk, and here still works.
    assert desk["app"].get(f"/certify/{desk['clerks_link']}").status_code == 200
    with pytest.raises(RegisterError, match="'otto' is not a user of the desk"):
        feed.new_token(reg, "otto")
    said = {
        r.subject: r.detail
        for r in accounts.audit_rows(desk["users"])
        if r.action == "user removed"
    }
    revoked = "0 unissued drafts kept; {} calendar addresses and {} invitation links revoked"
    assert said == {"otto": revoked.format(1, 0), "sam": revoked.format(1, 1)}


def test_a_credential_that_escaped_revocation_is_dead_with_its_user(reg, desk):
    """Each check asks whether the user may still sign in: a feed secret and a developer's
    link left live (a register restored from before the removal, say) open nothing."""
    for name in ("otto", "sam"):
        accounts.remove_user(desk["users"], name)
    with db.write_session(reg.engine) as session:
        session.execute(update(CalendarToken).values(revoked_at=None))
        session.execute(update(Invitation).values(revoked_at=None, revoked_by=None))
    for name in ("otto", "sam"):
        assert desk["app"].get(f"/calendar/{desk['feeds'][name]}.ics").status_code == 404
        with pytest.raises(RegisterError, match="no calendar at this address"):
            feed.user_of(reg, desk["feeds"][name])
    with pytest.raises(invitations.InvalidLink):
        certifying.open_link(reg.engine, desk["link"])
    assert desk["app"].get(f"/certify/{desk['link']}").status_code != 200
    certifying.open_link(reg.engine, desk["clerks_link"])  # the clerk's, still open
