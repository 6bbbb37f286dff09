"""One vocabulary per person (issue 52), shared by the desk's test
(tests/test_desk_vocabulary.py) and the command line's (tests/test_cli_vocabulary.py):
``code_words(text)`` lists each piece of code a person must never read, and ``WARNINGS``
the sample cases changed to raise each warning a check gives."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from datetime import date, timedelta

from docgen.kinds import MODULES

CODE_WORDS = {
    "a case field's path": re.compile(r"\b[a-z_]+\[\d+\](?:\.\w+)?|\b[a-z_]+\.[a-z_]+\w*:"),
    "a Python name": re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bTrue\b|\bFalse\b"),
    "a file name": re.compile(r"\b[\w-]+\.(?:csv|ya?ml|py|json|md|j2)\b", re.I),
    "the project's notes": re.compile(r"LAW\.md|STYLE\.md|reading \d+"),
    # A kind's code name ("appeal-hearing"): a person reads its title ("a notice of hearing
    # of an appeal"). Quoted, it is what they type ('notice-of-violation', `docgen kinds`);
    # inside a longer name or a path (NOV-2026-0001-notice-of-violation.pdf), a file's.
    "a kind's code name": re.compile(
        r"(?<![\w'\"`/-])(?:"
        + "|".join(sorted(MODULES, key=len, reverse=True))
        + r")(?![\w'\"`/-])"
    ),
    "a pydantic term": re.compile(
        r"Input should|Field required|validation error|Extra inputs|pydantic|model_|"
        r"Value error|type=|literal_error|string_too|String should|instance of|"
        r"a valid (?:dictionary|list|string|integer)|found (?:str|int|dict|list|bool|float)\b",
        re.I,
    ),
}


def code_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """Each piece of code in ``text``, with what it is and where; ``allowed``: the kinds of
    CODE_WORDS a reader of ``text`` may meet (the command line names files: the case file
    typed, the batch's manifest)."""
    if "a file name" in allowed:  # a file named is no field's path ("case.yaml: 1 problem")
        notes = CODE_WORDS["the project's notes"]
        text = CODE_WORDS["a file name"].sub(
            lambda m: m.group(0) if notes.match(m.group(0)) else "the file", text
        )
    return [f"{what}: {m.group(0)!r} in ...{text[max(0, m.start() - 80) : m.end() + 40]}..."
            for what, pattern in CODE_WORDS.items() if what not in allowed
            for m in pattern.finditer(text)]  # fmt: skip


def saturday_after(day: date) -> date:
    return day + timedelta(days=(5 - day.weekday()) % 7 or 7)


def _remedy_on_a_saturday(case: dict) -> dict:
    due = saturday_after(date.fromisoformat(str(case["remedies"][0]["due"])))
    case["remedies"][0]["due"] = due.isoformat()
    return case


def _firm_without_its_state(case: dict) -> dict:
    case["owner"]["kind"] = "llc"
    case["owner"].pop("organized_in", None)
    case["owner"]["signers"][0]["title"] = "Managing member"
    return case


def _approved_before(case: dict) -> dict:
    agreed = date.fromisoformat(str(case["agreement"]["date"]))
    before = str(agreed - timedelta(days=30))
    case["project"]["approval"] = {"stage": "final", "date": before, "board": "Planning Board"}
    return case


# Each warning a check gives, raised from a sample (kind, sample, the change, what the
# warning says); the contractor certification's own samples raise its three.
WARNINGS: dict[str, tuple[str, str, Callable[[dict], dict], str]] = {
    "a remedy due on a Saturday": (
        "notice-of-violation", "homer-first-offense", _remedy_on_a_saturday, "is a Saturday"),
    "a firm's state of organization not given": (
        "maintenance-easement", "homer-individual", _firm_without_its_state, "not given"),
    "plans approved before the instrument": (
        "maintenance-agreement", "homer-individual", _approved_before, "approval"),
}  # fmt: skip
