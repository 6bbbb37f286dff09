"""Whether a cited provision exists in the jurisdiction's article.

The pack lists every section of the article with its subsections, as the adopted text
numbers them (``code.provisions``). A violation cites one of them; "§ 301-73A(1)" in a
Homer notice, or "§ 228-99(Z)", is an error rather than a citation to nowhere.
"""

from __future__ import annotations

import re

from docgen.law.pack import Pack

_PREFIX = re.compile(r"^(?:§|section|sec\.)\s*", re.IGNORECASE)
_SECTION = re.compile(r"^(\d+-\d+)(.*)$")


def normalized(citation: str) -> str:
    """'§ 228-78D(1)', 'Section 228-78 D (1)' -> '228-78D(1)'."""
    return re.sub(r"\s+", "", _PREFIX.sub("", citation.strip()))


def provision_exists(citation: str, pack: Pack) -> bool:
    found = _SECTION.match(normalized(citation))
    if found is None:
        return False
    section, sub = found.groups()
    listed = pack.code.provisions.value
    return section in listed and (sub == "" or sub in listed[section])


def unknown_provision(citation: str, pack: Pack) -> str | None:
    """Why ``citation`` is not a provision of the pack's article, or None when it is one."""
    if provision_exists(citation, pack):
        return None
    return (
        f"{citation!r} is not a provision of the {pack.code.title.value} "
        f"({pack.code.sections.value}); cite the section and subsection violated, "
        "e.g. § " + _example(pack)
    )


def _example(pack: Pack) -> str:
    listed = pack.code.provisions.value
    section = next(iter(listed))
    return f"{section}{listed[section][1] if len(listed[section]) > 1 else ''}"
