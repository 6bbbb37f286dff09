"""The desk over HTTP, against a real `docgen serve`: sign-in, sessions, CSRF, roles, limits."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
from desk_server import (
    PASSWORD,
    csrf_of,
    database,
    docgen,
    start_desk,
    start_draft,
    stop_desk,
    typed_sample,
)

from tests.helpers.served import service_form


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the desk's users (four hashes) and its
    # sessions.
    server = start_desk(tmp_path_factory.mktemp("desk"))
    yield server
    stop_desk(server)


def test_without_a_session_the_register_sends_you_to_sign_in(desk):
    reply = desk.client().get("/documents")
    assert reply.status_code == 303 and reply.headers["location"] == "/login"


def test_the_sign_in_form_has_the_pinned_fields(desk):
    html = desk.client().get("/login").text
    assert 'name="username"' in html and 'name="password"' in html
    assert re.search(r'type="hidden" name="csrf[^"]*" value="[^"]{20,}"', html)


def test_sign_in_sets_a_server_side_session_cookie(desk):
    client = desk.client()
    token = csrf_of(client.get("/login").text)
    wrong = client.post("/login", data={"username": "ann", "password": "nope", "csrf_token": token})
    assert wrong.status_code == 401 and "Wrong user name or password" in wrong.text
    right = client.post(
        "/login", data={"username": "ann", "password": PASSWORD, "csrf_token": token}
    )
    assert right.status_code == 303 and right.headers["location"] == "/documents"
    cookie = right.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    assert client.get("/documents").status_code == 200
    stored = database(desk).execute("select token_hash from desk_sessions").fetchall()
    session = client.cookies["docgen_session"]
    assert session not in {row[0] for row in stored}  # only its SHA-256 is kept


def test_sign_in_without_the_csrf_token_is_refused(desk):
    client = desk.client()
    client.get("/login")
    reply = client.post("/login", data={"username": "ann", "password": PASSWORD})
    assert reply.status_code == 400 and "docgen_session" not in reply.headers.get("set-cookie", "")


def test_a_forged_csrf_token_of_any_text_is_refused(desk):
    client = desk.client()
    client.get("/login")
    for forged in ("é", "\u202e" * 40, "x" * 5000):
        reply = client.post(
            "/login", data={"username": "ann", "password": PASSWORD, "csrf_token": forged}
        )
        assert reply.status_code == 400
    signed = desk.signed_in("ann")
    assert signed.post("/logout", data={"csrf_token": "é"}).status_code == 403


def test_what_was_typed_comes_back_exactly(desk):
    """A long word, markup and a right-to-left mark are shown as typed, not as a document
    would print them (no break points, no bidi closers added to an input's value)."""
    client = desk.signed_in("ann")
    where, token = start_notice(client)
    typed = "https://example.org/" + "x" * 60 + " <b>&amp;</b> \u202eevil"
    client.post(where, data={"csrf_token": token, "site.description": typed})
    page = client.get(where).text
    assert html.escape(typed, quote=True) in page
    assert "\u200b" not in page


def test_passwords_are_stored_as_argon2id_hashes(desk):
    hashes = [row[0] for row in database(desk).execute("select password_hash from desk_users")]
    assert len(hashes) == 4 and all(h.startswith("$argon2id$") for h in hashes)
    assert not any(PASSWORD in h for h in hashes)


def test_sign_out_needs_the_csrf_token_and_ends_the_session(desk):
    client = desk.signed_in("ann")
    token = csrf_of(client.get("/drafts").text)
    assert client.post("/logout").status_code == 403
    assert client.post("/logout", data={"csrf_token": token}).headers["location"] == "/login"
    assert client.get("/documents").headers["location"] == "/login"


@pytest.mark.parametrize(
    ("user", "method", "path", "data"),
    [
        ("ada", "post", "/drafts", {"kind": "notice-of-violation", "jurisdiction": "homer"}),
        ("ada", "post", "/drafts", {"kind": "stop-work-order", "jurisdiction": "homer"}),
        ("ann", "post", "/drafts", {"kind": "maintenance-easement", "jurisdiction": "homer"}),
        ("ann", "get", "/users", {}),
        ("otto", "post", "/users/add", {"name": "eve", "role": "admin", "password": PASSWORD}),
        ("root", "post", "/drafts", {"kind": "notice-of-violation", "jurisdiction": "homer"}),
    ],
)
def test_roles_are_enforced_on_every_route(desk, user, method, path, data):
    client = desk.signed_in(user)
    token = csrf_of(client.get("/drafts").text)
    if method == "get":
        reply = client.get(path)
    else:
        reply = client.post(path, data={**data, "csrf_token": token})
    assert reply.status_code == 403


def test_an_admin_manages_users(desk):
    client = desk.signed_in("root")
    token = csrf_of(client.get("/users").text)
    eve = {"name": "eve", "role": "clerk", "csrf_token": token}
    short = client.post("/users/add", data={**eve, "password": "short"})
    assert short.status_code == 400 and "at least 12 characters" in short.text
    added = client.post("/users/add", data={**eve, "password": PASSWORD})
    assert added.status_code == 303
    assert "eve" in docgen(desk.home, "users", "list").stdout
    client.post("/users/remove", data={"name": "eve", "csrf_token": token})
    assert "eve" not in docgen(desk.home, "users", "list").stdout


def start_notice(client) -> tuple[str, str]:
    return start_draft(client, "notice-of-violation")


def test_an_attorney_cannot_open_a_clerks_draft(desk):
    where, _ = start_notice(desk.signed_in("ann"))
    assert re.fullmatch(r"/drafts/\d+", where)
    assert desk.signed_in("ada").get(where).status_code == 404
    assert desk.signed_in("otto").get(where).status_code == 404  # drafts are their author's


def test_every_page_has_a_strict_content_security_policy_and_no_inline_script(desk):
    client = desk.signed_in("root")
    for path in ("/login", "/documents", "/drafts", "/users"):
        reply = client.get(path)
        policy = reply.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert reply.headers["x-content-type-options"] == "nosniff"
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", reply.text), path
        assert not re.search(r"\son[a-z]+=", reply.text), path  # no inline event handlers


def test_oversized_requests_are_refused(desk):
    body = b"x" * (21 * 1024 * 1024)
    reply = desk.client().post(
        "/login", content=body, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert reply.status_code == 413


def test_a_draft_is_saved_even_when_the_session_expired(desk):
    client = desk.signed_in("ann")
    where, token = start_notice(client)
    long_ago = (datetime.now(UTC) - timedelta(hours=2)).isoformat(sep=" ")
    db = database(desk)
    db.execute("update desk_sessions set last_seen = ?", (long_ago,))
    db.commit()
    typed = "Sediment washed into Factory Brook below the outfall"
    reply = client.post(
        where, data={"csrf_token": token, "violations[0].nature": typed, "_action": "check"}
    )
    assert reply.status_code == 303 and reply.headers["location"] == "/login?saved=1"
    assert "What you typed was saved" in client.get("/login?saved=1").text
    assert client.get(where).headers["location"] == "/login"
    again = desk.signed_in("ann")
    assert typed in again.get(where).text
    # the typed case is never in a URL or in the server's log
    assert typed not in (desk.home / "desk.log").read_text()


def test_the_users_command_refuses_weak_or_duplicate_users(desk):
    weak = docgen(
        desk.home, "users", "add", "zed", "--role", "clerk", "--password-stdin", stdin="x"
    )
    assert weak.returncode == 1 and "at least 12 characters" in weak.stderr
    twice = docgen(
        desk.home, "users", "add", "ann", "--role", "clerk", "--password-stdin", stdin=PASSWORD
    )
    assert twice.returncode == 1 and "already exists" in twice.stderr
    bad_role = docgen(desk.home, "users", "add", "zed", "--role", "mayor", "--password-stdin")
    assert bad_role.returncode == 2


@pytest.mark.parametrize(
    ("user", "kind", "jurisdiction"),
    [
        ("ann", "notice-of-violation", "homer"),
        ("otto", "stop-work-order", "homer"),
        ("ann", "penalty-statement", "homer"),
        ("otto", "contractor-certification", "macedon"),
        ("ada", "maintenance-easement", "homer"),
        ("ada", "maintenance-agreement", "macedon"),
    ],
)
def test_every_kind_has_a_form_whose_empty_submit_names_the_problems(
    desk, user, kind, jurisdiction
):
    client = desk.signed_in(user)
    token = csrf_of(client.get("/drafts").text)
    where = client.post(
        "/drafts", data={"kind": kind, "jurisdiction": jurisdiction, "csrf_token": token}
    ).headers["location"]
    page = client.get(where)
    assert page.status_code == 200 and "year-month-day" in page.text
    posted = client.post(where, data={"csrf_token": token, "_action": "check"})
    assert posted.status_code == 303 and posted.headers["location"] == where
    checked = client.get(where)
    assert "to fix</h2>" in checked.text and '<span class="error-line">' in checked.text


def test_issue_numbers_once_and_serves_the_stored_bytes(desk):

    from docgen.register import Register

    clerk = desk.signed_in("ann")
    where, token = start_notice(clerk)
    _, typed = typed_sample("notice-of-violation", "homer-first-offense")
    assert clerk.post(where, data={**typed, "csrf_token": token}).status_code == 303
    assert "to fix</h2>" not in clerk.get(where).text

    attorney = desk.signed_in("ada")
    ada_token = csrf_of(attorney.get("/drafts").text)
    # a draft is its author's: another user's issue finds no draft
    assert attorney.post(f"{where}/issue", data={"csrf_token": ada_token}).status_code == 404

    issued = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert issued.status_code == 303
    document = issued.headers["location"]
    number = document.rsplit("/", 1)[1]
    assert re.fullmatch(r"NOV-\d{4}-\d{4}", number)
    again = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert again.headers["location"] == document  # issued once, never renumbered

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        stored = register.files(number)
    for fmt in ("pdf", "docx", "html"):
        served = clerk.get(f"{document}/file.{fmt}")
        assert served.status_code == 200 and served.content == stored[fmt]
        assert (
            f'filename="{number}-notice-of-violation.{fmt}"'
            in served.headers["content-disposition"]
        )

    refused = clerk.post(
        f"{document}/service",
        data={
            "csrf_token": token,
            **service_form("personal-delivery"),
            "date": "2026-11-16",
            "received": "2026-11-18",
        },
    )
    assert refused.status_code == 400 and "received" in refused.text
    served = clerk.post(
        f"{document}/service",
        data={"csrf_token": token, **service_form("personal-delivery"), "date": "2026-11-16"},
    )
    assert served.headers["location"] == f"{document}?done=service"
    page = clerk.get(document).text
    assert "December 1, 2026" in page  # 15 days, GCL § 25-a
    # service produced the affidavit of service, itself an issued document
    affidavit = re.search(r'Affidavit of service: <a href="(/documents/[^"]+)"', page).group(1)
    proof = clerk.get(affidavit)
    assert proof.status_code == 200 and '<span class="sub">Affidavit of service, ' in proof.text
    assert f'href="/documents/{number}"' in proof.text  # it names the notice it proves
    assert clerk.get(f"{affidavit}/file.pdf").content[:5] == b"%PDF-"

    # a new notice at the same site starts filled with what the register holds
    started = clerk.post(f"{document}/notice", data={"csrf_token": token})
    filled = clerk.get(started.headers["location"]).text
    assert "Vacant lot on the east side of Route 11" in filled
    assert 'value="8 Clinton Street"' in filled


def test_the_penalty_shown_reads_the_registers_history(desk):
    """A conviction recorded on an issued notice makes the next one a second offense."""

    clerk = desk.signed_in("otto")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    where, token = start_notice(clerk)
    clerk.post(where, data={**typed, "csrf_token": token})
    page = clerk.get(where).text
    assert re.search(r'data-figure="offense">1<', page)
    assert "issuing records a new respondent" in page
    document = clerk.post(f"{where}/issue", data={"csrf_token": token}).headers["location"]
    convicted = clerk.post(
        f"{document}/disposition",
        data={"csrf_token": token, "disposition": "convicted", "date": "2026-11-25"},
    )
    assert convicted.status_code == 303

    again, _ = start_notice(clerk)
    later = {**typed, "issued": "2027-03-01"}
    later |= {"offense.committed": "2027-02-20", "violations[0].observed": "2027-02-20"}
    later |= {"remedies[0].due": "2027-03-10", "remedies[1].due": "2027-03-20"}
    clerk.post(again, data={**later, "csrf_token": token})
    page = clerk.get(again).text
    assert re.search(r'data-figure="offense">2<', page)
    assert re.search(r'data-figure="penalty">\$350\.00 to \$700\.00<', page)
    assert "the prior offenses below are the register's" in page


def test_an_attorney_reviews_an_easement_and_downloads_the_word_copy(desk):
    import io

    from docx import Document as Word

    attorney = desk.signed_in("ada")
    where, token = start_draft(attorney, "maintenance-easement")
    case, typed = typed_sample("maintenance-easement", "homer-individual")
    attorney.post(where, data={**typed, "_review": "1", "csrf_token": token})
    page = attorney.get(where).text
    assert "to fix</h2>" not in page and "Download the Word copy" in page
    assert "Issue:" in page  # an attorney issues the instruments (tests/test_desk_actions.py)

    copy = attorney.get(f"{where}/word")
    assert copy.status_code == 200 and copy.content[:2] == b"PK"
    word = Word(io.BytesIO(copy.content))
    text = "\n".join(p.text for p in word.paragraphs)
    assert case["owner"]["name"] in text
    marked = [r for p in word.paragraphs for r in p.runs if r.font.highlight_color is not None]
    assert marked, "review mode marks the values taken from the case"
    preview = attorney.get(f"{where}/preview")
    assert (
        preview.status_code == 200
        and "default-src 'none'" in preview.headers["content-security-policy"]
    )
    clerk = desk.signed_in("ann")
    assert clerk.get(f"{where}/word").status_code == 403


def test_a_notice_for_a_respondent_known_only_from_history_takes_their_municipality(desk, tmp_path):
    """'Start a notice' for a respondent the register knows only from an imported
    conviction starts a draft for that conviction's municipality, never a literal one."""
    from docgen.register import Register
    from docgen.register.people.history_csv import HEADER_ROW
    from docgen.register.people.imports import import_history

    rows = tmp_path / "history.csv"
    rows.write_text(
        f"{HEADER_ROW},jurisdiction\n"
        "Imogen Vasquez-Reyes,9 Cayuga Street,Homer,NY,13077,2025-04-02,2025-06-10,"
        "Village Court,25-0417,homer\n",
        encoding="utf-8",
    )
    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as reg:
        import_history(reg, rows)
        respondent = reg.history("Imogen Vasquez-Reyes").respondent.id
    client = desk.signed_in("ann")
    token = csrf_of(client.get(f"/respondents/{respondent}").text)
    started = client.post(f"/respondents/{respondent}/notice", data={"csrf_token": token})
    assert started.status_code == 303, started.text
    draft = client.get(started.headers["location"]).text
    assert 'value="Imogen Vasquez-Reyes"' in draft
    assert re.search(r"draft \d+, Homer</span>", draft)  # the conviction's municipality
