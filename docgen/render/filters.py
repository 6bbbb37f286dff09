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
from docgen.law.deadlines import WEEKDAYS, Closed, Service, long_date
from docgen.render import language

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


# -- Courtesy copies (LAW.md § 13): amounts, counts and dates as each language writes them --


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


def ru_amount_words(amount: Decimal | int | str) -> str:
    """одна тысяча пятьдесят долларов, двадцать пять центов (num2words' Russian currency)."""
    value = Decimal(str(amount)).quantize(Decimal("0.01"))
    said: str = num2words(value, lang="ru", to="currency", currency="USD")
    return said.removesuffix(", ноль центов")


_AMOUNT_WORDS = {"es": es_amount_words, "ru": ru_amount_words}


def said_money(amount: Decimal | int | str) -> str:
    """$1,050.00 as the language being rendered writes the figure."""
    return format_currency(Decimal(str(amount)), "USD", locale=language.locale())


def said_amount_words(amount: Decimal | int | str) -> str:
    words = _AMOUNT_WORDS.get(language.current())
    return words(amount) if words else amount_words(amount)


def said_money_words(amount: Decimal | int | str) -> str:
    """The amount in words, then in figures, in the language being rendered."""
    if language.current() == language.ENGLISH:
        return money_words(amount)
    return f"{said_amount_words(amount)} ({said_money(amount)})"


def said_number_words(number: int) -> str:
    """five; cinco; пять."""
    if language.current() == language.ENGLISH:
        return number_words(number)
    said: str = num2words(int(number), lang=language.current())
    return said


def said_long_date(day: date) -> str:
    """November 3, 2026; 3 de noviembre de 2026: the long date in the language's order."""
    if language.current() == language.ENGLISH:
        return long_date(day)
    return format_date(day, format="long", locale=language.locale())


def said_closed(reason: Any) -> str:
    """Why a day is not a business day (deadlines.Closed) in the language being rendered."""
    if language.current() == language.ENGLISH or not isinstance(reason, Closed):
        return str(reason)
    day = said_long_date(reason.day)
    if reason.sunday_of is not None:
        return language.gettext(
            "%(day)s is a public holiday, because %(holiday)s fell on Sunday"
        ) % {"day": day, "holiday": language.gettext(reason.sunday_of)}
    if reason.name in WEEKDAYS:
        return language.gettext("%(day)s is a %(weekday)s") % {
            "day": day,
            "weekday": language.gettext(reason.name),
        }
    return language.gettext("%(day)s is %(holiday)s") % {
        "day": day,
        "holiday": language.gettext(reason.name),
    }


def said_rule(service: Service) -> str:
    """When service was complete (deadlines.Service), in the language being rendered: the
    pack's words for the means, rendered, with the dates in the language's order."""
    if language.current() == language.ENGLISH:
        return service.rule
    wording = language.law_words(service.wording) or service.wording
    return wording.format(**{key: said_long_date(day) for key, day in service.dates})


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def day_of(day: date) -> str:
    """the 3rd day of November, 2026"""
    return f"the {ordinal(day.day)} day of {day:%B}, {day.year}"


def cite(ref: str) -> str:
    """§ 228-79C(1)(f), with the section sign held to its number; a municipality's practice
    ("<its name> practice") in the language being rendered."""
    text = str(ref).strip()
    if language.current() != language.ENGLISH and text.endswith(" practice"):
        who = language.law_words(text.removesuffix(" practice"))
        return language.gettext("%(who)s practice") % {"who": who}
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
    "money": said_money,
    "money_words": said_money_words,
    "amount_words": said_amount_words,
    "number_words": said_number_words,
    "long_date": said_long_date,
    "said_closed": said_closed,
    "said_rule": said_rule,
    "day_of": day_of,
    "ordinal": ordinal,
    "cite": cite,
    "phone": phone,
    "full_stop": full_stop,
    "plural": plural,
    "quantity": quantity,
    "every": every,
}
