"""record-service: the event, the appeal deadline and the affidavit of service issued."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.register import RegisterError
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice

HTML = ("html",)


def words(blob: bytes) -> str:
    return " ".join(html_text(blob.decode()).split())


def test_record_service_issues_a_numbered_affidavit_about_the_notice(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    served = reg.record_service(
        issued.number,
        "certified-mail",
        date(2026, 11, 4),
        article="9407 1118 9876 5432 1012 34",
        formats=HTML,
    )
    proof = served.affidavit
    assert proof.number == "AOS-2026-0001" and proof.kind == "affidavit-of-service"
    assert proof.respondent.id == issued.respondent.id
    assert reg.document(proof.number).about == issued.number
    text = words(proof.files["html"])
    assert "Affidavit of Service" in text and "being duly sworn" in text
    assert "article number 9407 1118 9876 5432 1012 34" in text
    assert "Dana R. Whitcomb, Code Enforcement Officer" in text
    # Mailed 2026-11-04, receipt unknown: from 2026-11-09 (CPLR 2103(b)(2)), day 15 11-24.
    assert "The last day to file a written notice of appeal is November 24, 2026." in text
    assert served.service.appeal_deadline == date(2026, 11, 24)
    assert "Sworn to before me" in text and "(Executive Law § 137)" in text
    # The affidavit is a document of the register like any other: verifiable.
    assert reg.verify(proof.files["html"]).number == "AOS-2026-0001"


def test_an_affirmation_under_cplr_2106_needs_no_notary(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    served = reg.record_service(
        issued.number,
        "personal-delivery",
        date(2026, 11, 3),
        oath="affirmation",
        served_by="Luis Ortega",
        formats=HTML,
    )
    text = words(served.affidavit.files["html"])
    assert "Affirmation of Service" in text and "Notary" not in text
    assert "under the penalties of perjury under the laws of New York" in text
    assert "(CPLR 2106(a))" in text
    assert "Luis Ortega" in text


def test_posting_counts_with_the_copy_mailed(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    with pytest.raises(RegisterError, match="record the mailing first"):
        reg.record_service(issued.number, "posting", date(2026, 11, 3), formats=HTML)
    reg.record_service(issued.number, "first-class-mail", date(2026, 11, 5), formats=HTML)
    posted = reg.record_service(issued.number, "posting", date(2026, 11, 3), formats=HTML)
    # From the later of posting (11-03) and mailing (11-05): day 15 is 11-20, a Friday.
    assert posted.service.appeal_deadline == date(2026, 11, 20)
    assert "on November 5, 2026 by mailing a true copy" in words(posted.affidavit.files["html"])


def test_service_details_that_do_not_fit_the_method_are_refused(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    with pytest.raises(RegisterError, match="certified-mail article number"):
        reg.record_service(issued.number, "first-class-mail", date(2026, 11, 3), article="1")
    with pytest.raises(RegisterError, match="--received"):
        reg.record_service(
            issued.number, "personal-delivery", date(2026, 11, 3), received=date(2026, 11, 4)
        )
    assert reg.document(issued.number).services == ()
