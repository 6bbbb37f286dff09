"""Filters for the conventions of legal documents."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from docgen.render.filters import cite, day_of, long_date, money, money_words, phone


@pytest.mark.parametrize(
    ("amount", "words"),
    [
        (Decimal("700"), "seven hundred dollars ($700.00)"),
        (Decimal("1050"), "one thousand fifty dollars ($1,050.00)"),
        (Decimal("1"), "one dollar ($1.00)"),
        (Decimal("0"), "zero dollars ($0.00)"),
        (
            Decimal("1234567.25"),
            "one million two hundred thirty-four thousand five hundred sixty-seven dollars"
            " and twenty-five cents ($1,234,567.25)",
        ),
        (Decimal("3500.01"), "three thousand five hundred dollars and one cent ($3,500.01)"),
    ],
)
def test_money_words(amount, words):
    assert money_words(amount) == words


def test_dates_phone_cite():
    assert money(Decimal("1000")) == "$1,000.00"
    assert long_date(date(2026, 11, 3)) == "November 3, 2026"
    assert day_of(date(2026, 11, 3)) == "the 3rd day of November, 2026"
    assert day_of(date(2026, 11, 11)) == "the 11th day of November, 2026"
    assert day_of(date(2026, 11, 22)) == "the 22nd day of November, 2026"
    assert phone("6075550142") == "(607) 555-0142"
    assert cite("§ 228-79C(1)(f)") == "§\u00a0228-79C(1)(f)"
