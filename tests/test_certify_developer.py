"""The applicant or developer acting for a site invites its contractors (LAW.md § 5;
§ 228-78B(4)(a): the firms "identified by the applicant or developer"), through a real
`docgen serve`: a developer's account, bound to one site, invites for it (the invitation
records who invited), revokes and sees the firms' status there, and is refused (403,
nothing recorded) for another site, for adding a site and for every other page of the
desk. The SWPPP's set of certifications downloaded from the site's page is a file the
register knows: `docgen verify` says genuine and lists what it holds, one byte changed
says not genuine, and the public check of a certification it holds says genuine for it."""

from __future__ import annotations

import hashlib
import io
import os
import re
import sqlite3

import httpx
import pytest
from desk_server import PASSWORD, csrf_of, docgen, start_desk, stop_desk
from pypdf import PdfReader

from docgen.register.sites.certifying import statement
from docgen.signing.keys import PASSPHRASE_ENV
from tests.helpers import cli, pki

ELM = ("--project", "Elm Street", "--street", "12 Elm Street", "--city", "Homer", "--zip", "13077")
MILL = ("--project", "Mill Pond", "--description", "Tax map 12.3-4-5")
# Every page of the desk but a site's certifications: a developer gets 403 on each.
STAFF_PAGES = (
    "/due",
    "/documents",
    "/drafts",
    "/verify",
    "/users",
    "/logbook",
    "/mailing-list",
    "/history/import",
)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    home = tmp_path_factory.mktemp("developer")
    settings = home / "settings"
    pki.install(settings)
    with pytest.MonkeyPatch.context() as patch:  # the module's environment, then back
        patch.setenv("DOCGEN_SETTINGS", str(settings))
        patch.setenv(PASSPHRASE_ENV, pki.PASSPHRASE)
        server = start_desk(home)
        yield server
        stop_desk(server)


def site(desk, place: tuple[str, ...]) -> int:
    made = docgen(desk.home, "certify", "site", "--jurisdiction", "homer", *place)
    assert made.returncode == 0, made.stderr
    return int(re.search(r"site (\d+)", made.stdout).group(1))


def rows(desk, sql: str, *args) -> list[tuple]:
    with sqlite3.connect(desk.home / "docgen.sqlite") as db:
        return db.execute(sql, args).fetchall()


def sign_electronically(desk, token: str, signer: str) -> None:
    """The firm signs through its own link, as the public form posts it."""
    with httpx.Client(base_url=desk.url, timeout=120) as client:
        page = client.get(f"/certify/{token}")
        assert page.status_code == 200
        shown = re.search(r'name="statement" value="([^"]+)"', page.text).group(1)
        assert shown == hashlib.sha256(statement("homer")[0].encode()).hexdigest()
        fields = {
            "csrf_token": csrf_of(page.text),
            "statement": shown,
            "role": "contractor",
            "address.street": "3 Pine Road",
            "address.city": "Dryden",
            "address.state": "NY",
            "address.zip": "13053",
            "phone": "6075550000",
            "signer.name": signer,
            "signer.title": "Owner",
            "responsibilities": "silt fence",
            "signature": signer,
            "intent": "yes",
            "action": "electronic",
        }
        done = client.post(f"/certify/{token}", data=fields)
        assert done.status_code == 200, done.text
        # The desk seals with the Village's key (pki): the firm's page says so, by name.
        assert "It is the electronic original" in done.text
        assert "It is sealed by the Village of Homer" in done.text


def test_a_developer_invites_for_their_site_only_and_sees_nothing_else(desk):
    elm, mill = site(desk, ELM), site(desk, MILL)
    refused = docgen(
        desk.home,
        "users",
        "add",
        "devon",
        "--role",
        "developer",
        "--password-stdin",
        stdin=PASSWORD,
    )
    assert refused.returncode == 1
    assert "a developer's account acts for one site at least" in refused.stderr
    unknown = docgen(
        desk.home,
        *("users", "add", "devon", "--role", "developer", "--site", "999"),
        "--password-stdin",
        stdin=PASSWORD,
    )
    assert unknown.returncode == 1 and "no site 999 in this register" in unknown.stderr
    added = docgen(
        desk.home,
        *("users", "add", "devon", "--role", "developer", "--site", str(elm)),
        "--password-stdin",
        stdin=PASSWORD,
    )
    assert added.returncode == 0, added.stderr
    assert f"added devon (developer) for site {elm}" in added.stdout
    listed = docgen(desk.home, "users", "list").stdout
    assert re.search(rf"^devon\s+developer\s+\(sites {elm}\)$", listed, re.M)

    client = desk.client()
    token = csrf_of(client.get("/login").text)
    signed_in = client.post(
        "/login", data={"username": "devon", "password": PASSWORD, "csrf_token": token}
    )
    assert signed_in.headers["location"] == "/certifications"
    assert client.get("/").headers["location"] == "/certifications"

    sites = client.get("/certifications")
    assert sites.status_code == 200
    assert "Elm Street" in sites.text and "Mill Pond" not in sites.text
    assert "Add a site" not in sites.text and 'href="/documents"' not in sites.text

    page = client.get(f"/certifications/{elm}")
    assert page.status_code == 200 and "Invite a firm" in page.text
    expires = re.search(r'name="expires" type="date" required value="([^"]+)"', page.text)[1]
    invited = client.post(
        f"/certifications/{elm}/invite",
        data={"csrf_token": csrf_of(page.text), "firm": "Acme Earthworks", "expires": expires},
    )
    assert invited.status_code == 200, invited.text
    link = re.search(r"/certify/([A-Za-z0-9_-]{40,})", invited.text)[1]
    assert rows(desk, "select firm, created_by from certification_invitations") == [
        ("Acme Earthworks", "devon (developer)")
    ]

    # Another site: 403 and nothing recorded, whether it exists or not.
    csrf = csrf_of(page.text)
    for where in (mill, 999):
        assert client.get(f"/certifications/{where}").status_code == 403
        other = client.post(
            f"/certifications/{where}/invite",
            data={"csrf_token": csrf, "firm": "Beta Paving", "expires": expires},
        )
        assert other.status_code == 403
        assert "not one you act for" in other.text
        assert client.get(f"/certifications/{where}/all.pdf").status_code == 403
    assert rows(desk, "select count(*) from certification_invitations") == [(1,)]
    adding = client.post(
        "/certifications",
        data={"csrf_token": csrf, "jurisdiction": "homer", "project.name": "Oak Lane"},
    )
    assert adding.status_code == 403
    assert rows(desk, "select count(*) from certification_sites") == [(2,)]
    for path in STAFF_PAGES:
        assert client.get(path).status_code == 403, path
    drafted = client.post(
        "/drafts", data={"csrf_token": csrf, "kind": "notice-of-violation", "jurisdiction": "homer"}
    )
    assert drafted.status_code == 403
    assert rows(desk, "select count(*) from desk_drafts") == [(0,)]

    # Revoking: their site's link, not another's.
    second = client.post(
        f"/certifications/{elm}/invite",
        data={"csrf_token": csrf, "firm": "Gamma Grading", "expires": expires},
    )
    assert second.status_code == 200
    (gamma,) = rows(desk, "select id from certification_invitations where firm = 'Gamma Grading'")
    revoke = {"csrf_token": csrf, "invitation": str(gamma[0])}
    assert client.post(f"/certifications/{mill}/revoke", data=revoke).status_code == 403
    assert rows(desk, "select revoked_at from certification_invitations where id = ?", gamma[0])[
        0
    ] == (None,)
    assert client.post(f"/certifications/{elm}/revoke", data=revoke).status_code == 303
    (by,) = rows(desk, "select revoked_by from certification_invitations where id = ?", gamma[0])
    assert by == ("devon (developer)",)

    # The firm signs; the developer sees it signed (no link into the register).
    sign_electronically(desk, link, "Sam Roe")
    status = client.get(f"/certifications/{elm}").text
    assert "by Sam Roe, Owner (electronically)" in status
    assert "Revoked" in status and 'href="/documents/' not in status

    # A clerk still reaches every site.
    clerk = desk.signed_in("ann")
    assert clerk.get(f"/certifications/{mill}").status_code == 200
    assert "Add a site" in clerk.get("/certifications").text


def test_the_swppp_set_downloaded_from_the_desk_verifies(desk, tmp_path):
    where = site(desk, ("--project", "Birch Hill", "--street", "4 Birch Hill Road", *ELM[-4:]))
    tokens = []
    for firm in ("North Grading", "South Paving"):
        out = docgen(desk.home, "certify", "invite", str(where), "--firm", firm)
        assert out.returncode == 0, out.stderr
        tokens.append(re.search(r"/certify/([A-Za-z0-9_-]+)", out.stdout)[1])
    clerk = desk.signed_in("ann")
    assert clerk.get(f"/certifications/{where}/all.pdf").status_code == 404  # none signed
    for token, signer in zip(tokens, ("Ada North", "Ben South"), strict=True):
        sign_electronically(desk, token, signer)
    numbers = [
        n
        for (n,) in rows(
            desk,
            "select d.number from certification_invitations i join documents d "
            "on d.id = i.document_id where i.site_id = ? order by i.signed_at",
            where,
        )
    ]
    assert len(numbers) == 2

    got = clerk.get(f"/certifications/{where}/all.pdf")
    assert got.status_code == 200 and got.headers["content-type"] == "application/pdf"
    pdf = got.content
    again = clerk.get(f"/certifications/{where}/all.pdf").content
    assert again == pdf  # the same certifications: the set recorded before
    assert rows(desk, "select count(*) from certification_sets where site_id = ?", where) == [(1,)]

    env = {
        "DOCGEN_HOME": str(desk.home),
        "DOCGEN_DATABASE_URL": desk.database,
        "DOCGEN_SETTINGS": os.environ["DOCGEN_SETTINGS"],
    }
    path = tmp_path / "set.pdf"
    path.write_bytes(pdf)
    genuine = cli.docgen("verify", path, env=env)
    assert genuine.returncode == 0, genuine.stdout + genuine.stderr
    said = genuine.stdout
    assert "the SWPPP's contractor certifications of Birch Hill at 4 Birch Hill Road" in said
    assert "2 signed certifications, assembled and sealed by this register" in said
    for number, signer, firm in zip(
        numbers, ("Ada North", "Ben South"), ("North Grading", "South Paving"), strict=True
    ):
        assert re.search(rf"^  {number}: certified by {signer}, Owner for {firm}", said, re.M)
    assert "signature: valid" in said and "changed after signing: no" in said

    altered = bytearray(pdf)
    middle = len(altered) // 2
    altered[middle] = (altered[middle] + 1) % 256
    path.write_bytes(bytes(altered))
    tampered = cli.docgen("verify", path, env=env)
    assert tampered.returncode == 1
    assert "not issued by this register, or altered" in tampered.stderr

    # The desk's own Verify page, and the public check of a certification it holds.
    page = clerk.get("/verify")
    checked = clerk.post(
        "/verify",
        data={"csrf_token": csrf_of(page.text)},
        files={"file": ("set.pdf", pdf, "application/pdf")},
    )
    assert "Assembled and sealed by this register" in checked.text
    assert all(n in checked.text for n in numbers)
    printed = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    assert "North Grading" in printed and "South Paving" in printed
    code = re.search(r"Access code: ([A-Z0-9-]{14})", printed)[1]
    with httpx.Client(base_url=desk.url, timeout=120) as public:
        answer = public.post(
            f"/v/{numbers[0]}",
            data={"code": code},
            files={"file": ("set.pdf", pdf, "application/pdf")},
        )
    assert answer.status_code == 200
    assert "Genuine." in answer.text and "Birch Hill" in answer.text
    assert re.search(r'id="in-set"', answer.text)


@pytest.mark.parametrize("sealed", [False, True])
def test_the_firms_page_says_sealed_only_when_it_is(sealed):
    """Issue 47, item 3: "It is sealed by the municipality" was said of every certification,
    sealed or not (a Village without a signing key issues unsealed)."""
    from docgen.desk.base.web import pages

    page = (
        pages()
        .get_template("certify/signed.html.j2")
        .render(
            number="CC-2026-0001",
            sealed=sealed,
            municipality="Village of Homer",
            firm="Acme Earthworks LLC",
            site={"name": "Elm Street"},
            token="t",
            method="electronic",
        )
    )
    said = " ".join(page.split())
    assert ("It is sealed by the Village of Homer" in said) is sealed
    assert ("It is not sealed by the Village of Homer" in said) is not sealed
    assert "It is the electronic original" in said
