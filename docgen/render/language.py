"""The language a document is rendered in, and its words from the translation catalogs.

One template per document is the only home of its structure and its English words; each
sentence of it is a message (Jinja's i18n extension: ``{% trans %}`` and ``_()``), and a
courtesy rendition (LAW.md § 13) takes every message from the language's gettext catalog,
``docgen/locale/<language>/LC_MESSAGES/docgen.po``, kept by translators and read with
Babel. A catalog is read once per process, its fuzzy and empty entries left out.

A message a catalog lacks is an error naming the message and the catalog, never an English
sentence slipped into a Spanish copy: a courtesy copy is whole or not made. The law's own
words are quoted in English beside their rendering (``law_words``), since the English
words are the law.

The language is the render's, held in a context variable (``speaking``) so that macros
imported without the template's context, and the date and money filters, read it too.
"""

from __future__ import annotations

import gettext as _gettext
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from markupsafe import Markup

from docgen.errors import OptionUnsupported

ENGLISH = "en"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "docgen"

# A rendition's language: code -> (its name in English, BCP 47 tag, Babel locale).
LANGUAGES: dict[str, tuple[str, str, str]] = {
    "es": ("Spanish", "es-US", "es_US"),
    "ru": ("Russian", "ru", "ru_RU"),
}

_current: ContextVar[str] = ContextVar("docgen_language", default=ENGLISH)
# While the catalogs are made (scripts/catalogs.py): the messages a render asked for that
# the catalog lacks, gathered instead of refused, the English printed meanwhile.
_gathered: ContextVar[set[str] | None] = ContextVar("docgen_gathered", default=None)


class MissingTranslation(OptionUnsupported):
    """A message of a template, or words of the law, that a catalog has no rendering of:
    the courtesy copy asked for cannot be made (a usage error, as a language a kind has no
    rendition in)."""


@contextmanager
def gathering() -> Iterator[set[str]]:
    """Inside the block, a message a catalog lacks is added to the set yielded (and the
    English said) instead of refused; the law's words are asked of the catalog even where
    a pack gives its own rendering, so that every language's catalog can hold them."""
    found: set[str] = set()
    token = _gathered.set(found)
    try:
        yield found
    finally:
        _gathered.reset(token)


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Render in ``language`` (None or "en": the English original) inside the block."""
    token = _current.set(language or ENGLISH)
    try:
        yield
    finally:
        _current.reset(token)


def current() -> str:
    """The language being rendered: "en" for the original."""
    return _current.get()


def locale() -> str:
    """The Babel locale of the language being rendered ("en_US" for the original)."""
    language = current()
    return "en_US" if language == ENGLISH else LANGUAGES[language][2]


def catalog_path(language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po"


@dataclass(frozen=True)
class Catalog:
    """A language's translated messages: msgid -> its rendering (a tuple of plural forms
    for a plural message), and the rule choosing a plural form for a count."""

    language: str
    messages: dict[str, str | tuple[str, ...]]
    plural: Callable[[int], int]

    def get(self, message: str) -> str | tuple[str, ...] | None:
        return self.messages.get(message)


@cache
def catalog(language: str) -> Catalog:
    """``language``'s catalog, read once: translated, non-fuzzy entries only."""
    # babel loads its locale data (+60 ms): read on a courtesy copy's first render only
    from babel.messages.pofile import read_po

    path = catalog_path(language)
    if not path.is_file():
        raise MissingTranslation(f"no translation catalog for {language!r} ({path.name})")
    with path.open("rb") as handle:
        po = read_po(handle, locale=LANGUAGES[language][2], domain=DOMAIN)
    messages: dict[str, str | tuple[str, ...]] = {}
    for entry in po:
        if not entry.id or entry.fuzzy:
            continue
        key = entry.id[0] if isinstance(entry.id, tuple | list) else entry.id
        if isinstance(entry.string, tuple | list):
            if all(entry.string):
                messages[key] = tuple(entry.string)
        elif entry.string:
            messages[key] = entry.string
    return Catalog(language, messages, _gettext.c2py(po.plural_expr))


def _missing(language: str, message: str) -> MissingTranslation:
    name = LANGUAGES[language][0]
    shown = message if len(message) <= 80 else message[:77] + "..."
    return MissingTranslation(
        f"The {name} courtesy copy has no {name} wording for {shown!r}: add it to the "
        f"{name} translation catalog ({catalog_path(language).relative_to(LOCALE_DIR.parent)})"
    )


def gettext(message: str) -> str:
    """``message`` in the language being rendered."""
    language = current()
    if language == ENGLISH:
        return message
    found = catalog(language).get(message)
    if not isinstance(found, str):
        return _gather(language, message)
    return found


def _gather(language: str, message: str, ref: str | None = None) -> str:
    """``message`` gathered for the catalogs (``gathering``), or refused as missing."""
    gathered = _gathered.get()
    if gathered is None:
        raise _missing(language, message) if ref is None else _missing_law(language, message, ref)
    gathered.add(message)
    return message


def _missing_law(language: str, english: str, ref: str) -> MissingTranslation:
    """The law's words (or the pack's own) with no rendering: the pack gives it beside the
    value, or the catalog holds it."""
    name = LANGUAGES[language][0]
    shown = english if len(english) <= 60 else f"{english[:57]}..."
    return MissingTranslation(
        f"--language {language}: the pack gives no {name} rendering ({language}) of {ref}, "
        f"{shown!r}; the {name} courtesy copy quotes these words in English with their "
        f"rendering beside them: give {language} beside the value in the pack, "
        f"or add the words to the {name} translation catalog "
        f"({catalog_path(language).relative_to(LOCALE_DIR.parent)})"
    )


def ngettext(singular: str, plural: str, count: int) -> str:
    """The form of a counted message for ``count`` in the language being rendered."""
    language = current()
    if language == ENGLISH:
        return singular if int(count) == 1 else plural
    book = catalog(language)
    found = book.get(singular)
    if not isinstance(found, tuple):
        _gather(language, singular)
        return singular if int(count) == 1 else plural
    return found[min(book.plural(int(count)), len(found) - 1)]


def law_words(value: Any) -> str | None:
    """The rendering of the law's words (``value``: a pack value, or its English words) in
    the language being rendered: the pack's own rendering beside the value (its ``es``)
    first, then the catalog's; None for the English original, which prints them as they
    are."""
    language = current()
    if language == ENGLISH:
        return None
    english = value if isinstance(value, str) else value.value
    own = None if isinstance(value, str) else getattr(value, language, None)
    if own is not None and _gathered.get() is None:
        return str(own)
    found = catalog(language).get(english)
    if not isinstance(found, str):
        return _gather(language, english, None if isinstance(value, str) else str(value.ref))
    return found


def english() -> Markup:
    """The attribute that marks words kept in English (a name, a title, what a person
    typed) in a courtesy copy, for screen readers and the PDF's /Lang; nothing in the
    English original, which is English throughout."""
    return Markup("") if current() == ENGLISH else Markup(' lang="en"')
