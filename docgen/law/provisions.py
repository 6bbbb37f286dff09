"""Whether a cited provision exists in the jurisdiction's article, and whether a person
can violate it.

The pack lists every section of the article with its subsections, as the adopted text
numbers them (``code.provisions``). A violation cites one of them; "§ 301-73A(1)" in a
notice under ch. 228, or "§ 228-99(Z)", is an error rather than a citation to nowhere. Of those,
only the provisions the pack lists as ``code.violable`` (with everything under them) may
be cited as the provision violated: a finding of fact, the purpose, the applicability or a
definition binds no one, and citing one is an error naming what it is.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from docgen.errors import Problem

if TYPE_CHECKING:
    from docgen.law.pack import Pack

_PREFIX = re.compile(r"^(?:§|section|sec\.)\s*", re.IGNORECASE)
_SECTION = re.compile(r"^(\d+-\d+)(.*)$")


def normalized(citation: str) -> str:
    """'§ 228-78D(1)', 'Section 228-78 D (1)' -> '228-78D(1)'."""
    return re.sub(r"\s+", "", _PREFIX.sub("", citation.strip()))


def provision_exists(citation: str, pack: Pack) -> bool:
    return listed_in(citation, pack.code.provisions.value)


def listed_in(citation: str, listed: dict[str, list[str]]) -> bool:
    """Whether ``citation`` is a section, or a subsection, of the ``listed`` sections."""
    found = _SECTION.match(normalized(citation))
    if found is None:
        return False
    section, sub = found.groups()
    return section in listed and (sub == "" or sub in listed[section])


def within(citation: str, part: str) -> bool:
    """Whether ``citation`` is the provision ``part`` or one under it: '228-78D(1)(a)' is
    within '228-78D', '228-78D(1)' and '228-78', not within '228-78D(10)'."""
    cited, key = _SECTION.match(normalized(citation)), _SECTION.match(normalized(part))
    if cited is None or key is None or cited[1] != key[1]:
        return False
    sub, under = cited[2], key[2]
    return sub.startswith(under) and (under == "" or sub[len(under) :][:1] in ("", "(", "["))


def not_violable(citation: str, pack: Pack) -> str | None:
    """Why ``citation``, a provision of the article, cannot be the provision violated, or
    None when a violation may cite it (LAW.md § 2 (c); the pack's ``code.violable``)."""
    code = pack.code
    if any(within(citation, part) for part in code.violable.value):
        return None
    what = next(
        (
            value
            for part, value in sorted(code.not_violable.items(), key=lambda kv: -len(kv[0]))
            if within(citation, part)
        ),
        None,
    )
    may = ", ".join(f"§ {part}" for part in code.violable.value)
    lead = f"{citation!r} is "
    if what is not None:
        lead += f"part of {what.value} ({what.ref}) and binds no one"
    elif any(within(part, citation) for part in code.violable.value):
        lead += "wider than the provision violated (it takes in parts no one can violate)"
    else:
        lead += "not a provision a violation may cite"
    return (
        f"{lead}: it cannot be the provision violated, which is within {may} ({code.violable.ref})"
    )


def citation_problem(citation: str, pack: Pack) -> str | None:
    """What is wrong with ``citation`` as the provision violated, or None."""
    return unknown_provision(citation, pack) or not_violable(citation, pack)


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
    """A provision a violation may cite: the first subsection under the first violable part."""
    first = normalized(pack.code.violable.value[0])
    found = _SECTION.match(first)
    if found is None:  # the pack's own check refuses such a provision before this is asked
        raise ValueError(f"{first!r} is not a section of the article")
    section, under = found.groups()
    subs = [s for s in pack.code.provisions.value[section] if within(section + s, first)]
    return section + (subs[1] if len(subs) > 1 else under)


def cited_by(provision: str, pack: Pack | None) -> str:
    """``provision``, or for ``@path`` (a pack value) the ref the pack gives it."""
    if not provision.startswith("@"):
        return provision
    return pack.cite(provision[1:]) if pack is not None else ""


def cited_problems(problems: list[Problem], pack: Pack | None) -> list[Problem]:
    """``problems`` with each ``@path`` provision replaced by the pack's ref for it."""
    return [replace(p, provision=cited_by(p.provision, pack)) for p in problems]
