"""The firm mailing list of a day's certified pieces, read from the register (LAW.md § 9),
and the article number a mail service event records: the one typed, checked as the USPS
specifies, or the one the case gave the person served."""

from __future__ import annotations

from datetime import date

import pytest

from docgen import api
from docgen.cases.mail import with_check_digit
from docgen.register import RegisterError
from docgen.register.matter.mailing import mailing_list_case
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, html_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

HTML = ("html",)
DAY = date(2026, 11, 17)
ARTICLE = "9589 0710 5270 0123 4567 81"  # check digit 1 (tests/test_certified_mail.py)


def issued_with_article(reg, name: str, article: str | None):
    data = notice("2026-11-16", name=name)
    if article:
        data["recipient"]["certified_article"] = article
    return reg.issue("notice-of-violation", data, formats=HTML)


def test_a_days_certified_pieces_make_the_mailing_list(reg):
    first = issued_with_article(reg, "Cayuga Street Holdings LLC", ARTICLE)
    second = issued_with_article(reg, "Marguerite O'Donnell & Sons <Excavating>", None)
    by_hand = issued_with_article(reg, "Helen M. Brandt", None)
    reg.record_service(first.number, service_of("certified-mail", DAY), formats=HTML)
    reg.record_service(second.number, service_of("certified-mail", DAY), formats=HTML)
    reg.record_service(by_hand.number, service_of("personal-delivery", DAY), formats=HTML)
    # Mailed again the next day: another piece, with its own article number (LAW.md § 2).
    again = with_check_digit("958907105270012345679")
    reg.record_service(
        first.number, service_of("certified-mail", date(2026, 11, 18), article=again)
    )

    data = mailing_list_case(reg, DAY)
    assert [p["document"] for p in data["pieces"]] == [first.number, second.number]
    # The service event took the article number the case gave the landowner.
    assert reg.document(first.number).services[0].article == ARTICLE

    document = api.build("mailing-list", data)
    assert document.number == "ML-2026-11-17"  # one list per day
    assert any("has no certified mail article number" in w for w in document.warnings)
    for text in (
        html_text(document.standalone()),
        pdf_text(api.to_bytes(document, "pdf")),
        docx_text(api.to_bytes(document, "docx")),
    ):
        flat = " ".join(text.split())
        assert "Sender: Village of Homer, Village Hall, 31 North Main Street" in flat
        assert ARTICLE in flat and "Cayuga Street Holdings LLC" in flat
        assert "MISSING: no article number" in flat
        assert f"Notice of violation No. {first.number}" in flat, flat
        assert "Total number of pieces listed by the sender: 2" in flat
        assert "Postmaster, per (name of the receiving employee)" in flat
        assert "acceptance stamp" in flat
        assert "Helen M. Brandt" not in flat  # delivered by hand: not on the list


def test_a_day_without_certified_mail_is_an_error_that_says_what_to_do(reg):
    with pytest.raises(RegisterError, match="record each mailing first"):
        mailing_list_case(reg, DAY)


def test_a_typed_article_number_is_checked_and_recorded_as_on_the_label(reg):
    issued = issued_with_article(reg, "Cayuga Street Holdings LLC", None)
    with pytest.raises(RegisterError, match="check digit"):
        reg.record_service(
            issued.number,
            service_of("certified-mail", DAY, article="9589071052700123456782"),
            formats=HTML,
        )
    served = reg.record_service(
        issued.number,
        service_of("certified-mail", DAY, article="9589071052700123456781"),
        formats=HTML,
    )
    assert served.service.article == ARTICLE
    assert f"article number {ARTICLE}" in " ".join(
        html_text(served.affidavit.files["html"].decode()).split()
    )


def test_docgen_mailing_list_writes_the_days_list(reg, tmp_path):
    issued = issued_with_article(reg, "Cayuga Street Holdings LLC", ARTICLE)
    reg.record_service(issued.number, service_of("certified-mail", DAY), formats=HTML)
    run = docgen("mailing-list", "--date", "2026-11-17", "-o", f"{tmp_path}/out/")
    assert run.returncode == 0, run.stderr
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert names == [f"ML-2026-11-17-mailing-list.{f}" for f in ("docx", "html", "pdf")]
    missing = docgen("mailing-list", "--date", "2026-11-18")
    assert missing.returncode == 1 and "no service by certified mail" in missing.stderr
