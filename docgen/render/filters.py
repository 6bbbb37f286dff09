"""Jinja filters for the conventions of legal documents in New York."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

from babel.dates import format_date
from babel.numbers import format_currency
from jinja2 import pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape
from num2words import num2words

from docgen.cases.mail import grouped
from docgen.law.deadlines import long_date

NBSP = "\u00a0"

_LONG_WORD = re.compile(r"\S{61,}")
_UNIT = re.compile(r"&#?\w+;|.", re.S)  # an entity (&amp;) is one character, never split


def breakable(text: str) -> str:
    """A word of more than 60 characters (a long URL) with a zero-width space after every
    30: an invisible place to break the line, so it wraps inside the page and
    its table column in every format instead of running off it. Shorter words are as typed.
    Works on text and on escaped HTML text alike."""
    if len(text) <= 60 or not _LONG_WORD.search(text):
        return text

    def split(match: re.Match[str]) -> str:
        units = _UNIT.findall(match.group())
        if len(units) <= 60:  # long only for its entities (&quot;): as it is
            return match.group()
        return "\u200b".join("".join(units[i : i + 30]) for i in range(0, len(units), 30))

    return _LONG_WORD.sub(split, text)


def money(amount: Decimal | int | str) -> str:
    """$1,050.00"""
    return format_currency(Decimal(str(amount)), "USD", locale="en_US")


def _words(number: int) -> str:
    # US legal style: "one thousand fifty", not "one thousand and fifty".
    said: str = num2words(number, lang="en")
    return said.replace(" and ", " ").replace(",", "")


def amount_words(amount: Decimal | int | str) -> str:
    """one thousand fifty dollars and twenty-five cents"""
    value = Decimal(str(amount)).quantize(Decimal("0.01"))
    dollars, cents = divmod(int(value * 100), 100)
    text = f"{_words(dollars)} dollar{'s' if dollars != 1 else ''}"
    if cents:
        text += f" and {_words(cents)} cent{'s' if cents != 1 else ''}"
    return text


def money_words(amount: Decimal | int | str) -> str:
    """one thousand fifty dollars ($1,050.00)"""
    return f"{amount_words(amount)} ({money(amount)})"


def number_words(number: int) -> str:
    """five"""
    return _words(int(number))


# -- Spanish courtesy copies (LAW.md § 13): amounts and dates as Spanish writes them ------


def _es_count(number: int, singular: str, plural_form: str) -> str:
    """A count before its noun in Spanish: "un dólar", "veintiún dólares", "un millón de
    dólares" (num2words writes the number alone: "uno", "veintiuno", "un millón")."""
    words = num2words(number, lang="es")
    if words == "uno" or words.endswith(" uno"):
        words = words[:-3] + "un"
    elif words.endswith("veintiuno"):
        words = words[:-9] + "veintiún"
    if words.endswith(("millón", "millones")):
        words += " de"
    return f"{words} {singular if number == 1 else plural_form}"


def es_amount_words(amount: Decimal | int | str) -> str:
    """mil cincuenta dólares con veinticinco centavos: exact from the Decimal."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"))
    dollars, cents = divmod(int(value * 100), 100)
    text = _es_count(dollars, "dólar", "dólares")
    if cents:
        text += f" con {_es_count(cents, 'centavo', 'centavos')}"
    return text


def es_money_words(amount: Decimal | int | str) -> str:
    """mil cincuenta dólares ($1,050.00): the words, then the figure as es_US writes it."""
    figure = format_currency(Decimal(str(amount)), "USD", locale="es_US")
    return f"{es_amount_words(amount)} ({figure})"


def es_long_date(day: date) -> str:
    """3 de noviembre de 2026: the long date in Spanish order (Babel, es_US)."""
    return format_date(day, format="long", locale="es_US")


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def day_of(day: date) -> str:
    """the 3rd day of November, 2026"""
    return f"the {ordinal(day.day)} day of {day:%B}, {day.year}"


def cite(ref: str) -> str:
    """§ 228-79C(1)(f), with the section sign held to its number."""
    text = str(ref).strip()
    for sign in ("§§", "§"):
        if text.startswith(sign + " "):
            return sign + NBSP + text[len(sign) + 1 :]
    return text


def full_stop(text: Any) -> Any:
    """``text`` ending its sentence: a period added, unless it already ends in one ("Inc.",
    "L.L.C.", "J.", "No. 2."), so a name ending in a period never gets a second. Markup
    (a value marked for review, a block the template set) stays markup; what it reads as
    text decides."""
    if isinstance(text, Markup):
        marked = text.rstrip()
        said = marked.striptags()
        return marked if said.endswith((".", "?", "!")) else marked + Markup(".")
    value = str(text).rstrip()
    return value if value.endswith((".", "?", "!")) else value + "."


def phone(digits: str) -> str:
    """(607) 555-0142 from the ten digits the case model keeps."""
    return f"({digits[:3]}) {digits[3:6]}-{digits[6:]}"


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """year for 1, years otherwise: a printed count and its noun always agree."""
    return singular if int(count) == 1 else (plural_form or singular + "s")


@pass_context
def quantity(context: Context, count: int, unit: str, given: bool = False) -> Markup:
    """five (5) years; one (1) day. ``given``: the count came from the case (review marks)."""
    n = int(count)
    words, digits = from_case(context, number_words(n), given), from_case(context, n, given)
    return Markup("{} ({}) {}").format(words, digits, plural(n, unit))


@pass_context
def every(context: Context, count: int, unit: str, given: bool = False) -> Markup:
    """every year (never "every one (1) years"); every five (5) years."""
    if int(count) == 1:
        return Markup("every {}").format(from_case(context, unit, given))
    return Markup("every {}").format(quantity(context, count, unit, given))


@pass_context
def from_case(context: Context, value: Any, given: bool = True) -> Markup:
    """A value that came from the case, escaped; in review mode wrapped in <mark class="case">.

    ``given=False`` marks nothing (a default the case did not supply). Escaping happens
    here, once: ``escape`` leaves Markup alone and escapes plain text.
    """
    text = escape(value if isinstance(value, str | Markup) else str(value))
    if given and context.get("review"):
        return Markup('<mark class="case">{}</mark>').format(text)
    return text


FILTERS = {
    "article_number": grouped,
    "from_case": from_case,
    "money": money,
    "money_words": money_words,
    "amount_words": amount_words,
    "number_words": number_words,
    "long_date": long_date,
    "day_of": day_of,
    "ordinal": ordinal,
    "cite": cite,
    "phone": phone,
    "full_stop": full_stop,
    "plural": plural,
    "quantity": quantity,
    "every": every,
    "es_money_words": es_money_words,
    "es_long_date": es_long_date,
}
