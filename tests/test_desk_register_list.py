"""The register list a clerk can search, against a real `docgen serve` over a register of
60 notices and a few documents in every status: search by number, name, street address
and tax map number, filters by kind, municipality, status and issue dates (an impossible
or reversed range said so), pages past the first 50 that keep the filters, CSV and JSON
exports a spreadsheet cannot run, every time in the municipality's zone; and the same
filters on PostgreSQL."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import yaml
from desk_server import database, serving, start_desk, stop_desk

from tests.helpers.served import service_of

ROOT = Path(__file__).resolve().parent.parent
HTML = ("html",)


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the register's list (60 documents and
    # more, page by page) and renames a respondent.
    yield from serving(tmp_path_factory)


def case(kind: str, name: str, **changes) -> dict:
    data = yaml.safe_load((ROOT / "fixtures" / kind / f"{name}.yaml").read_text("utf-8"))
    for key in ("number", "served", "effective"):
        data.pop(key, None)
    return {**data, **changes}


def in_every_status(url: str) -> dict[str, str]:
    """Beside the filled register: a Macedon certification, a served notice, a notice
    corrected by another, a stop-work order served and lifted (through the register)."""
    from docgen.register import Issue, Register

    with Register.open(url) as reg:
        made = {"macedon": reg.issue(
            "contractor-certification", case("contractor-certification", "macedon-unsigned"),
            Issue(respondent="new"), formats=HTML,
        ).number}  # fmt: skip
        first = case("notice-of-violation", "homer-first-offense")
        first["recipient"] = {**first["recipient"], "name": "Corrected Respondent"}
        made["old"] = reg.issue(
            "notice-of-violation", first, Issue(respondent="new"), formats=HTML
        ).number
        first["site"] = {"description": "The corrected lot, 12 Corrected Street"}
        made["new"] = reg.issue(
            "notice-of-violation",
            first,
            Issue(respondent="new", supersedes=made["old"]),
            formats=HTML,
        ).number
        order = reg.issue(
            "stop-work-order", case("stop-work-order", "homer-silt-fence"),
            Issue(respondent="new"), formats=HTML,
        )  # fmt: skip
        reg.record_service(
            order.number, service_of("personal-delivery", order.issued), formats=HTML
        )
        made["lifting"] = reg.lift(order.number, order.issued, formats=HTML).number
        made["order"] = order.number
    return made


@pytest.fixture(scope="module")
def filled(desk):
    from benchmarks.desk import fill_register

    fill_register(desk.database, 60)
    db = database(desk)
    hostile = '=HYPERLINK("http://x")'
    db.execute("update respondents set name = ? where name = 'Respondent 3'", (hostile,))
    db.commit()
    desk.made = in_every_status(desk.database)
    return desk


def numbers(html: str) -> list[str]:
    return re.findall(r'<a href="/documents/([^"/]+)">', html)


def test_pages_past_the_first_fifty(filled):
    clerk = filled.signed_in("ann")
    first = clerk.get("/documents").text
    assert len(numbers(first)) == 50 and "Older documents" in first
    second = clerk.get("/documents?page=2").text
    everything = database(filled).execute("select count(*) from documents").fetchone()[0]
    assert len(numbers(second)) == everything - 50 and "Newer documents" in second
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
    assert numbers(clerk.get("/documents?kind=maintenance-easement").text) == []
    assert len(numbers(clerk.get("/documents?kind=notice-of-violation").text)) == 50


def test_csv_export_of_the_list_is_safe_in_a_spreadsheet(filled):
    clerk = filled.signed_in("ann")
    got = clerk.get("/documents.csv")
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
    assert got.headers["content-disposition"].startswith('attachment; filename="documents.csv"')
    rows = list(csv.DictReader(io.StringIO(got.text)))
    assert len(rows) == database(filled).execute("select count(*) from documents").fetchone()[0]
    assert all(not r[k].startswith(("=", "+", "-", "@")) for r in rows for k in r)
    assert any(r["respondent"] == '\'=HYPERLINK("http://x")' for r in rows)
    some = rows[0]["number"]
    assert [r["number"] for r in csv.DictReader(io.StringIO(clerk.get(
        f"/documents.csv?q={some}").text))] == [some]  # fmt: skip


def listed(client, **params) -> list[str]:
    """The numbers of every page of the list, read from its JSON export."""
    got = client.get("/documents.json", params=params)
    assert got.status_code == 200, got.text
    return [d["number"] for d in got.json()["documents"]]


def test_filters_by_municipality_status_and_issue_dates(filled):
    clerk, made = filled.signed_in("ann"), filled.made
    assert listed(clerk, jurisdiction="macedon") == [made["macedon"]]
    assert made["macedon"] not in listed(clerk, jurisdiction="homer")
    assert listed(clerk, filter="superseded") == [made["old"]]
    assert made["old"] not in listed(clerk, kind="notice-of-violation", filter="served")
    assert listed(clerk, filter="lifted") == [made["order"]]
    assert made["order"] not in listed(clerk, filter="stop-work-in-effect")
    assert made["order"] in listed(clerk, filter="served")
    assert made["new"] in listed(clerk, filter="awaiting-service")
    page = clerk.get("/documents?filter=lifted").text
    assert '<option value="lifted" selected>Stop-work lifted</option>' in page
    assert "Superseded by a correction</option>" in page and "Appeal deadline passed" in page

    db = database(filled)
    days = [d for (d,) in db.execute("select issued from documents order by issued")]
    start, end = days[10], days[30]
    expected = db.execute(
        "select count(*) from documents d where issued between ? and ? and kind = ? and not "
        "exists (select 1 from documents s where s.supersedes_id = d.id)",
        (start, end, "notice-of-violation"),
    ).fetchone()[0]
    chosen = {"from": start, "to": end, "kind": "notice-of-violation"}
    rows = clerk.get("/documents.json", params=chosen).json()["documents"]
    assert len(rows) == expected >= 10 and all(start <= r["issued"] <= end for r in rows)
    assert {r["kind"] for r in rows} == {"notice-of-violation"}
    one_day = rows[0]["issued"]
    that_day = clerk.get("/documents.json", params={"from": one_day, "to": one_day}).json()
    assert {r["issued"] for r in that_day["documents"]} == {one_day}
    assert {r["number"] for r in rows if r["issued"] == one_day} <= {
        r["number"] for r in that_day["documents"]
    }


def test_pages_keep_the_filters(filled):
    clerk = filled.signed_in("ann")
    chosen = {
        "from": "2022-01-01",
        "to": "2026-12-31",
        "kind": "notice-of-violation",
        "q": "Respondent",
    }
    first = clerk.get("/documents", params=chosen).text
    older = re.search(r'<a href="/documents\?([^"]+)">Older documents</a>', first)
    assert older and len(numbers(first)) == 50
    kept = dict(p.split("=", 1) for p in older.group(1).replace("&amp;", "&").split("&"))
    assert kept == {"q": "Respondent", "kind": "notice-of-violation", "from": "2022-01-01",
                    "to": "2026-12-31", "page": "2"}  # fmt: skip
    second = clerk.get("/documents?" + older.group(1).replace("&amp;", "&")).text
    assert numbers(second) and not set(numbers(second)) & set(numbers(first))
    assert 'value="2022-01-01"' in second and "Newer documents" in second
    everything = listed(clerk, **chosen)
    assert numbers(first) + numbers(second) == everything


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        (
            {"from": "2026-02-30"},
            "Issued from: 30 February 2026 is not a real calendar date (February 2026 has 28 days)",
        ),
        ({"to": "2026-13-01"}, "Issued to: &#39;2026-13-01&#39; is not a real calendar date"),
        ({"from": "last week"}, "Issued from: &#39;last week&#39; is not a date"),
        (
            {"from": "2026-12-01", "to": "2026-11-01"},
            "Issued from (December 1, 2026) is after issued to (November 1, 2026)",
        ),
    ],
)
def test_an_impossible_or_reversed_range_is_said_and_lists_nothing(filled, typed, said):
    clerk = filled.signed_in("ann")
    for path in ("/documents", "/documents.csv", "/documents.json"):
        got = clerk.get(path, params=typed)
        assert got.status_code == 400 and got.headers["content-type"].startswith("text/html")
        assert said in got.text and "Nothing was listed" in got.text
        assert numbers(got.text) == []
        for value in typed.values():
            assert f'value="{value}"' in got.text  # kept as typed


def test_times_are_the_municipalitys(filled):
    here = ZoneInfo("America/New_York")
    made, clerk = filled.made, filled.signed_in("ann")
    db = database(filled)
    stored = db.execute(
        "select recorded_at from documents where number = ?", (made["order"],)
    ).fetchone()[0]
    moment = datetime.fromisoformat(stored).replace(tzinfo=UTC).astimezone(here)
    shown = f"{moment:%B} {moment.day}, {moment.year}, {moment:%H:%M} {moment:%Z}"
    page = clerk.get(f"/documents/{made['order']}").text
    assert f"recorded {shown} by" in page and "UTC" not in page
    assert f"(recorded {shown})" in page  # the service event, recorded in the same minute
    listing = clerk.get("/documents", params={"q": made["order"]}).text
    assert f"(recorded {shown})" in listing
    row = clerk.get("/documents.json", params={"q": made["order"]}).json()["documents"][0]
    assert row["time_zone"] == "America/New_York"
    assert datetime.fromisoformat(row["recorded_at"]).utcoffset() == moment.utcoffset()
    audit = filled.signed_in("root").get("/users").text
    assert "(UTC)" not in audit and re.search(r"\d\d:\d\d E[SD]T</td><td>ann</td>", audit)
    drafts = clerk.get("/drafts").text
    assert "UTC" not in drafts


def test_the_same_filters_and_export_on_postgresql(postgres_server, tmp_path):
    from benchmarks.desk import fill_register
    from tests.helpers import pgserver

    url = pgserver.create_database(postgres_server, "desk_list")
    desk = start_desk(tmp_path, url)
    try:
        fill_register(url, 60)
        made = in_every_status(url)
        clerk = desk.signed_in("ann")
        assert listed(clerk, jurisdiction="macedon") == [made["macedon"]]
        assert listed(clerk, filter="superseded") == [made["old"]]
        assert made["order"] not in listed(clerk, filter="stop-work-in-effect")
        every = clerk.get("/documents.json").json()["documents"]
        days = sorted(r["issued"] for r in every)
        start, end = days[10], days[30]
        rows = clerk.get("/documents.json", params={"from": start, "to": end}).json()
        assert sorted(r["number"] for r in rows["documents"]) == sorted(
            r["number"] for r in every if start <= r["issued"] <= end
        )
        assert clerk.get("/documents", params={"from": "2025-02-29"}).status_code == 400
        assert len(numbers(clerk.get("/documents?page=2").text)) == 66 - 50  # and an affidavit
        got = clerk.get("/documents.csv", params={"filter": "lifted"})
        assert [r["number"] for r in csv.DictReader(io.StringIO(got.text))] == [made["order"]]
    finally:
        stop_desk(desk)


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ('Acme;=HYPERLINK("x")', 'Acme;\'=HYPERLINK("x")'),
        ("Acme; +1+cmd|' /C calc'!A0", "Acme; '+1+cmd|' /C calc'!A0"),
        ("Acme,\t@SUM(A1)", "Acme,\t'@SUM(A1)"),
        ("=1;-2", "'=1;'-2"),
        ("12 Main Street; Homer", "12 Main Street; Homer"),
    ],
)
def test_a_csv_cell_is_neutralised_after_any_separator(typed, kept):
    """European Excel splits a CSV on ";": a formula after one ran (issue 48)."""
    from docgen.desk.documents.register_list import _cell

    assert _cell(typed) == kept
