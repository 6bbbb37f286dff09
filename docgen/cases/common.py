"""Building blocks shared by every kind's case model.

Strict by default: unknown keys are errors (``extra="forbid"``), models are frozen,
dates are ISO text (``2026-11-03``) from 1900 to 2099, text may not carry control
characters, noncharacters or lone surrogates, text of only invisible characters is
missing, a yes/no value is never read as a number or text, amounts of money are written
one of four ways, and every field can name the provision that needs it
(``provision=...`` in its metadata; ``@dotted.key`` means "the ref of that pack value").
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from datetime import date
from decimal import Decimal
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    field_validator,
)

from docgen.cases.mail import ARTICLE_HELP, CertifiedArticle
from docgen.law.packs import pack_names
from docgen.text import prints_nothing

MIN_YEAR, MAX_YEAR = 1900, 2099

YES_NO = (
    "is a yes/no value (YAML reads an unquoted yes, no, on, off, true or false that way); "
    'quote it if it is text, e.g. "NO"'
)


class Model(BaseModel):
    # defer_build: a case model's validator is built when a case of its kind is first read,
    # not when docgen.documents loads every kind (about 0.13 s of the processor in each
    # command, desk and worker that starts; most read one or two kinds).
    model_config = ConfigDict(
        extra="forbid", frozen=True, str_strip_whitespace=True, defer_build=True
    )

    @field_validator("*", mode="before")
    @classmethod
    def _no_yes_no(cls, value: Any) -> Any:
        # No case field is a yes/no: pydantic would read True as 1, and `state: NO` as False.
        if isinstance(value, bool):
            raise ValueError(YES_NO)
        return value


def cited(provision: str, description: str = "", signers_own: bool = False, **kwargs: Any) -> Any:
    """A pydantic Field that records the provision needing it (shown in errors and schema);
    ``signers_own``: filled in by the signer alone, through its own link, never on the
    clerk's form (docgen.desk.base.forms)."""
    extra: dict[str, Any] = {"provision": provision}
    if signers_own:
        extra["signers_own"] = True
    return Field(description=description or None, json_schema_extra=extra, **kwargs)


_ALLOWED_CONTROLS = {"\n", "\t"}


def as_written(value: Any) -> Any:
    """An identifier or text as the case file wrote it: a whole number is its digits (the
    loader keeps 06470, 0x1F and every decimal fraction as text); any other number is
    refused, since its digits as written are gone."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float | Decimal):
        raise ValueError(f"{value!r} was read as a number; quote it to keep it as written")
    return value


def _is_noncharacter(code: int) -> bool:
    return 0xFDD0 <= code <= 0xFDEF or code & 0xFFFE == 0xFFFE


def _no_controls(value: Any) -> Any:
    # Runs before pydantic strips white space, which would otherwise silently drop a
    # leading or trailing \r, \v, \f or U+0085 instead of refusing it like the others.
    value = as_written(value)
    if not isinstance(value, str) or value.isprintable():  # no Cc, Cs or noncharacter (Cn)
        return value
    for ch in value:
        if ch in _ALLOWED_CONTROLS:
            continue
        cat = unicodedata.category(ch)
        if cat == "Cc":
            raise ValueError(
                f"contains the control character U+{ord(ch):04X}; remove it "
                "(case data is printed as text)"
            )
        if cat == "Cs":
            raise ValueError(
                f"contains U+{ord(ch):04X}, half of a surrogate pair without its other half "
                "(broken UTF-16); retype the text"
            )
        if _is_noncharacter(ord(ch)):
            raise ValueError(
                f"contains U+{ord(ch):04X}, a Unicode noncharacter that no document may "
                "carry; remove it"
            )
    return value


def _clean_text(value: str) -> str:
    _no_controls(value)
    if all(prints_nothing(ch) for ch in value):
        raise ValueError(
            "is missing: it is empty or only invisible characters" if value else "is empty"
        )
    return value


Text = Annotated[
    str, BeforeValidator(_no_controls), AfterValidator(_clean_text), Field(max_length=100_000)
]
Line = Annotated[
    str, BeforeValidator(_no_controls), AfterValidator(_clean_text), Field(max_length=500)
]


def _impossible(text: str) -> str:
    """Why a YYYY-MM-DD that is no day is not a date, said as a person would read it:
    "30 February 2026 is not a real calendar date (February 2026 has 28 days)"."""
    year, month, day = (int(part) for part in text.split("-"))
    if not 1 <= month <= 12:
        return f"{text!r} is not a real calendar date (there is no month {month})"
    name = calendar.month_name[month]
    days = calendar.monthrange(max(year, 1), month)[1]
    return f"{day} {name} {year} is not a real calendar date ({name} {year} has {days} days)"


def _iso_date(value: Any) -> Any:
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value.strip()):
        raise ValueError(f"{value!r} is not a date; write it as YYYY-MM-DD, e.g. 2026-11-03")
    try:
        parsed = date.fromisoformat(value.strip())
    except ValueError:
        raise ValueError(_impossible(value.strip())) from None
    if not MIN_YEAR <= parsed.year <= MAX_YEAR:
        raise ValueError(f"year {parsed.year} is outside {MIN_YEAR}-{MAX_YEAR}")
    return parsed


IsoDate = Annotated[date, BeforeValidator(_iso_date)]


def read_date(text: str) -> date:
    """A date typed as YYYY-MM-DD, as a case reads it; ValueError says why other text is not
    one ("30 February 2026 is not a real calendar date ...")."""
    day: date = _iso_date(text)
    return day


def _zip(value: Any) -> Any:
    # A number in a case file may have lost its leading zero: the way out is to quote it
    # (typed text, as on the desk's form, has nothing to quote).
    number = isinstance(value, int) and not isinstance(value, bool)
    value = as_written(value)  # never padded or converted: 06470 stays 06470
    if not isinstance(value, str) or not re.fullmatch(r"\d{5}(-\d{4})?", value.strip()):
        quote = '; quote it, e.g. zip: "06470"' if number else ""
        raise ValueError(f"{value!r} is not a ZIP code (12345 or 12345-6789){quote}")
    return value.strip()


Zip = Annotated[str, BeforeValidator(_zip)]


# The four ways an amount is written: 48500, 48500.00, "48,500.00", "$48,500.00". Anything
# else ("25.000,00", "12,50", 1e28) is refused, never guessed at.
_AMOUNT = re.compile(r"\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?")
MAX_AMOUNT = Decimal("1000000000.00")  # a billion dollars: beyond any bond, fee or penalty


def _money(value: Any) -> Any:
    text = str(value).strip() if isinstance(value, int | float | Decimal | str) else None
    if text is None:
        raise ValueError("is not an amount of money")
    if text.startswith("-") and _AMOUNT.fullmatch(text[1:]):
        raise ValueError(f"{text} is negative; an amount of money here is zero or more")
    if re.fullmatch(r"\$?[\d,]*\.\d{3,}", text):
        raise ValueError(f"{text} has more than two decimals (fractions of a cent)")
    if not _AMOUNT.fullmatch(text):
        raise ValueError(
            f"{text!r} is not an amount of money; write it as 48500, 48500.00, "
            '"48,500.00" or "$48,500.00"'
        )
    amount = Decimal(text.replace(",", "").replace("$", ""))
    if amount > MAX_AMOUNT:
        raise ValueError(f"{text} is implausibly large (over $1,000,000,000)")
    return amount.quantize(Decimal("0.01"))


Money = Annotated[Decimal, BeforeValidator(_money)]


def _jurisdiction(value: Any) -> Any:
    return known_jurisdiction(value, pack_names())


def known_jurisdiction(value: Any, names: list[str]) -> str:
    """``value`` as a pack's id, one of ``names`` (the packs listed, once for a file of
    many rows), or ValueError naming them."""
    if not isinstance(value, str) or value.strip().lower() not in names:
        raise ValueError(f"{value!r} is not a known jurisdiction ({', '.join(names)})")
    return value.strip().lower()


Jurisdiction = Annotated[str, BeforeValidator(_jurisdiction)]

State = Annotated[str, Field(pattern=r"^[A-Z]{2}$", description="two-letter state code, e.g. NY")]


class Address(Model):
    street: Line
    city: Line
    state: State
    zip: Zip = Field(title="ZIP code")

    def lines(self) -> list[str]:
        return [self.street, f"{self.city}, {self.state} {self.zip}"]

    def one_line(self) -> str:
        return f"{self.street}, {self.city}, {self.state} {self.zip}"


class NameAndTitle(Model):
    """A person as a document names them: the issuing officer, a firm's signer."""

    name: Line
    title: Line


def preferred_language() -> Any:
    """A person's preferred language (LAW.md § 13), checked against the municipality's
    languages (docgen.documents.pipeline.language_problems)."""
    return cited(
        "LAW.md § 13",
        "the language the person prefers, as its code (es: Spanish): a courtesy copy in it "
        "is offered when a document is issued to them; the English document is unchanged",
        default=None,
        title="preferred language",
    )


def entity() -> Any:
    """Whether a party is a natural person or a firm: the penalty names imprisonment for a
    natural person only, a firm being fined (never left to a guess from the name)."""
    return cited(
        "@enforcement.elements.penalty",
        "person (a natural person) or firm (a corporation, LLC, partnership or other "
        "organization): a firm is punishable by fine, never by imprisonment; left out, the "
        "notice names imprisonment for a natural person only",
        default=None,
        title="person or firm",
    )


class Person(Model):
    """A person a document names, who may prefer a language (its ``language`` field)."""

    language: str | None


class Party(Person):
    """A landowner, developer or applicant: the persons § 228-79C(1)(a) names."""

    name: Line = cited("@enforcement.elements.addressee")
    role: Literal["landowner", "developer", "applicant"] = cited("@enforcement.elements.addressee")
    address: Address = cited("@enforcement.elements.addressee")
    certified_article: CertifiedArticle | None = Field(
        default=None, title="certified-mail article number", description=ARTICLE_HELP
    )
    language: Line | None = preferred_language()
    entity: Literal["person", "firm"] | None = entity()


class Site(Model):
    """Where the activity is: an address, a description, or both. The field holding it
    names the provision; the kind's check refuses a site with neither (:meth:`given`),
    in the words of the element it serves."""

    address: Address | None = None
    description: Text | None = None
    tax_map: Line | None = Field(
        default=None, title="tax map number", description="tax map Section-Block-Lot"
    )

    def given(self) -> bool:
        return self.address is not None or self.description is not None

    def label(self) -> str:
        return self.address.one_line() if self.address else (self.description or "")
