"""Corrections (LAW.md § 2): a correction names the document it replaces and, where that one
was itself a correction, the whole line back to the first; its (f) counts from its own
service, and it says which document in the line was served on the person, never naming an
unserved one as served."""

from __future__ import annotations

from datetime import date

from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

HTML = ("html",)


def words(issued) -> list[str]:
    return [
        " ".join(text.split())
        for text in (pdf_text(issued.files["pdf"]), docx_text(issued.files["docx"]))
    ]


def corrected(reg, case, old, note: str, formats=HTML):
    case["violations"][0]["nature"] += f" ({note})"
    return reg.supersede(old.number, case, formats=formats)


def test_a_correction_of_a_correction_names_the_line_and_the_one_served(reg):
    # The issue's case: NOV-0002 (correcting 0001) was served; 0003 corrected it and was
    # never served; 0004 corrects 0003.
    case = notice("2026-11-02")
    first = reg.issue("notice-of-violation", case, formats=HTML)
    second = corrected(reg, case, first, "corrected")
    reg.record_service(
        second.number, service_of("personal-delivery", date(2026, 11, 4)), formats=HTML
    )
    third = corrected(reg, case, second, "again")
    fourth = corrected(reg, case, third, "once more", formats=("pdf", "docx"))
    assert reg.document(fourth.number).corrections == (
        first.number,
        second.number,
        third.number,
        fourth.number,
    )
    for text in words(fourth):
        assert f"This document replaces No. {third.number}, issued November 2, 2026" in text
        assert (
            f"No. {third.number} itself replaced No. {second.number}, issued November 2, "
            f"2026, which replaced No. {first.number}, issued November 2, 2026; none of them "
            "has effect."
        ) in text
        assert (
            f"Of these, No. {second.number} was served on Tioughnioga Ridge Development LLC "
            "on November 4, 2026."
        ) in text
        assert f"the period that ran from service of No. {second.number} does not" in text
        assert f"service of No. {third.number}" not in text  # never served


def test_a_line_never_served_says_so_and_names_no_period(reg):
    case = notice("2026-11-02")
    first = reg.issue("notice-of-violation", case, formats=HTML)
    second = corrected(reg, case, first, "corrected", formats=("pdf", "docx"))
    for text in words(second):
        assert f"This document replaces No. {first.number}" in text
        assert "itself replaced" not in text  # the first of its line
        assert "None of them was served on Tioughnioga Ridge Development LLC." in text
        assert "The 15 days to appeal run from service of this corrected notice." in text
        assert "the period that ran from service" not in text
