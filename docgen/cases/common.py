"""Building blocks shared by every kind's case model.

Strict by default: unknown keys are errors (``extra="forbid"``), models are frozen,
dates are ISO text (``2026-11-03``) within a plausible range, text may not carry control
characters, and every field can name the provision that needs it
(``provision=...`` in its metadata; ``@dotted.key`` means "the ref of that pack value").
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from docgen.law.pack import pack_names

MIN_YEAR, MAX_YEAR = 1900, 2199


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


def cited(provision: str, description: str = "", **kwargs: Any) -> Any:
    """A pydantic Field that records the provision needing it (shown in errors and schema)."""
    extra = {"provision": provision}
    return Field(description=description or None, json_schema_extra=extra, **kwargs)


_ALLOWED_CONTROLS = {"\n", "\t"}


def _no_controls(value: Any) -> Any:
    # Runs before pydantic strips white space, which would otherwise silently drop a
    # leading or trailing \r, \v, \f or U+0085 instead of refusing it like the others.
    if not isinstance(value, str):
        return value
    for ch in value:
        if ch in _ALLOWED_CONTROLS:
            continue
        cat = unicodedata.category(ch)
        if cat == "Cc" or cat == "Cs":
            raise ValueError(
                f"contains the control character U+{ord(ch):04X}; remove it "
                "(case data is printed as text)"
            )
    return value


def _clean_text(value: str) -> str:
    _no_controls(value)
    if not value.strip():
        raise ValueError("is empty")
    return value


Text = Annotated[
    str, BeforeValidator(_no_controls), AfterValidator(_clean_text), Field(max_length=100_000)
]
Line = Annotated[
    str, BeforeValidator(_no_controls), AfterValidator(_clean_text), Field(max_length=500)
]


def _iso_date(value: Any) -> Any:
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        raise ValueError(f"{value!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-11-03")
    try:
        parsed = date.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(f"{value!r} is not a real calendar date") from None
    if not MIN_YEAR <= parsed.year <= MAX_YEAR:
        raise ValueError(f"year {parsed.year} is outside {MIN_YEAR}-{MAX_YEAR}")
    return parsed


IsoDate = Annotated[date, BeforeValidator(_iso_date)]


def _zip(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        value = f"{value:05d}"
    if not isinstance(value, str) or not re.fullmatch(r"\d{5}(-\d{4})?", value.strip()):
        raise ValueError(f"{value!r} is not a ZIP code (12345 or 12345-6789)")
    return value.strip()


Zip = Annotated[str, BeforeValidator(_zip)]


def _phone(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError("a telephone number is text, e.g. (607) 555-0142")
    if re.search(r"[^\d \t().+\-/]", value):  # \s would let \r, \v, \x85... through
        raise ValueError(f"{value!r} is not a telephone number (digits and ( ) - . + only)")
    digits = re.sub(r"\D", "", value)
    if len(digits) == 11 and digits.startswith("1"):
        digits = digits[1:]
    if len(digits) != 10 or digits[0] in "01" or digits[3] in "01":
        raise ValueError(f"{value!r} is not a ten-digit US telephone number")
    return digits


Phone = Annotated[str, BeforeValidator(_phone)]


def _money(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("is not an amount of money")
    try:
        amount = Decimal(str(value).replace(",", "").replace("$", "").strip())
    except InvalidOperation:
        raise ValueError(f"{value!r} is not an amount of money (e.g. 25000.00)") from None
    if not amount.is_finite():
        raise ValueError(f"{value!r} is not an amount of money")
    if amount < 0:
        raise ValueError(f"{value} is negative; an amount of money here is zero or more")
    if amount != amount.quantize(Decimal("0.01")):
        raise ValueError(f"{value} has fractions of a cent")
    if amount >= Decimal("1e12"):
        raise ValueError(f"{value} is implausibly large")
    return amount.quantize(Decimal("0.01"))


Money = Annotated[Decimal, BeforeValidator(_money)]


def _jurisdiction(value: Any) -> Any:
    if not isinstance(value, str) or value.strip().lower() not in pack_names():
        raise ValueError(f"{value!r} is not a known jurisdiction ({', '.join(pack_names())})")
    return value.strip().lower()


Jurisdiction = Annotated[str, BeforeValidator(_jurisdiction)]

State = Annotated[str, Field(pattern=r"^[A-Z]{2}$", description="two-letter state code, e.g. NY")]


class Address(Model):
    street: Line
    city: Line
    state: State
    zip: Zip

    def lines(self) -> list[str]:
        return [self.street, f"{self.city}, {self.state} {self.zip}"]

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


class Officer(Model):
    name: Line
    title: Line


class Signer(Model):
    name: Line
    title: Line


class Party(Model):
    """A landowner, developer or applicant: the persons § 228-79C(1)(a) names."""

    name: Line = cited("§ 228-79C(1)(a)")
    role: Literal["landowner", "developer", "applicant"] = cited("§ 228-79C(1)(a)")
    address: Address = cited("§ 228-79C(1)(a)")


class Site(Model):
    """Where the activity is: an address, a description, or both (§ 228-79C(1)(b))."""

    address: Address | None = None
    description: Text | None = None
    tax_map: Line | None = Field(default=None, description="tax map Section-Block-Lot")

    @model_validator(mode="after")
    def _address_or_description(self) -> Site:
        if self.address is None and self.description is None:
            raise ValueError("needs an address or a description of the land (or both)")
        return self

    def label(self) -> str:
        return self.address.one_line() if self.address else (self.description or "")
