"""A served document's copies, kept with it (LAW.md § 9: each person served gets a copy
addressed to them): one number, the original's files, then each copy's files as further
document files with their own SHA-256, so `verify` names whose copy a file is. A copy's
files are stored as ``copyN.<format>``, N counting the case's copies_to from 1."""

from __future__ import annotations

import re
from typing import Any

from docgen.errors import DocgenError

_COPY = re.compile(r"copy([1-9])\.(\w+)")
# A courtesy rendition in another language (LAW.md § 13), stored as ``<code>.<format>``
# (es.pdf): the same number, its own SHA-256; the English document controls.
_RENDITION = re.compile(r"([a-z]{2})\.(\w+)")
MOST = 9  # document_files.format holds ten characters: copy9.docx


def copy_format(index: int, fmt: str) -> str:
    """The stored format of the copy for copies_to[index] in ``fmt``."""
    return f"copy{index + 1}.{fmt}"


def copy_of(stored: str) -> tuple[int, str] | None:
    """(copies_to index, format) of a stored copy's format; None for the original's files."""
    found = _COPY.fullmatch(stored)
    return (int(found[1]) - 1, found[2]) if found else None


def rendition_format(language: str, fmt: str) -> str:
    """The stored format of the courtesy rendition in ``language`` in ``fmt``."""
    return f"{language}.{fmt}"


def rendition_of(stored: str) -> tuple[str, str] | None:
    """(language, format) of a stored courtesy rendition; None for any other file."""
    found = _RENDITION.fullmatch(stored)
    return (found[1], found[2]) if found else None


def rendition_name(stored: str) -> str | None:
    """ "Spanish" for a stored Spanish rendition (es.pdf); None for any other file."""
    # documents.kind loads pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents.kind import LANGUAGES

    found = rendition_of(stored)
    return LANGUAGES[found[0]][0] if found and found[0] in LANGUAGES else None


def rendition_languages() -> tuple[str, ...]:
    """The languages some kind has a courtesy rendition in (LAW.md § 13), as the kinds
    declare them (their ``renditions``), in the order of LANGUAGES."""
    # documents and others load pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents import KINDS
    from docgen.documents.kind import LANGUAGES

    found = {code for kind in KINDS.values() for code in kind.renditions}
    return tuple(code for code in LANGUAGES if code in found)


def refuse_language(kind: str, language: str) -> None:
    """Before anything is numbered: ``kind`` has a rendition in ``language`` ("en", the
    English document alone, always)."""
    # documents and others load pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents import get_kind
    from docgen.documents.kind import ENGLISH, Options
    from docgen.documents.pipeline import check_options

    if language != ENGLISH:
        check_options(get_kind(kind), Options(language=language))


def offered(kind: str, asked: str | None, preferred: str | None) -> str | None:
    """The courtesy rendition issued with a document of ``kind`` (LAW.md § 13): the one
    asked for (``--language``, the desk's Language; "en": none), else, when nothing was
    asked, the one in the language the respondent prefers, if ``kind`` has it. The English
    document is the same either way."""
    # documents and others load pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents import kind_named
    from docgen.documents.kind import ENGLISH

    if asked is not None:
        return None if asked == ENGLISH else asked
    return preferred if preferred in kind_named(kind).renditions else None


def refuse_copies(kind: str, data: dict[str, Any]) -> None:
    """Before anything is numbered: the kind has copies and the register can keep them."""
    # documents loads pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents import get_kind, kinds_with, titles_or

    if not get_kind(kind).copies:
        served = titles_or(kinds_with(copies=True))
        raise DocgenError(
            f"{get_kind(kind).a_title} has no copies; --copies is for the documents served on "
            f"each person named in the copies to ({served})"
        )
    people = data.get("copies_to")
    if isinstance(people, list) and len(people) > MOST:
        raise DocgenError(
            f"copies_to: {len(people)} people; the register keeps up to {MOST} copies of "
            "one document: issue without --copies and render the copies with docgen render"
        )


def copy_for(case: dict[str, Any], stored: str) -> str | None:
    """Whose copy the stored format ``stored`` is: "NAME (role)", or None (the original)."""
    found = copy_of(stored)
    people = case.get("copies_to") or []
    if found is None or found[0] >= len(people):
        return None
    person = people[found[0]]
    role = person.get("role")
    return f"{person.get('name')} ({role})" if role else str(person.get("name"))
