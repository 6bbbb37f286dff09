"""Which respondent is this: the figures never disagree with the issued document (issue
28, item 6; LAW.md § 2(a) and (e), § 4), over HTTP against a real `docgen serve` on SQLite.

A notice to "Glenwood Heights Holding LLC" is issued and the offense convicted; a second
notice is typed to the misspelt "Glenwood Hieghts Holding LLC" at the same address, a near
name the register does not take without asking. While the question is open the figures
and the preview show each answer's offense number and penalty and no one penalty; the
"Which respondent is this?" page preselects nothing, refuses an empty answer, and shows
the penalty beside each answer; the issued PDF and DOCX state the name chosen and the
penalty the page showed for it. The name as typed becomes another name of the record
only when the clerk ticks "keep the name as typed".
"""

from __future__ import annotations

import html
import re

import pytest
from desk_server import serving, start_draft, typed_sample

from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.respondent_choice import (
    RECORD,
    TYPED,
    answers,
    convicted_record,
    drafted,
    notice,
    stated,
)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module imports a history (a conviction of Glenwood
    # Heights Holding LLC) that another module's notice could be matched to.
    yield from serving(tmp_path_factory)


def opened(desk):
    from docgen.register import Register

    return Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}")


@pytest.fixture(scope="module")
def record_id(desk, tmp_path_factory) -> int:
    """The record of Glenwood Heights Holding LLC, with one conviction."""
    desk.signed_in("ann").get("/documents")  # the register is made when first opened
    with opened(desk) as register:
        return convicted_record(register, tmp_path_factory.mktemp("history"))


def test_while_the_match_is_a_question_each_answer_has_its_own_penalty(desk, record_id):
    clerk = desk.signed_in("ann")
    where, _ = drafted(clerk, notice("2026-11-27", "2026-11-30", TYPED))
    page = clerk.get(where).text
    assert "data-question" in page and "the penalty depends on whose history it is" in page
    assert 'data-figure="penalty"' not in page and 'data-figure="offense"' not in page
    assert answers(page) == {
        str(record_id): (2, "350.00", "700.00"),  # its conviction counts (§ 228-79C(4))
        "new": (1, "0.00", "350.00"),
    }

    asked = clerk.get(f"{where}/preview")
    assert asked.status_code == 200 and "Which respondent is this?" in asked.text
    assert "data-figure" not in asked.text and answers(asked.text) == answers(page)
    assert asked.headers["content-security-policy"].startswith("default-src 'none'")
    for value, (number, low, high) in answers(page).items():
        assert f'href="/drafts/{where.rsplit("/", 1)[1]}/preview?as={value}"' in asked.text
        shown = clerk.get(f"{where}/preview", params={"as": value}).text
        assert stated(html.unescape(re.sub(r"<[^>]+>", " ", shown))) == (number, low, high)


def test_the_issued_notice_names_the_record_chosen_with_the_penalty_shown(desk, record_id):
    clerk = desk.signed_in("ann")
    where, token = drafted(clerk, notice("2026-11-28", "2026-11-30", TYPED))
    asked = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert asked.status_code == 200 and "Which respondent is this?" in asked.text
    assert not re.search(r'type="radio"[^>]*checked', asked.text)  # nothing preselected
    shown = answers(asked.text)
    assert shown[str(record_id)] == (2, "350.00", "700.00") and shown["new"][0] == 1

    with opened(desk) as register:
        before = len(register.documents())
    unanswered = clerk.post(f"{where}/issue", data={"csrf_token": token, "_choosing": "1"})
    assert unanswered.status_code == 400
    assert "Respondent: choose one of the records, or a new respondent" in unanswered.text
    assert 'aria-invalid="true"' in unanswered.text and answers(unanswered.text) == shown
    with opened(desk) as register:
        assert len(register.documents()) == before  # nothing issued

    chosen = {"csrf_token": token, "_choosing": "1", "respondent": str(record_id)}
    done = clerk.post(f"{where}/issue", data=chosen)
    assert done.status_code == 303, done.text
    number = done.headers["location"].rsplit("/", 1)[1]
    for fmt, read in (("pdf", pdf_text), ("docx", docx_text)):
        text = read(clerk.get(f"/documents/{number}/file.{fmt}").content)
        assert RECORD in text and TYPED not in text, fmt
        assert stated(text) == shown[str(record_id)], fmt
    with opened(desk) as register:
        assert register.document(number).respondent.id == record_id
        assert TYPED not in register.respondent(record_id).aliases  # nothing merged


def test_keeping_the_name_as_typed_records_it_as_another_name(desk, record_id):
    clerk = desk.signed_in("ann")
    where, token = drafted(clerk, notice("2026-11-29", "2026-12-01", TYPED))
    asked = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert f"Keep the name as typed, {TYPED}," in asked.text
    shown = answers(asked.text)[str(record_id)]
    chosen = {"csrf_token": token, "_choosing": "1", "respondent": str(record_id)}
    done = clerk.post(f"{where}/issue", data={**chosen, "keep_name": "1"})
    assert done.status_code == 303, done.text
    number = done.headers["location"].rsplit("/", 1)[1]
    text = pdf_text(clerk.get(f"/documents/{number}/file.pdf").content)
    assert TYPED in text and stated(text) == shown
    with opened(desk) as register:
        assert TYPED in register.respondent(record_id).aliases

    # the spelling is now the record's: a draft to it is no longer a question
    again, _ = drafted(clerk, notice("2026-11-30", "2026-12-01", TYPED))
    page = clerk.get(again).text
    assert "data-question" not in page and f"#{record_id} {RECORD}" in page
    assert re.search(r'data-figure="offense">2<', page)


def test_a_record_not_in_the_register_is_asked_again(desk, record_id):
    clerk = desk.signed_in("ann")
    near = "Glenwood Heigths Holding LLC"  # the record knows the first misspelling by now
    where, token = drafted(clerk, notice("2026-11-28", "2026-12-01", near))
    bad = {"csrf_token": token, "_choosing": "1", "respondent": "999999"}
    refused = clerk.post(f"{where}/issue", data=bad)
    assert refused.status_code == 400 and "999999 is no record in the register" in refused.text
    assert answers(refused.text)[str(record_id)][0] == 2


def test_a_kind_whose_penalty_reads_no_history_asks_without_figures(desk, record_id):
    """A stop-work order states no penalty from the respondent's history: its question
    lists the records with nothing that no document would state, and the record chosen
    names the order."""
    clerk = desk.signed_in("ann")
    where, token = start_draft(clerk, "stop-work-order")
    _, typed = typed_sample("stop-work-order", "homer-silt-fence")
    saved = clerk.post(where, data={**typed, "recipient.name": TYPED, "csrf_token": token})
    assert saved.status_code == 303, saved.text
    asked = clerk.post(f"{where}/issue", data={"csrf_token": token})
    assert asked.status_code == 200 and "Which respondent is this?" in asked.text
    assert f"#{record_id} {RECORD}" in asked.text
    assert "this would give" not in asked.text and "data-penalty" not in asked.text
    assert "prior convictions of the record you choose" not in asked.text
    chosen = {"csrf_token": token, "_choosing": "1", "respondent": str(record_id)}
    done = clerk.post(f"{where}/issue", data=chosen)
    assert done.status_code == 303, done.text
    text = pdf_text(clerk.get(f"{done.headers['location']}/file.pdf").content)
    assert RECORD in text and TYPED not in text
