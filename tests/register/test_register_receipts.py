"""What comes back after mailing (LAW.md § 2): the return receipt recorded on its mailing
(the deadline computed again, never earlier; the receipt annexed to the affidavit), the
mailing returned undelivered (no service; the deadline withdrawn until service is
complete), and each mailed piece's own article number."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from docgen.cases.mail import with_check_digit
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import RegisterError
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_args, service_of

HTML = ("html",)
ARTICLE = "9407 1118 9876 5432 1012 38"
OTHER = with_check_digit("940711189876543210124")


def flat(text: str) -> str:
    return " ".join(text.split())


def mailed(reg, on: date = date(2026, 9, 9), **kwargs):
    issued = reg.issue("notice-of-violation", notice("2026-09-08"), formats=HTML)
    served = reg.record_service(
        issued.number, service_of("certified-mail", on, **kwargs), formats=HTML
    )
    return issued, served


def test_the_receipt_is_recorded_on_its_mailing_and_moves_the_deadline_later(reg):
    # The issue's case: mailed 09-09 with no receipt: complete 09-14, last day 09-29. The
    # card comes back signed 09-16: complete 09-16, last day 10-01.
    issued, served = mailed(reg, article=ARTICLE)
    assert served.service.notice_deadline == date(2026, 9, 29)
    came = reg.record_receipt(
        issued.number, date(2026, 9, 16), "M. Keller", formats=("pdf", "docx")
    )
    assert came.deadline == date(2026, 10, 1)
    assert came.service.received == date(2026, 9, 16) and came.service.received_by == "M. Keller"
    doc = reg.document(issued.number)
    assert len(doc.services) == 1  # not a second service
    assert doc.appeal_deadline == date(2026, 10, 1)
    assert doc.persons[0].complete == doc.served_on == date(2026, 9, 16)
    affidavit = served.affidavit.number
    assert doc.services[0].affidavit == affidavit and doc.services[0].annex == came.annex.number
    # The annex: numbered, naming the affidavit (which stays as sworn), the article number,
    # the day of receipt and who signed.
    assert came.annex.number == "RR-2026-0001" and came.annex.kind == "return-receipt"
    assert reg.document(came.annex.number).about == affidavit
    for text in (pdf_text(came.annex.files["pdf"]), docx_text(came.annex.files["docx"])):
        words = flat(text)
        assert f"Annex 1 to Affidavit of Service No. {affidavit}" in words
        assert "which stays as sworn" in words
        assert f"Article number: {ARTICLE}" in words
        assert "Date of receipt: September 16, 2026" in words
        assert "Signed by: M. Keller" in words
        assert f"Notice of Violation No. {issued.number}" in words
        assert "appeal" not in words.lower()  # facts only (LAW.md § 10)
    assert reg.verify(came.annex.files["pdf"]).about == affidavit
    assert reg.files(affidavit) == reg.files(affidavit)  # the affidavit is unchanged


def test_an_early_receipt_never_shortens_the_deadline(reg):
    # Mailed 10-05: 10-10 + 15 = 10-25 (Sunday), last day 10-26. Received 10-06: mailing
    # + 5 is still the later day, so the deadline stays 10-26.
    issued, served = mailed(reg, on=date(2026, 10, 5))
    came = reg.record_receipt(issued.number, date(2026, 10, 6), "A. Li", formats=HTML)
    assert came.deadline == served.service.notice_deadline == date(2026, 10, 26)


def test_a_returned_mailing_completes_no_service_and_withdraws_the_deadline(reg):
    issued, _ = mailed(reg, article=ARTICLE)
    assert issued.number in [d.number for d in reg.documents("served")]
    came = reg.record_return(issued.number, date(2026, 9, 21), "unclaimed")
    assert came.deadline is None and came.service.outcome == "returned"
    doc = reg.document(issued.number)
    assert doc.appeal_deadline is None and doc.served_on is None
    assert doc.persons[0].complete is None
    assert doc.persons[0].returned == ("2026-09-21 (unclaimed)",)
    assert [d.number for d in reg.documents("awaiting-service")] == [issued.number]
    assert reg.documents("served") == []
    assert reg.documents("appeal-running", today=date(2026, 9, 22)) == []
    # Served again in person on 09-24: day 15 is 10-09; the 09-29 stated before the return
    # is not shortened by the new service either.
    again = reg.record_service(issued.number, service_of("personal-delivery", date(2026, 9, 24)))
    assert again.service.notice_deadline == date(2026, 10, 9)
    assert reg.document(issued.number).served_on == date(2026, 9, 24)
    # A receipt is refused on a returned mailing: it has its one outcome.
    with pytest.raises(RegisterError, match="already has its return"):
        reg.record_receipt(issued.number, date(2026, 9, 22), "X", article=ARTICLE)


def test_a_returned_mailing_restores_no_shorter_deadline(reg):
    issued, _ = mailed(reg, on=date(2026, 9, 9))  # stated 09-29
    delivered = service_of("personal-delivery", date(2026, 9, 10))  # gives 09-25
    reg.record_service(issued.number, delivered)
    came = reg.record_return(issued.number, date(2026, 9, 15), "refused", mailed=date(2026, 9, 9))
    assert came.deadline == date(2026, 9, 29)  # the delivery stands; 09-29 was stated


def test_each_mailed_piece_has_its_own_article_number(reg):
    issued, _ = mailed(reg, article=ARTICLE)
    other = reg.issue("notice-of-violation", notice("2026-09-08"), formats=HTML)
    count = reg.count()
    with pytest.raises(RegisterError) as refused:
        reg.record_service(
            other.number,
            service_of("certified-mail", date(2026, 9, 10), article=ARTICLE),
            formats=HTML,
        )
    assert (
        f"--article {ARTICLE}: already used for the piece of {issued.number} mailed to "
        "Tioughnioga Ridge Development LLC on 2026-09-09" in str(refused.value)
    )
    assert "LAW.md" not in str(refused.value)  # the project's notes are not cited
    assert str(refused.value).endswith("(Village of Homer practice)")  # a reading, said so
    assert reg.document(other.number).services == () and reg.count() == count
    reg.record_service(other.number, service_of("certified-mail", date(2026, 9, 10), article=OTHER))


def test_bad_input_is_refused_naming_the_flag_and_nothing_is_recorded(reg, tmp_path):
    today = municipal_today(load_pack("homer"))
    issued, served = mailed(reg, article=ARTICLE)
    count, audit = reg.count(), len(reg.audit())
    ahead = (today + timedelta(days=1)).isoformat()

    def run(*args):
        done = docgen(*args)
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        return flat(done.stderr)

    receipt = ("record-receipt", issued.number, "--signed-by", "M. Keller")
    said = run(*receipt, "--received", "2026-09-08")
    assert "--received 2026-09-08 is before the mailing (2026-09-09)" in said
    assert "(CPLR 2103(b)(2), by analogy)" in said and "LAW.md" not in said
    said = run(*receipt, "--received", ahead)
    assert f"--received {ahead}: after today ({today}" in said
    said = run(*receipt, "--received", "2026-09-16", "--article", OTHER)
    assert f"--article {issued.number}: no mailing article number {OTHER}" in said
    assert "record the mailing first (docgen record-service)" in said
    said = run(*receipt, "--received", "2026-09-16", "--to", "Nobody Inc.")
    assert "--to 'Nobody Inc.': " in said and "was not sent to that person" in said
    said = run("record-return", issued.number, "--date", "2026-09-20", "--reason", "lost")
    assert "--reason 'lost': the reason on the envelope is one of unclaimed, refused" in said
    # The same mailing typed again with its receipt points to record-receipt.
    said = run(
        "record-service",
        issued.number,
        *service_args("certified-mail"),
        "--date",
        "2026-09-09",
        "--received",
        "2026-09-16",
    )
    assert "its return receipt is recorded on that mailing, not as a second service" in said
    assert f"docgen record-receipt {issued.number} --received 2026-09-16" in said
    assert reg.count() == count and len(reg.audit()) == audit
    assert reg.document(issued.number).services[0].outcome is None

    done = docgen(*receipt, "--received", "2026-09-16", "-f", "pdf", "-o", f"{tmp_path}/")
    assert done.returncode == 0, done.stderr
    assert "last day to appeal: 2026-10-01" in done.stdout
    assert f"annexed to {served.affidavit.number} as RR-2026-0001" in done.stdout
    said = run(*receipt, "--received", "2026-09-17")
    assert "already has its return receipt (received 2026-09-16, signed by M. Keller)" in said


def test_verify_names_what_an_annex_belongs_to(reg, tmp_path):
    issued, served = mailed(reg, article=ARTICLE)
    came = reg.record_receipt(issued.number, date(2026, 9, 16), "M. Keller", formats=("pdf",))
    path = tmp_path / "annex.pdf"
    path.write_bytes(came.annex.files["pdf"])
    done = docgen("verify", str(path))
    assert done.returncode == 0, done.stderr
    assert f"return-receipt of {served.affidavit.number}" in done.stdout


def test_a_deputy_officers_affidavit_states_the_office(reg, tmp_path):
    issued = reg.issue("notice-of-violation", notice("2026-09-08"), formats=HTML)
    done = docgen(
        "record-service",
        issued.number,
        *service_args("personal-delivery", officer=False),
        "--date",
        "2026-09-09",
        "--served-by",
        "Luis Ortega",
        "--served-by-title",
        "Deputy Code Enforcement Officer",
        "-f",
        "pdf",
        "-o",
        f"{tmp_path}/",
    )
    assert done.returncode == 0, done.stderr
    affidavit = reg.document(issued.number).services[0].affidavit
    text = flat(pdf_text(reg.files(affidavit)["pdf"]))
    assert "Luis Ortega, Deputy Code Enforcement Officer, being duly sworn" in text
    assert "I am the Deputy Code Enforcement Officer of the Village of Homer" in text
    # history reads the service the register derives, not an event's raw date
    shown = docgen("history", str(issued.respondent.id))
    assert f"{issued.number}" in shown.stdout and "served 2026-09-09" in shown.stdout
