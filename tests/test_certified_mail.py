"""Certified mail article numbers (LAW.md § 9): 20 or 22 digits, spaces allowed, the last
the USPS Mod 10 check digit; a wrong one is an error naming the field; a right one prints
above that person's address."""

from __future__ import annotations

import pytest

from docgen import api
from docgen.cases.mail import article_problem, check_digit, grouped
from docgen.errors import CaseInvalid
from tests.helpers.enforcement_cases import NOTICES, case_data, write_yaml

SECOND = next(p for p in NOTICES if p.stem == "homer-second-offense-continued")


# USPS Publication 199's Mod 10, worked by hand for a 22-digit number:
# 9589 0710 5270 0123 4567 8_ : from the right, positions 1, 3, 5... are 8 6 4 2 0 7 5 1 0 8 9
# (sum 50, times 3 = 150), positions 2, 4, 6... are 7 5 3 1 0 2 0 7 9 5 (sum 39): 189, so 1.
@pytest.mark.parametrize(
    ("body", "digit"),
    [("958907105270012345678", 1), ("7019228000012345678", 9), ("940011189922319742849", 7)],
)
def test_the_check_digit_is_usps_mod_10(body, digit):
    assert check_digit(body) == digit
    assert article_problem(body + str(digit)) is None
    assert article_problem(body + str((digit + 1) % 10)) is not None


def test_a_number_of_another_length_is_refused():
    assert "has 21 digits" in article_problem("958907105270012345678")
    assert "has 23 digits" in article_problem("95890710527001234567811")


def notice_with(tmp_path, recipient=None, copy=None):
    data = case_data(SECOND)
    if recipient is not None:
        data["recipient"]["certified_article"] = recipient
    if copy is not None:
        data["copies_to"][0]["certified_article"] = copy
    return write_yaml(tmp_path, data)


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("recipient", "9589 0710 5270 0123 4567 82", "check digit"),
        ("copies_to", "9589 0710 5270 0123 4567 8", "has 21 digits"),
        ("recipient", "9589-0710-5270-0123-4567-81", "not a digit"),
    ],
)
def test_a_wrong_article_number_is_an_error_naming_the_field(tmp_path, field, value, words):
    path = notice_with(
        tmp_path, **({"recipient": value} if field == "recipient" else {"copy": value})
    )
    with pytest.raises(CaseInvalid) as err:
        api.check("notice-of-violation", path)
    name = (
        "recipient.certified_article" if field == "recipient" else "copies_to[0].certified_article"
    )
    found = {p.field: p.message for p in err.value.problems}
    assert words in found[name]


def test_the_article_number_prints_above_the_address_grouped_as_on_the_label(tmp_path):
    path = notice_with(tmp_path, recipient="95890710527001234567 81")
    html = api.build("notice-of-violation", path).html
    line = f"CERTIFIED MAIL {grouped('9589071052700123456781')}</p>"
    assert line in html
    assert html.index(line) < html.index("Cayuga Street Holdings LLC")


def test_the_affidavit_checks_the_article_number_it_states(tmp_path):
    """An affidavit's certified article number is checked as the notice's is, and states
    the number grouped as on the label however it was typed."""
    from pathlib import Path

    from docgen.cases.loader import read_case_file

    sample = Path(__file__).parents[1] / "fixtures/affidavit-of-service/homer-certified-mail.yaml"
    data = read_case_file(sample)
    data["service"]["article"] = "9407 1118 9876 5432 1012 34"  # its check digit is 8
    with pytest.raises(CaseInvalid) as err:
        api.check("affidavit-of-service", write_yaml(tmp_path, data))
    found = {p.field: p.message for p in err.value.problems}
    assert "check digit" in found["service.article"]
    data["service"]["article"] = "9407111898765432101238"
    html = api.build("affidavit-of-service", write_yaml(tmp_path, data)).html
    assert "article number 9407 1118 9876 5432 1012 38" in html
