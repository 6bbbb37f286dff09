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

import pytest
from desk_server import csrf_of, start_draft, typed_sample
from helpers.vocabulary import WARNINGS, code_words

from docgen.demo import sample_cases
from docgen.desk.base import auth
from docgen.desk.base.forms import not_asked, pairs_of

USERS = {"clerk": "ann", "officer": "otto", "attorney": "ada"}


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
