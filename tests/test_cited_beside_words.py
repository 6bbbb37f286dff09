"""A statute is cited only beside its own words (issue 47, item 4; LAW.md § 7's rule, for
every kind): docgen's readings are said as the Village's practice, never followed by the
section's citation; a firm is never said to be punishable by imprisonment (a fine only),
and imprisonment is named for a natural person. Read back from the issued PDF and DOCX."""

from __future__ import annotations

from pathlib import Path

import pytest

from docgen import api
from docgen.cases.loader import read_case_file
from tests.helpers.enforcement_cases import squash
from tests.helpers.readback import docx_text, pdf_text

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
PRACTICE = squash("(Village of Homer practice)")


def texts(kind: str, case: dict) -> tuple[str, str]:
    """The case's PDF and DOCX, each read back as one line of text."""
    _, files = api.render_bytes(kind, case, ("pdf", "docx"))
    return squash(pdf_text(files["pdf"])), squash(docx_text(files["docx"]))


def fixture(kind: str, name: str) -> dict:
    return read_case_file(FIXTURES / kind / f"{name}.yaml")


def beside(text: str, words: str) -> str:
    """What follows ``words`` in ``text``, up to its next 40 characters."""
    at = text.index(squash(words)) + len(squash(words))
    return text[at : at + 40]


def test_a_firm_is_fined_never_imprisoned_and_a_person_may_be_both():
    """Before: "Cayuga Street Holdings LLC is punishable by a fine ... or imprisonment for a
    period not to exceed six months, or both" (a limited liability company)."""
    firm = fixture("notice-of-violation", "homer-second-offense-continued")
    assert firm["recipient"]["entity"] == "firm"
    for text in texts("notice-of-violation", firm):
        assert "imprisonment" not in text
        assert squash("Cayuga Street Holdings LLC is punishable by a fine not less than") in text
    statement = fixture("penalty-statement", "homer-third-offense")
    for text in texts("penalty-statement", statement):
        assert "imprisonment" not in text
    person = fixture("notice-of-violation", "homer-deadline-thanksgiving")
    assert person["recipient"]["entity"] == "person"
    for text in texts("notice-of-violation", person):
        assert squash("for each violation, or imprisonment for a period not to exceed six") in text
    unsaid = dict(firm, recipient={k: v for k, v in firm["recipient"].items() if k != "entity"})
    for text in texts("notice-of-violation", unsaid):
        assert (
            squash(
                "or, if Cayuga Street Holdings LLC is a natural person and not a firm, "
                "imprisonment for a period not to exceed six months, or both"
            )
            in text
        )


def test_the_appeal_bullets_and_service_are_practice_not_the_sections_words():
    """Before: each how-to-appeal bullet and the service sentence ended "(§ 228-79C(1)(f))",
    whose words say only that the determination may be appealed within 15 days."""
    case = fixture("notice-of-violation", "homer-deadline-thanksgiving")
    for text in texts("notice-of-violation", case):
        for words in (
            "will tell you who will hear your appeal and when.",
            "date it was received. Office hours: Monday to Friday, 8:30 a.m. to 4:30 p.m., "
            "except public holidays.",
            "Village Hall, 31 North Main Street, Homer, New York 13077; telephone (607) "
            "749-3322; open Monday to Friday, 8:30 a.m. to 4:30 p.m., except public holidays.",
            "mail it early enough to arrive within the appeal period.",
            "service was complete on delivery, so the appeal period runs from that day.",
        ):
            assert beside(text, words).startswith(PRACTICE), words
        assert "(§ 228-79C(1)(f)) Take" not in text
        # (f)'s own words keep their citation.
        assert squash("within 15 days of service of notice of violation. (§ 228-79C(1)(f))") in text


def test_the_orders_mail_rule_is_practice_not_c2s():
    """Before: "This order takes effect on service: ... five days after the day it is
    mailed. (§ 228-79C(2))"; § 228-79C(2) says nothing of mail."""
    case = fixture("stop-work-order", "homer-silt-fence")
    del case["effective"]
    for text in texts("stop-work-order", case):
        words = "five days after the day it is mailed."
        assert beside(text, words).startswith(PRACTICE)


def test_the_halt_from_service_and_the_dates_are_practice_not_79a1():
    """Before: "This applies from service of this notice. (§ 228-79A(1))"."""
    case = fixture("notice-of-deficiency", "homer-silt-fence-washout")
    for text in texts("notice-of-deficiency", case):
        for words in (
            "This applies from service of this notice.",
            "Each corrective action is to be complete by the date given beside it.",
        ):
            assert beside(text, words).startswith(PRACTICE), words
        # § 228-79A(1)'s own words keep their citation.
        assert squash("has received approval by the CEO.” (§ 228-79A(1))") in text


@pytest.mark.parametrize("kind", ["notice-of-violation", "penalty-statement"])
def test_the_person_or_firm_is_a_field_of_the_recipient(kind):
    from docgen.documents import get_kind

    fields = get_kind(kind).model.model_fields["recipient"].annotation
    recipient = next(a for a in getattr(fields, "__args__", (fields,)) if a is not type(None))
    assert "entity" in recipient.model_fields
