"""Broken case files, one per way a file can be wrong, with what the error must say.

Shared by tests/test_broken_files.py (exit 1, clear message, no traceback, no output)
and benchmarks/broken_inputs.py (how long each takes to be refused).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import yaml

from docgen.cases.loader import read_case_file
from docgen.demo import sample_cases

ROOT = Path(__file__).resolve().parents[2]
BASE_KIND = "penalty-statement"
BASE = ROOT / "fixtures" / BASE_KIND / "homer-first-offense.yaml"


@dataclass(frozen=True)
class Broken:
    name: str
    kind: str
    content: bytes
    expect: str  # a phrase the error message must contain, in the form's words
    suffix: str = ".yaml"


def _base_text() -> str:
    return BASE.read_text(encoding="utf-8")


def _replace(old: str, new: str) -> bytes:
    text = _base_text()
    assert old in text, old
    return text.replace(old, new, 1).encode()


BILLION_LAUGHS = """\
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
"""


def _money_case() -> tuple[str, bytes] | None:
    """A sample of a kind with an amount of money, that amount made negative."""
    from docgen.documents import KINDS
    from tests.helpers.casewalk import leaves, set_in

    for kind, path in sample_cases():
        data = read_case_file(path)
        for leaf, _value, field_kind in leaves(KINDS[kind].model, data):
            if field_kind == "money":
                bad = set_in(data, leaf, "-1500.00")
                return kind, yaml.safe_dump(bad, allow_unicode=True, sort_keys=False).encode()
    return None


def broken_cases() -> list[Broken]:
    cases = [
        Broken("empty file", BASE_KIND, b"", "the file is empty"),
        Broken("only white space", BASE_KIND, b"  \n\t\n", "the file is empty"),
        Broken("only a comment", BASE_KIND, b"# nothing here\n", "found nothing"),
        Broken("not YAML", BASE_KIND, b"jurisdiction: [homer\nnumber: : :\n", "not valid YAML"),
        Broken("tab-indented YAML", BASE_KIND, b"officer:\n\tname: x\n", "not valid YAML"),
        Broken("not JSON", BASE_KIND, b'{"jurisdiction": "homer",}', "not valid JSON", ".json"),
        Broken("a list", BASE_KIND, b"- jurisdiction: homer\n- number: 1\n", "found list"),
        Broken("a scalar", BASE_KIND, b"just some words\n", "found str"),
        Broken("JSON array", BASE_KIND, b'[{"jurisdiction": "homer"}]', "found list", ".json"),
        Broken("binary", BASE_KIND, bytes(range(256)) * 40, "not UTF-8"),
        Broken("NUL bytes", BASE_KIND, b"jurisdiction: homer\n\x00\x00\x00\n", "binary data"),
        Broken("a PNG", BASE_KIND, b"\x89PNG\r\n\x1a\n" + b"\xff\xfe" * 500, "not UTF-8"),
        Broken("UTF-16 text", BASE_KIND, _base_text().encode("utf-16"), "not UTF-8"),
        Broken(
            "Latin-1 text",
            BASE_KIND,
            _replace("Marguerite", "Margu\xe9rite").decode().encode("latin-1"),
            "not UTF-8",
        ),
        Broken("over 5 MB", BASE_KIND, b"# " + b"x" * (5 * 1024 * 1024) + b"\n", "5 MB limit"),
        Broken("billion laughs", BASE_KIND, BILLION_LAUGHS.encode(), "aliases"),
        Broken(
            "alias in a case",
            BASE_KIND,
            _replace("officer:\n", "officer: &o\n") + b"copies_to: [*o]\n",
            "aliases",
        ),
        Broken(
            "python object tag",
            BASE_KIND,
            b"jurisdiction: !!python/object/apply:os.system ['echo pwned']\n",
            "not valid YAML",
        ),
        Broken(
            "deep nesting JSON",
            BASE_KIND,
            b"[" * 100_000 + b"]" * 100_000,
            "nested too deeply",
            ".json",
        ),
        Broken(
            "deep nesting YAML",
            BASE_KIND,
            b"a: " + b"[" * 50_000 + b"]" * 50_000,
            "nested too deeply",
        ),
        Broken(
            "duplicate key",
            BASE_KIND,
            _base_text().encode() + b"number: PS-2\n",
            "duplicate key 'number'",
        ),
        Broken(
            "duplicate nested key",
            BASE_KIND,
            _replace(
                "  title: Code Enforcement Officer\n",
                "  title: Code Enforcement Officer\n  name: Someone Else\n",
            ),
            "duplicate key 'name'",
        ),
        Broken(
            "duplicate JSON key",
            BASE_KIND,
            json.dumps(read_case_file(BASE))[:-1].encode() + b', "number": "X"}',
            "duplicate key 'number'",
            ".json",
        ),
        Broken("non-text key", BASE_KIND, _base_text().encode() + b"2026: x\n", "must be text"),
        Broken(
            "unknown key",
            BASE_KIND,
            _base_text().encode() + b"nubmer: PS-1\n",
            "Nubmer: is not a key",
        ),
        Broken(
            "wrong type: date is a number",
            BASE_KIND,
            _replace("issued: 2026-11-16", "issued: 20261116"),
            "Issued:",
        ),
        Broken(
            "wrong type: mapping is text",
            BASE_KIND,
            _replace(
                "officer:\n  name: Dana R. Whitcomb\n  title: Code Enforcement Officer\n",
                "officer: Dana R. Whitcomb\n",
            ),
            "Officer: should be its parts (name, title), not text",
        ),
        Broken(
            "wrong type: list is a mapping",
            BASE_KIND,
            _base_text().encode() + b"prior_offenses: {committed: 2024-01-01}\n",
            "Prior offenses: should be a list, not a group of fields",
        ),
        Broken(
            "wrong type: text is a list",
            BASE_KIND,
            _replace("number: PS-2026-0011", "number: [PS, 2026]"),
            "Number: should be text, not a list",
        ),
        Broken(
            "wrong type: boolean name",
            BASE_KIND,
            _replace("  name: Marguerite O'Donnell & Sons <Excavating>", "  name: yes"),
            "Recipient, name:",
        ),
        Broken(
            "2026-02-30",
            BASE_KIND,
            _replace("issued: 2026-11-16", "issued: 2026-02-30"),
            "not a real calendar date",
        ),
        Broken(
            "date in the year 9999",
            BASE_KIND,
            _replace("issued: 2026-11-16", "issued: 9999-12-31"),
            "year 9999 is outside",
        ),
        Broken(
            "date in the year 0001",
            BASE_KIND,
            _replace("committed: 2026-11-09", "committed: 0001-01-01"),
            "year 1 is outside",
        ),
        Broken(
            "US-style date",
            BASE_KIND,
            _replace("issued: 2026-11-16", "issued: 11/16/2026"),
            "write it as YYYY-MM-DD",
        ),
        Broken(
            "huge integer",
            BASE_KIND,
            _replace("issued: 2026-11-16", "issued: " + "9" * 5000),
            "a value cannot be read",
        ),
        Broken(
            "501-character name",
            BASE_KIND,
            _replace("  name: Marguerite O'Donnell & Sons <Excavating>", "  name: " + "A" * 501),
            "Recipient, name:",
        ),
        Broken(
            "unknown jurisdiction",
            BASE_KIND,
            _replace("jurisdiction: homer", "jurisdiction: gotham"),
            "Jurisdiction:",
        ),
        Broken(
            "kind not in the jurisdiction",
            BASE_KIND,
            _replace("jurisdiction: homer", "jurisdiction: macedon"),
            "Town of Macedon cannot issue a penalty statement",
        ),
        Broken("unknown kind", "no-such-kind", _base_text().encode(), "unknown document kind"),
    ]
    money = _money_case()
    if money:
        cases.append(Broken("negative money", money[0], money[1], "is negative"))
    return cases


def write(tmp: Path, case: Broken) -> Path:
    path = tmp / f"{case.name.replace(' ', '-').replace(':', '')}{case.suffix}"
    path.write_bytes(case.content)
    return path
