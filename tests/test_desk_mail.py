"""The post office's work on the desk (LAW.md § 9), over HTTP against a real `docgen
serve`: Issue with a copy for each person in copies_to (the document's page lists each
copy, its download checked against the recorded SHA-256, verify names whose copy it is),
Lift with copies, and the day's firm mailing list (its certified pieces, a missing
article number flagged, the list as PDF, DOCX and HTML)."""

from __future__ import annotations

import hashlib
import html
import io
import re

import pytest
from desk_server import csrf_of, serving, start_draft, typed_sample
from test_desk_actions import issued

from docgen.cases.mail import with_check_digit
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_form

ARTICLE = with_check_digit("9589071052700123456" + "78")  # 22 digits


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the day's certified mailings of the
    # register ("2 pieces").
    yield from serving(tmp_path_factory)


def record(desk, number: str):
    from docgen.register import Register

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        return register.document(number)


def files_listed(page: str) -> dict[str, tuple[str, str]]:
    """The document page's downloads: stored format -> (label, SHA-256 shown)."""
    found = re.findall(
        r'<a href="/documents/[^/]+/file\.([^"]+)" download>([^<]+)</a> '
        r'<span class="hint">SHA-256 ([0-9a-f]{64})</span>',
        page,
    )
    return {fmt: (html.unescape(label), digest) for fmt, label, digest in found}


def checked_downloads(client, number: str) -> dict[str, bytes]:
    """Every file on the document's page, downloaded; each one's SHA-256 is the one the
    page shows and the register recorded."""
    listed = files_listed(client.get(f"/documents/{number}").text)
    got = {}
    for fmt, (_, digest) in listed.items():
        blob = client.get(f"/documents/{number}/file.{fmt}").content
        assert hashlib.sha256(blob).hexdigest() == digest, fmt
        got[fmt] = blob
    return got


def test_issue_with_copies_lists_each_copy_checked_and_verify_names_whose(desk):
    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    clerk.post(where, data={**typed, "csrf_token": token})
    draft = clerk.get(where).text
    assert 'name="copies" value="1"' in draft and "Also a copy for each person" in draft
    done = clerk.post(f"{where}/issue", data={"csrf_token": token, "copies": "1"})
    assert done.status_code == 303, clerk.get(where).text
    number = done.headers["location"].rsplit("/", 1)[1]

    listed = files_listed(clerk.get(f"/documents/{number}").text)
    applicant = "Albany Street Partners LP (applicant)"
    assert [label for label, _ in listed.values()] == [
        "Download PDF",
        "Download DOCX",
        "Download HTML",
        f"Download the copy for {applicant}, PDF",
        f"Download the copy for {applicant}, DOCX",
        f"Download the copy for {applicant}, HTML",
    ]
    got = checked_downloads(clerk, number)
    stored = record(desk, number).hashes
    assert {fmt: hashlib.sha256(b).hexdigest() for fmt, b in got.items()} == stored
    copy = clerk.get(f"/documents/{number}/file.copy1.pdf")
    assert (
        f'filename="{number}-notice-of-violation-copy-1.pdf"' in copy.headers["content-disposition"]
    )
    for text in (pdf_text(got["copy1.pdf"]), docx_text(got["copy1.docx"])):
        assert f"Copy for {applicant}." in " ".join(text.split())
    for text in (pdf_text(got["pdf"]), docx_text(got["docx"])):
        assert "Copy for" not in text

    token = csrf_of(clerk.get("/verify").text)
    for fmt, whose in (("copy1.pdf", applicant), ("pdf", None)):
        checked = clerk.post(
            "/verify",
            data={"csrf_token": token},
            files={"file": ("scan.pdf", io.BytesIO(got[fmt]), "application/pdf")},
        ).text
        assert f'<a href="/documents/{number}">{number}</a>' in checked
        said = f"It is the copy for {html.escape(applicant)}, served with"
        assert (said in checked) == bool(whose), fmt

    # a kind without copies offers no such choice
    where, token = start_draft(clerk, "contractor-certification")
    assert 'name="copies"' not in clerk.get(where).text


def test_lift_with_copies_gives_each_person_served_their_copy(desk):
    clerk = desk.signed_in("otto")
    order = issued(clerk, "stop-work-order", "homer-silt-fence")
    on = record(desk, order).issued.isoformat()
    token = csrf_of(clerk.get(f"/documents/{order}").text)
    served = {**service_form("personal-delivery"), "date": on, "time": "09:30", "csrf_token": token}
    assert clerk.post(f"/documents/{order}/service", data=served).status_code == 303
    page = clerk.get(f"/documents/{order}").text
    assert 'id="l-copies" name="copies" value="1"' in page
    assert "each other person the order was served on (Tioughnioga Ridge" in page
    lifted = clerk.post(
        f"/documents/{order}/lift", data={"date": on, "copies": "1", "csrf_token": token}
    )
    assert lifted.status_code == 303, lifted.text
    number = lifted.headers["location"].rsplit("/", 1)[1]
    listed = files_listed(clerk.get(f"/documents/{number}").text)
    developer = "Tioughnioga Ridge Development LLC (developer)"
    assert f"Download the copy for {developer}, PDF" in [label for label, _ in listed.values()]
    got = checked_downloads(clerk, number)
    for text in (pdf_text(got["copy1.pdf"]), docx_text(got["copy1.docx"])):
        flat = " ".join(text.split())
        assert "Notice Lifting Stop-Work Order" in flat and f"Copy for {developer}." in flat
    assert f'Lifted by <a href="/documents/{number}">' in clerk.get(f"/documents/{order}").text


def test_the_days_mailing_list_flags_a_missing_article_and_downloads(desk):
    clerk, attorney = desk.signed_in("ann"), desk.signed_in("ada")
    number = issued(clerk, "notice-of-violation", "homer-deadline-thanksgiving")
    on = record(desk, number).issued.isoformat()
    token = csrf_of(clerk.get(f"/documents/{number}").text)
    for to, article in (("Helen M. Brandt", ARTICLE), ("Albany Street Partners LP", "")):
        mailed = {"to": to, **service_form("certified-mail"), "date": on, "article": article}
        done = clerk.post(f"/documents/{number}/service", data={**mailed, "csrf_token": token})
        assert done.status_code == 303, done.text
    where, token_a = start_draft(attorney, "maintenance-easement", "macedon")  # a second one
    _, typed = typed_sample("maintenance-easement", "macedon-individual")
    attorney.post(where, data={**typed, "csrf_token": token_a})
    assert attorney.post(f"{where}/issue", data={"csrf_token": token_a}).status_code == 303

    form = clerk.get("/mailing-list").text
    assert 'href="/mailing-list" aria-current="page">Mailing list' in form
    assert '<option value="homer"' in form and '<option value="macedon"' in form
    page = clerk.get("/mailing-list", params={"date": on, "jurisdiction": "homer"})
    assert page.status_code == 200, page.text
    text = page.text
    day = f"ML-{on}"
    grouped = " ".join(ARTICLE[i : i + 4] for i in range(0, len(ARTICLE), 4))
    assert f"{day}: 2 pieces, Homer" in text
    assert "1 piece has no certified mail article number" in text
    assert f"<td>{grouped}</td><td>Helen M. Brandt</td>" in text
    assert '<span class="error">MISSING: no article number</span></td><td>Albany' in text
    formats = {"pdf": b"%PDF-", "docx": b"PK", "html": b"<!DOCTYPE"}
    # Only what can be made is offered (PNG and JPG were, and answered 409).
    offered = re.findall(r'href="/mailing-list/[^"?]+\.(\w+)[^"]*" download', text)
    assert offered == list(formats)
    for fmt, magic in formats.items():
        link = f"/mailing-list/{on}.{fmt}?jurisdiction=homer"
        assert f'href="{html.escape(link)}" download' in text
        got = clerk.get(link)
        assert got.status_code == 200 and got.content.startswith(magic), fmt
        assert f'filename="{day}-mailing-list.{fmt}"' in got.headers["content-disposition"]
        body = {"pdf": pdf_text, "docx": docx_text}.get(fmt, lambda b: b.decode())(got.content)
        flat = " ".join(body.split())
        for words in (grouped, "MISSING", number, "Albany Street Partners LP", "Helen M. Brandt"):
            assert words in flat, (fmt, words)
    none = clerk.get("/mailing-list", params={"date": "2026-01-02", "jurisdiction": "homer"})
    assert none.status_code == 400 and "no service by certified mail recorded" in none.text
    assert attorney.get("/mailing-list").status_code == 403  # not an attorney's work


def test_copies_asked_are_kept_through_the_choice_of_respondent(desk):
    """A near match stops the issue to ask which respondent it is; the copies asked for
    are carried through that choice."""
    clerk = desk.signed_in("otto")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    pages = []
    for name, street in (
        ("Tioughnioga Ridge Development LLC", "41 Route 281"),
        ("Tioughnioga Ridge Development, L.L.C.", "9 Water Street"),
    ):
        where, token = start_draft(clerk, "notice-of-violation")
        fields = {**typed, "recipient.name": name, "recipient.address.street": street}
        clerk.post(where, data={**fields, "csrf_token": token})
        pages.append(clerk.post(f"{where}/issue", data={"csrf_token": token, "copies": "1"}))
    assert pages[0].status_code == 303
    asked = pages[1].text
    assert "Which respondent is this?" in asked, asked
    assert '<input type="hidden" name="copies" value="1">' in asked
    done = clerk.post(
        f"{where}/issue",
        data={"csrf_token": token, "copies": "1", "respondent": "new"},
    )
    assert done.status_code == 303, done.text
    number = done.headers["location"].rsplit("/", 1)[1]
    assert set(record(desk, number).hashes) >= {"pdf", "copy1.pdf", "copy1.docx"}
