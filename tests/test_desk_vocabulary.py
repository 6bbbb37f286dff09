"""One vocabulary per person (issue 52): every draft page of the desk, for every kind's
sample case, for the cases that raise each warning a check gives, and for each kind's empty
form checked (every problem shown), says each field by the form's label and cites the law
or the municipality's practice: never a case field's path ("remedies[0].due:",
"owner.organized_in"), a file name, the project's notes ("LAW.md"), a Python name or a
pydantic term."""

from __future__ import annotations

import copy
import html
import re
from datetime import date, timedelta

import pytest
from desk_server import csrf_of, start_draft, typed_sample

from docgen.demo import sample_cases
from docgen.desk.base import auth
from docgen.desk.base.forms import not_asked, pairs_of

USERS = {"clerk": "ann", "officer": "otto", "attorney": "ada"}
CODE_WORDS = {
    "a case field's path": re.compile(r"\b[a-z_]+\[\d+\](?:\.\w+)?|\b[a-z_]+\.[a-z_]+\w*:"),
    "a Python name": re.compile(r"\b[a-z]+_[a-z_]+\b|\bNone\b|\bTrue\b|\bFalse\b"),
    "a file name": re.compile(r"\b[\w-]+\.(?:csv|ya?ml|py|json|md|j2)\b", re.I),
    "the project's notes": re.compile(r"LAW\.md|STYLE\.md|reading \d+"),
    "a pydantic term": re.compile(
        r"Input should|Field required|validation error|Extra inputs|pydantic|model_|"
        r"Value error|type=|literal_error|string_too",
        re.I,
    ),
}


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


def shown(page: str) -> str:
    """What a person reads on a desk page: its text and its controls' visible words, not
    what they typed (the values of inputs and text areas) nor the page's code."""
    main = page[page.index("<main") : page.index("</main>")]
    main = re.sub(r"<textarea\b.*?</textarea>", " ", main, flags=re.S)
    main = re.sub(r"<iframe\b.*?</iframe>", " ", main, flags=re.S)
    main = re.sub(r'<p class="kept"[^>]*>.*?</p>', " ", main, flags=re.S)  # their file
    words = re.sub(r"<[^>]+>", " ", main)
    return " ".join(html.unescape(words).split())


def code_words(text: str) -> list[str]:
    return [f"{what}: {m.group(0)!r} in ...{text[max(0, m.start() - 80) : m.end() + 40]}..."
            for what, pattern in CODE_WORDS.items() for m in pattern.finditer(text)]  # fmt: skip


def drafter(kind: str) -> str | None:
    return next((u for role, u in USERS.items() if kind in auth.kinds_for(role)), None)


def page_of(desk, kind: str, jurisdiction: str, typed: dict[str, str]) -> str:
    client = desk.signed_in(drafter(kind))
    where, token = start_draft(client, kind, jurisdiction)
    done = client.post(where, data={**typed, "csrf_token": token})
    assert done.status_code == 303, done.text[-2000:]
    page = client.get(where)
    assert page.status_code == 200
    assert csrf_of(page.text)
    return page.text


SAMPLES = [(k, p) for k, p in sample_cases() if drafter(k)]


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=[f"{k}/{p.stem}" for k, p in SAMPLES])
def test_every_sample_draft_page_speaks_the_forms_words(desk, kind, path):
    case, typed = typed_sample(kind, path.stem)
    text = shown(page_of(desk, kind, case["jurisdiction"], typed))
    assert code_words(text) == []


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


# Each warning a check gives, raised from a sample (the contractor certification's own
# samples raise its three; the easement's sample, the area described in words only).
WARNINGS = {
    "a remedy due on a Saturday": (
        "notice-of-violation", "homer-first-offense", _remedy_on_a_saturday, "is a Saturday"),
    "a firm's state of organization not given": (
        "maintenance-easement", "homer-individual", _firm_without_its_state, "not given"),
    "plans approved before the instrument": (
        "maintenance-agreement", "homer-individual", _approved_before, "approval"),
}  # fmt: skip


@pytest.mark.parametrize("warning", list(WARNINGS))
def test_every_warning_is_said_in_the_forms_words(desk, warning):
    kind, sample, change, said = WARNINGS[warning]
    case, _ = typed_sample(kind, sample)
    case = change(copy.deepcopy(case))
    typed = dict(pairs_of({k: v for k, v in case.items() if k not in not_asked(kind)}))
    text = shown(page_of(desk, kind, case["jurisdiction"], typed))
    assert "Warning:" in text and said in text, text[-3000:]
    assert code_words(text) == []


KINDS = sorted({k for k, _ in SAMPLES})


@pytest.mark.parametrize("kind", KINDS)
def test_every_empty_form_checked_says_its_problems_in_the_forms_words(desk, kind):
    jurisdiction = next(p for k, p in SAMPLES if k == kind).stem.split("-")[0]
    text = shown(page_of(desk, kind, jurisdiction, {}))
    assert code_words(text) == []
