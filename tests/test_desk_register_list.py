"""The register list a clerk can search, against a real `docgen serve` over a register of
60 notices: search by number, name, street address and tax map number, a kind, pages past
the first 50, and a CSV export a spreadsheet cannot run."""

from __future__ import annotations

import csv
import io
import re

import pytest
from desk_server import database, serving


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    yield from serving(tmp_path_factory)


@pytest.fixture(scope="module")
def filled(desk):
    from benchmarks.desk import fill_register

    fill_register(desk.database, 60)
    db = database(desk)
    hostile = '=HYPERLINK("http://x")'
    db.execute("update respondents set name = ? where name = 'Respondent 3'", (hostile,))
    db.commit()
    return desk


def numbers(html: str) -> list[str]:
    return re.findall(r'<a href="/documents/([^"/]+)">', html)


def test_pages_past_the_first_fifty(filled):
    clerk = filled.signed_in("ann")
    first = clerk.get("/documents").text
    assert len(numbers(first)) == 50 and "Older documents" in first
    second = clerk.get("/documents?page=2").text
    assert len(numbers(second)) == 10 and "Newer documents" in second
    assert not set(numbers(first)) & set(numbers(second))
    assert clerk.get("/documents?page=\u0662").status_code == 200  # not a page: the first


def test_search_by_number_name_address_and_tax_map(filled):
    clerk = filled.signed_in("ann")
    some = numbers(clerk.get("/documents?page=2").text)[0]
    assert numbers(clerk.get(f"/documents?q={some}").text) == [some]
    by_name = clerk.get("/documents", params={"q": "Seed Respondent 1"}).text
    assert numbers(by_name) and "Seed Respondent 1" in by_name
    row = database(filled).execute("select address, tax_map from sites limit 1").fetchone()
    for term in row:
        if term:
            assert numbers(clerk.get("/documents", params={"q": term}).text)
    assert numbers(clerk.get("/documents", params={"q": "no such thing anywhere"}).text) == []
    assert numbers(clerk.get("/documents?kind=stop-work-order").text) == []
    assert len(numbers(clerk.get("/documents?kind=notice-of-violation").text)) == 50


def test_csv_export_of_the_list_is_safe_in_a_spreadsheet(filled):
    clerk = filled.signed_in("ann")
    got = clerk.get("/documents.csv")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    assert got.headers["content-disposition"].startswith('attachment; filename="documents.csv"')
    rows = list(csv.DictReader(io.StringIO(got.text)))
    assert len(rows) == 60
    assert all(not r[k].startswith(("=", "+", "-", "@")) for r in rows for k in r)
    assert any(r["respondent"] == '\'=HYPERLINK("http://x")' for r in rows)
    some = rows[0]["number"]
    assert [r["number"] for r in csv.DictReader(io.StringIO(clerk.get(
        f"/documents.csv?q={some}").text))] == [some]  # fmt: skip
