"""The desk's Issue offers a Language choice for a kind with a courtesy rendition (LAW.md
§ 13), over HTTP against a real `docgen serve`: the Spanish copy is kept with the number,
listed on the document's page with its SHA-256, and verify names it as the Spanish copy."""

from __future__ import annotations

import hashlib
import io
import re

import pytest
from desk_server import csrf_of, serving, start_draft, typed_sample
from test_desk_mail import checked_downloads, files_listed, record

from tests.helpers.readback import pdf_text


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module keeps respondents' preferred languages:
    # another module's notice to the same respondent would come with a Spanish copy.
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
    assert "COPIA DE CORTESÍA EN ESPAÑOL" in pdf_text(got["es.pdf"])
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
    _, _, page = typed_draft(clerk, "report-requirement", "homer-two-gaps")
    assert "Issue: number, record and make the PDF and DOCX" in page  # the Issue form is there
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


def respondent_of_an_issued_notice(desk, clerk, sample: str):
    """Issue ``sample``'s notice in English alone: (its number, its respondent's record)."""
    where, token, _ = typed_draft(clerk, "notice-of-violation", sample)
    done = clerk.post(f"{where}/issue", data={"csrf_token": token, "language": "en"})
    assert done.status_code == 303, clerk.get(where).text
    number = done.headers["location"].rsplit("/", 1)[1]
    return number, record(desk, number).respondent


def audited(desk, respondent: int) -> list[dict]:
    """The audit's changes of ``respondent``'s preferred language, newest first."""
    from docgen.register import Register

    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as register:
        return [
            e
            for e in register.audit()
            if e["action"] == "language" and e["entity"] == "respondent"
            if e["entity_id"] == respondent
        ]


def options_of(page: str) -> list[tuple[str, bool]]:
    """(value, selected) of each option of the respondent page's language choice."""
    found = re.search(r'<select id="r-language" name="language"[^>]*>(.*?)</select>', page, re.S)
    assert found, "the respondent's page has no language choice"
    return [(v, bool(s)) for v, s in re.findall(r'<option value="([^"]*)"( selected)?', found[1])]


def test_the_clerk_keeps_a_respondents_language_and_the_next_notice_offers_its_copy(desk):
    """LAW.md § 13: on the respondent's page the clerk chooses the language they prefer,
    among the languages docgen has courtesy renditions in; the register keeps it with an
    audit entry, and the next notice to them starts at, and is issued with, the courtesy
    copy in that language."""
    from docgen.register.rules.copies import rendition_languages

    clerk = desk.signed_in("ann")
    number, respondent = respondent_of_an_issued_notice(desk, clerk, "homer-deadline-thanksgiving")
    assert respondent.language is None
    page = clerk.get(f"/respondents/{respondent.id}").text
    offered = ["", "en", *rendition_languages()]
    assert "es" in offered
    assert options_of(page) == [(value, value == "") for value in offered]

    saved = clerk.post(
        f"/respondents/{respondent.id}/language",
        data={"csrf_token": csrf_of(page), "language": "es"},
    )
    assert saved.status_code == 303
    assert saved.headers["location"] == f"/respondents/{respondent.id}?done=language"
    page = clerk.get(saved.headers["location"]).text
    assert "Preferred language saved." in page
    assert "Preferred language: Spanish (es)" in page
    assert ("es", True) in options_of(page)
    assert record(desk, number).respondent.language == "es"
    [entry] = audited(desk, respondent.id)
    assert (entry["actor"], entry["detail"]) == ("ann", {"from": None, "to": "es"})

    # 'Start a notice' from the respondent's page: the draft's recipient prefers Spanish,
    # as the register now keeps it (the earlier notice's case named no language).
    started = clerk.post(f"/respondents/{respondent.id}/notice", data={"csrf_token": csrf_of(page)})
    assert started.status_code == 303, started.text
    draft = clerk.get(started.headers["location"]).text
    assert re.search(r'name="recipient\.language"[^>]*value="es"', draft), draft

    # A notice typed anew to them (no language typed) is issued with the Spanish copy.
    where, token = start_draft(clerk, "notice-of-violation")
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    typed["violations[0].observed"] = "2026-11-09"  # another visit: another notice
    clerk.post(where, data={**typed, "csrf_token": token})
    chosen = '<option value="es" selected>English, and a Spanish courtesy copy</option>'
    assert chosen in clerk.get(where).text
    done = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert done.status_code == 303, clerk.get(where).text
    second = record(desk, done.headers["location"].rsplit("/", 1)[1])
    assert second.respondent.id == respondent.id
    assert {"es.pdf", "es.docx"} <= set(second.hashes)

    # English only, then no preference: each kept, each audited from what it was.
    for value, kept in (("en", "en"), ("", None)):
        page = clerk.get(f"/respondents/{respondent.id}").text
        saved = clerk.post(
            f"/respondents/{respondent.id}/language",
            data={"csrf_token": csrf_of(page), "language": value},
        )
        assert saved.status_code == 303
        assert record(desk, number).respondent.language == kept
    assert [e["detail"] for e in reversed(audited(desk, respondent.id))] == [
        {"from": None, "to": "es"},
        {"from": "es", "to": "en"},
        {"from": "en", "to": None},
    ]


def test_an_unknown_language_is_refused_naming_the_field_and_nothing_changes(desk):
    clerk = desk.signed_in("ann")
    number, respondent = respondent_of_an_issued_notice(
        desk, clerk, "homer-second-offense-continued"
    )
    kept = respondent.language
    before = audited(desk, respondent.id)
    page = clerk.get(f"/respondents/{respondent.id}").text
    refused = clerk.post(
        f"/respondents/{respondent.id}/language",
        data={"csrf_token": csrf_of(page), "language": "tlh"},
    )
    assert refused.status_code == 400
    said = (
        "Preferred language: &#39;tlh&#39; is not a language courtesy copies are issued "
        "in; choose English (en), Spanish (es), Russian (ru), or no preference"
    )
    assert said in refused.text and "LAW.md" not in refused.text
    assert 'aria-invalid="true"' in refused.text and 'role="alert"' in refused.text
    assert "Traceback" not in refused.text
    assert record(desk, number).respondent.language == kept
    assert audited(desk, respondent.id) == before


def test_only_staff_who_enforce_may_change_it_and_only_with_the_sessions_token(desk):
    clerk = desk.signed_in("ann")
    number, respondent = respondent_of_an_issued_notice(desk, clerk, "homer-first-offense")
    kept = record(desk, number).respondent.language
    where = f"/respondents/{respondent.id}/language"
    attorney = desk.signed_in("ada")
    page = attorney.get(f"/respondents/{respondent.id}").text
    assert 'name="language"' not in page  # an attorney sees the record, not the form
    assert (
        attorney.post(where, data={"csrf_token": csrf_of(page), "language": "en"}).status_code
        == 403
    )
    assert clerk.post(where, data={"csrf_token": "forged", "language": "en"}).status_code == 403
    assert clerk.post(where, data={"language": "en"}).status_code == 403
    assert record(desk, number).respondent.language == kept
    token = csrf_of(clerk.get(f"/respondents/{respondent.id}").text)
    missing = clerk.post(
        "/respondents/999999/language", data={"csrf_token": token, "language": "en"}
    )
    assert missing.status_code == 404
