"""The desk's Issue offers a Language choice for a kind with a courtesy rendition (LAW.md
§ 13), over HTTP against a real `docgen serve`: the Spanish copy is kept with the number,
listed on the document's page with its SHA-256, and verify names it as the Spanish copy."""

from __future__ import annotations

import hashlib
import io

import pytest
from desk_server import csrf_of, serving, start_draft, typed_sample
from test_desk_actions import text_of
from test_desk_mail import checked_downloads, files_listed, record


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    yield from serving(tmp_path_factory)


def typed_draft(clerk, kind: str, sample: str) -> tuple[str, str, str]:
    """A draft of ``kind`` typed from ``sample``: (its address, its token, its page)."""
    where, token = start_draft(clerk, kind)
    _, typed = typed_sample(kind, sample)
    clerk.post(where, data={**typed, "csrf_token": token})
    return where, token, clerk.get(where).text


def test_issue_with_a_spanish_copy_lists_it_and_verify_names_it(desk):
    clerk = desk.signed_in("ann")
    where, token, draft = typed_draft(clerk, "notice-of-violation", "homer-first-offense")
    assert '<select id="language" name="language"' in draft
    assert '<option value="es">English, and a Spanish courtesy copy</option>' in draft
    done = clerk.post(f"{where}/issue", data={"csrf_token": token, "language": "es"})
    assert done.status_code == 303, clerk.get(where).text
    number = done.headers["location"].rsplit("/", 1)[1]

    listed = files_listed(clerk.get(f"/documents/{number}").text)
    labels = [label for label, _ in listed.values()]
    assert "Download the Spanish courtesy copy, PDF" in labels
    got = checked_downloads(clerk, number)
    stored = record(desk, number).hashes
    assert {fmt: hashlib.sha256(b).hexdigest() for fmt, b in got.items()} == stored
    assert "COPIA DE CORTESÍA EN ESPAÑOL" in text_of(got["es.pdf"])
    spanish = clerk.get(f"/documents/{number}/file.es.pdf")
    assert (
        f'filename="{number}-notice-of-violation-es.pdf"' in spanish.headers["content-disposition"]
    )

    token = csrf_of(clerk.get("/verify").text)
    checked = clerk.post(
        "/verify",
        data={"csrf_token": token},
        files={"file": ("scan.pdf", io.BytesIO(got["es.pdf"]), "application/pdf")},
    ).text
    assert f"It is the Spanish copy of {number}" in checked


def test_a_kind_without_a_rendition_offers_no_language(desk):
    clerk = desk.signed_in("ann")
    _, _, page = typed_draft(clerk, "notice-of-deficiency", "homer-silt-fence-washout")
    assert 'name="copies" value="1"' in page  # the Issue form is there
    assert 'name="language"' not in page


def test_the_recipients_preferred_language_is_chosen_and_kept_with_the_respondent(desk):
    """The draft's recipient prefers Spanish: the Language choice starts at the Spanish
    copy; English only, chosen, issues the English alone; the register keeps the
    preference with the respondent, whose page says it, and the next draft to that
    respondent (its language not typed) starts at the Spanish copy again."""
    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-second-offense-continued")
    assert "recipient.language" not in typed
    clerk.post(where, data={**typed, "recipient.language": "es", "csrf_token": token})
    page = clerk.get(where).text
    assert 'name="recipient.language"' in page
    assert '<option value="es" selected>English, and a Spanish courtesy copy</option>' in page
    assert "Spanish is chosen: the language the recipient prefers." in page
    done = clerk.post(f"{where}/issue", data={"csrf_token": token, "language": "en"})
    assert done.status_code == 303, clerk.get(where).text
    number = done.headers["location"].rsplit("/", 1)[1]
    stored = record(desk, number)
    assert not [f for f in stored.hashes if f.startswith("es.")]  # English only, as chosen
    respondent = stored.respondent
    assert respondent.language == "es"
    shown = clerk.get(f"/respondents/{respondent.id}").text
    assert "Preferred language: Spanish (es)" in shown

    where, token = start_draft(clerk, "notice-of-violation")
    clerk.post(where, data={**typed, "csrf_token": token})  # no language typed this time
    page = clerk.get(where).text
    assert '<option value="es" selected>English, and a Spanish courtesy copy</option>' in page
