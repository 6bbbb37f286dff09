"""What a clerk must never read in a message: a field path, a flag, a file position, an
internal key or a slug. ``developer_words(text)`` lists each such piece found in ``text``."""

from __future__ import annotations

import re
import typing
from functools import cache

from docgen.documents import DOCUMENTS, KINDS

_PATTERNS = {
    "row index": r"\[\d+\]",
    "flag": r"(?<![\w-])--[a-z]",
    "file position": r"\.(?:csv|ya?ml|json):\d",
    "snake_case key": r"\b[a-z]+(?:_[a-z0-9]+)+\b",
    "dotted key": r"\b(?!e\.g\b|i\.e\b)[a-z_]+\.[a-z_]+\b",
    "braces": r"[{}]",
    "design note": r"LAW\.md",
}


@cache
def slugs() -> frozenset[str]:
    """Every choice value of the case models that is not a word (certified-mail, llc,
    letter_of_credit) and every kind's name (notice-of-violation)."""
    found: set[str] = {d for d in DOCUMENTS if not d.isalpha()}
    seen: set[type] = set()

    def walk(annotation: typing.Any) -> None:
        if typing.get_origin(annotation) is typing.Literal:
            found.update(str(v) for v in typing.get_args(annotation) if not str(v).isalpha())
            found.update({"llc"} & {str(v) for v in typing.get_args(annotation)})
        for arg in typing.get_args(annotation):
            walk(arg)
        if isinstance(annotation, type) and hasattr(annotation, "model_fields"):
            if annotation in seen:
                return
            seen.add(annotation)
            for info in annotation.model_fields.values():
                walk(info.annotation)
                for meta in info.metadata:
                    walk(meta)

    for spec in KINDS.values():
        walk(spec.model)
    from docgen.register.storage.models import SERVICE_METHODS

    found.update(m for m in SERVICE_METHODS if not m.isalpha())
    return frozenset(found)


def developer_words(text: str) -> list[str]:
    """Each piece of ``text`` that is a developer's word, with what it is."""
    out = [f"{what}: {m.group(0)!r}" for what, p in _PATTERNS.items() for m in re.finditer(p, text)]
    alone = r"(?<![\w-]){}(?![\w-])"
    out += [f"slug: {s!r}" for s in slugs() if re.search(alone.format(re.escape(s)), text)]
    return out
