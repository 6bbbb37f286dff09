"""The language-access block (LAW.md § 13): the lines every document delivered to a person
carries, one per language the municipality chooses, each in its own language and script.

The wording is reviewed text in docgen/law/language/taglines.yaml (a folder of its own:
every *.yaml beside the packs is read as a pack), never here; this module reads it, orders
it as the settings choose (``language_access.taglines``; by default the twelve languages
of Executive Law § 202-a) and proves that an installed font covers each chosen
language's script, so that no line prints as empty boxes.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import yaml

from docgen import fonts
from docgen.errors import DocgenError

SETTING = "language_access.taglines"


class TaglineFontMissing(DocgenError):
    """A chosen tagline language whose script no installed font covers."""


@dataclass(frozen=True)
class Tagline:
    """One language's line, split around the office's telephone number."""

    code: str  # the settings' code (es, zh...)
    name: str  # the language's English name, for messages
    tag: str  # BCP 47: lang in HTML, /Lang in the PDF, w:lang in Word
    direction: str  # ltr or rtl
    script: str  # latin, east-asian or complex: which of Word's font slots it uses
    word_font: str  # the font Word shows it in
    fontconfig: str  # the fontconfig language an installed font must cover
    before: str  # the text before the telephone number
    after: str  # the text after it


@cache
def _catalog() -> dict[str, Any]:
    source = resources.files("docgen.law").joinpath("language", "taglines.yaml")
    catalog: dict[str, Any] = yaml.safe_load(source.read_text(encoding="utf-8"))
    return catalog


@cache
def catalog() -> dict[str, Tagline]:
    """Every language with reviewed tagline wording, by its code."""
    lines = {}
    for code, entry in _catalog()["languages"].items():
        before, _, after = entry["text"].partition("{phone}")
        lines[code] = Tagline(
            code=code,
            name=entry["name"],
            tag=entry["tag"],
            direction=entry.get("direction", "ltr"),
            script=entry.get("script", "latin"),
            word_font=entry["word_font"],
            fontconfig=entry["fontconfig"],
            before=before,
            after=after,
        )
    return lines


def language_name(code: str) -> str:
    """A language's English name, for a clerk: "Spanish" for es, "English" for en."""
    if code == "en":
        return "English"
    found = catalog().get(code)
    return found.name if found is not None else code


def default_languages() -> tuple[str, ...]:
    """The twelve languages of Executive Law § 202-a, as taglines.yaml lists them."""
    return tuple(_catalog()["default"]["value"])


def unknown(codes: tuple[str, ...] | list[str]) -> list[str]:
    """The codes among ``codes`` that have no reviewed tagline wording."""
    return [code for code in codes if code not in catalog()]


def taglines(codes: tuple[str, ...]) -> tuple[Tagline, ...]:
    """The lines for ``codes`` in that order; an error naming the setting when a language
    has no wording or no installed font covers its script."""
    missing = unknown(codes)
    if missing:
        raise DocgenError(
            f"{SETTING}: no reviewed tagline wording for {', '.join(missing)}; "
            f"languages: {', '.join(catalog())}"
        )
    lines = tuple(catalog()[code] for code in codes)
    unfonted = [line for line in lines if not fonts.covers(line.fontconfig)]
    if unfonted:
        names = ", ".join(f"{line.code} ({line.name})" for line in unfonted)
        raise TaglineFontMissing(
            f"{SETTING}: no installed font covers {names}; install the fonts "
            "(scripts/setup.sh installs fonts-noto-core) or leave the language out of "
            "the setting"
        )
    return lines
