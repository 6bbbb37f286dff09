"""Which respondent is this, on the desk (issue 28 item 6): a record with one conviction,
a notice typed to a near spelling of its name, and the figures the desk's pages and the
issued notice state (tests/test_desk_respondent_choice.py; the queue's desk in
tests/jobqueue/test_queue_desk.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from desk_server import start_draft, typed_sample

RECORD = "Glenwood Heights Holding LLC"
TYPED = "Glenwood Hieghts Holding LLC"  # a near name (matching.is_near), never merged silently
OFFENSE_WORDS = {1: "first", 2: "second", 3: "third"}


def notice(observed: str, issued: str, name: str) -> dict[str, str]:
    """The sample notice to ``name``, first observed and issued on these days."""
    _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
    return typed | {
        "recipient.name": name,
        "issued": issued,
        "violations[0].observed": observed,
        "remedies[0].due": "2026-12-05",
        "remedies[1].due": "2026-12-10",
    }


def drafted(clerk, fields: dict[str, str]) -> tuple[str, str]:
    where, token = start_draft(clerk, "notice-of-violation")
    saved = clerk.post(where, data={**fields, "csrf_token": token})
    assert saved.status_code == 303, saved.text
    return where, token


def answers(page: str) -> dict[str, tuple[int, str, str]]:
    """Each answer a page lists: its value -> (offense number, lowest fine, highest fine)."""
    offenses = dict(re.findall(r'data-offense="([^"]+)">(\d+)<', page))
    fines = re.findall(r'data-penalty="([^"]+)">\$([\d,.]+) to \$([\d,.]+)<', page)
    return {value: (int(offenses[value]), low, high) for value, low, high in fines}


def stated(text: str) -> tuple[int, str, str]:
    """The offense number and total fine a notice states: (number, lowest, highest)."""
    flat = " ".join(text.split())
    word = re.search(r"this would be a (\w+) offense", flat).group(1)
    number = {w: n for n, w in OFFENSE_WORDS.items()}[word]
    total = re.search(
        r"a total fine (?:not less than [^(]*\(\$([\d,.]+)\) nor more than|not exceeding)"
        r" [^(]*\(\$([\d,.]+)\)",
        flat,
    )
    return number, total.group(1) or "0.00", total.group(2)


def convicted_record(register: Any, folder: Path) -> int:
    """The record of Glenwood Heights Holding LLC in ``register``, with one conviction
    (entered 2026-09-01, before the offenses the tests type: LAW.md § 4, reading 9),
    imported as older history is: its id."""
    from docgen.register.people.imports import import_history

    older = folder / "older.csv"
    older.write_text(
        "name,street,city,state,zip,committed,convicted,court,docket,jurisdiction\n"
        f"{RECORD},15 Albany Street,Homer,NY,13077,2026-06-01,2026-09-01,"
        "Homer Village Court,26-101,homer\n"
    )
    import_history(register, older, by="test")
    (found,) = register.find_respondents(RECORD)
    return found.id
