"""Certified mail article numbers, as the Postal Service defines them (LAW.md § 9).

A certified mail article number is an Intelligent Mail package barcode's tracking
number: 20 or 22 digits (typed with or without spaces), the last a check digit computed
by the USPS "Mod 10" method (USPS Publication 199, the IMpb check digit):

    starting from the rightmost digit before the check digit, add the digits in the
    odd positions and multiply the sum by 3; add the digits in the even positions; the
    check digit is what brings the total up to the next multiple of 10.

A wrong length or a wrong check digit is refused when the case is read, naming the
field, so a clerk's typo is caught at the desk, not at the post office.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator

ARTICLE_LENGTHS = (20, 22)


def check_digit(body: str) -> int:
    """The USPS Mod 10 check digit of ``body`` (the article number without its last digit)."""
    odd = sum(int(d) for d in body[::-1][0::2])  # rightmost first: positions 1, 3, 5...
    even = sum(int(d) for d in body[::-1][1::2])
    return (10 - (odd * 3 + even) % 10) % 10


def with_check_digit(body: str) -> str:
    """``body`` with its check digit appended (for samples and tests)."""
    return body + str(check_digit(body))


def article_problem(digits: str) -> str | None:
    """Why ``digits`` (spaces removed) is not a certified mail article number, or None."""
    if not digits.isdigit() or not digits.isascii():
        return "has a character that is not a digit; an article number is digits only"
    if len(digits) not in ARTICLE_LENGTHS:
        return f"has {len(digits)} digits; a USPS article number has 20 or 22"
    expected = check_digit(digits[:-1])
    if int(digits[-1]) != expected:
        return (
            f"ends in check digit {digits[-1]}, but the USPS Mod 10 check digit of the "
            f"digits before it is {expected}; compare it with the label"
        )
    return None


def _article(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)  # unquoted in YAML: its digits
    if not isinstance(value, str):
        return value
    digits = value.strip(" ").replace(" ", "")  # spaces as on the label; nothing else
    problem = article_problem(digits)
    if problem:
        raise ValueError(f"{value!r} {problem} (USPS Publication 199, IMpb check digit)")
    return digits


# Kept as its digits only; printed in groups of four (docgen.render.filters.article_number).
CertifiedArticle = Annotated[str, BeforeValidator(_article)]
ARTICLE_HELP = (
    "USPS certified mail article number of this person's copy (20 or 22 digits, spaces "
    "allowed; the last is the check digit), printed above the address"
)


def grouped(digits: str) -> str:
    """9589 0710 5270 0123 4567 85: as printed on the Postal Service's label."""
    return " ".join(digits[i : i + 4] for i in range(0, len(digits), 4))
