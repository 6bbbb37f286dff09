"""The municipality's year in figures from the register only (LAW.md § 15), on SQLite and
PostgreSQL: plans reviewed, approved and returned, sites active, inspections and notices,
each count with its rule and document numbers; a superseded notice is never counted (its
correction is); a register of more than 2,000 documents has each counted once, under its
kind (how long that takes is benchmarks/year.py's to measure, not a test's)."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest

from docgen.errors import DocgenError
from docgen.law.deadlines import long_date
from docgen.law.packs import load_pack
from docgen.law.year import named_holding, period
from docgen.register.plans.swppp import add_plan, record_review
from docgen.register.reading.year import as_csv, by_month, figures, reporting_period, write_report
from docgen.register.rules.rows import document_row
from docgen.register.sites.invitations import add_site, today_in
from docgen.register.storage import db
from docgen.register.storage.models import Document
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice


def returned_plan(reg, name: str, today: date):
    """Site ``name``'s SWPPP, revision 1, received and reviewed ``today`` with its soils
    missing, and the letter returning it."""
    where = add_site(
        reg.engine, "homer", {"name": name}, {"description": f"{name} lots"}, None, "m"
    )
    plan = add_plan(
        reg.engine,
        where,
        title=f"{name} SWPPP",
        revision="1",
        preparer="L. Ortiz",
        qualification="P.E.",
        received=today,
        by="m",
    )
    given = {i.id: ("present", None) for i in load_pack("homer").swppp.items}
    given["soils"] = ("missing", None)
    record_review(reg.engine, plan.id, given, reviewer="D. Whitcomb", on=today, by="m")
    return reg.swppp_decide(plan.id, "returned", today, formats=("html",))


def test_the_year_counts_from_the_register_with_each_figure_s_numbers(reg):
    today = today_in("homer")
    start, end = today.replace(month=1, day=1), today
    returned = returned_plan(reg, "Elm", today)
    first = reg.issue("notice-of-violation", notice(), formats=("html",))
    corrected = reg.supersede(first.number, notice(), formats=("html",))
    found = {f.category: f for f in figures(reg.engine, "homer", start, end)}
    assert found["Plans reviewed"].numbers == (
        f"review {today.isoformat()} of Elm SWPPP, revision 1",
    )
    assert found["Plans returned"].numbers == (returned.number,)
    assert found["Plans approved"].count == 0
    assert found["Notices of violation"].numbers == (corrected.number,)
    assert "not superseded" in found["Notices of violation"].rule
    assert first.number not in as_csv(list(found.values()))
    assert figures(reg.engine, "macedon", start, end)[0].count == 0


def test_a_corrected_letter_counts_once_and_a_withdrawn_notice_is_not_counted(reg):
    """A return letter corrected (docgen supersede) is counted under its correction's
    number, never the original's; a notice of violation withdrawn is no notice in the
    year (its withdrawal is listed among the court outcomes); each rule says so."""
    today = today_in("homer")
    start = today.replace(month=1, day=1)
    returned = returned_plan(reg, "Oak", today)
    with db.read_session(reg.engine) as session:
        case = {k: v for k, v in document_row(session, returned.number).case.items()}
    case.pop("number", None)
    corrected = reg.supersede(returned.number, case, formats=("html",))
    kept = reg.issue("notice-of-violation", notice(), formats=("html",))
    gone = reg.issue("notice-of-violation", notice(), formats=("html",))
    reg.record_disposition(gone.number, "withdrawn", today)
    found = {f.category: f for f in figures(reg.engine, "homer", start, today)}
    assert found["Plans returned"].numbers == (corrected.number,)
    assert "corrected" in found["Plans returned"].rule
    assert found["Notices of violation"].numbers == (kept.number,)
    assert "withdrawn" in found["Notices of violation"].rule
    assert found["Court outcomes"].numbers == (f"{gone.number}: withdrawn {today.isoformat()}",)
    listed = as_csv(list(found.values()))
    assert returned.number not in listed


def test_two_thousand_documents_are_each_counted_once_under_their_kind(reg):
    today = today_in("homer")
    now = datetime.now(UTC)
    kinds = ("inspection-report", "notice-of-deficiency", "notice-of-violation", "stop-work-order")
    with db.write_session(reg.engine) as session:
        session.add_all(
            Document(
                jurisdiction="homer",
                kind=kinds[n % 4],
                number=f"T-{n:05d}",
                issued=today - timedelta(days=n % 300),
                case={},
                docgen_version="test",
                pack_version="test",
                recorded_at=now,
                recorded_by="test",
            )
            for n in range(2100)
        )
    year = figures(reg.engine, "homer", today - timedelta(days=365), today)
    found = {f.category: f for f in year}
    assert sum(f.count for f in found.values()) == 2100
    for category, kind in (
        ("Inspections", 0),
        ("Notices of deficiency", 1),
        ("Notices of violation", 2),
        ("Stop-work orders", 3),
    ):
        assert sorted(found[category].numbers) == [f"T-{n:05d}" for n in range(kind, 2100, 4)]


def test_the_pack_s_reporting_period_is_named_by_the_year_it_ends_in():
    """The MS4 permit's year, March 10 to March 9 (the municipality's practice: the seeds
    name no period); a period starting January 1 is the calendar year."""
    assert period("03-10", 2026) == (date(2025, 3, 10), date(2026, 3, 9))
    assert period("01-01", 2026) == (date(2026, 1, 1), date(2026, 12, 31))
    assert period("03-01", 2024) == (date(2023, 3, 1), date(2024, 2, 29))
    for day in (date(2026, 3, 9), date(2025, 3, 10), date(2025, 12, 31)):
        first, last = period("03-10", named_holding("03-10", day))
        assert first <= day <= last
    assert named_holding("01-01", date(2026, 12, 31)) == 2026
    assert load_pack("homer").year.starts.ref == "Village of Homer practice"
    assert load_pack("macedon").year.form_items == {}


def test_a_period_not_begun_or_not_named_is_refused_saying_what_to_give():
    today = today_in("homer")
    with pytest.raises(DocgenError, match=r"has not begun .* choose a period that has begun"):
        reporting_period("homer", today.year + 2, None, None)
    with pytest.raises(DocgenError, match=r"which period. Give --period YEAR"):
        reporting_period("homer", None, None, None)
    with pytest.raises(DocgenError, match="give --from and --to together"):
        reporting_period("homer", today.year, today, None)
    with pytest.raises(DocgenError, match="is before --from"):
        reporting_period("homer", None, today, today - timedelta(days=1))


def test_the_command_line_reports_the_pack_s_period_to_today(reg, tmp_path):
    """`docgen year --period Y`: the pack's period holding today, its figures to today (the
    period has not ended), read back as CSV; a superseded notice never in it."""
    today = today_in("homer")
    named = named_holding("03-10", today)
    first = reg.issue("notice-of-violation", notice(), formats=("html",))
    corrected = reg.supersede(first.number, notice(), formats=("html",))

    def run(*args):
        return docgen(
            "year",
            "--jurisdiction",
            "homer",
            *args,
            cwd=tmp_path,
            env={"DOCGEN_DATABASE_URL": reg.url},
        )

    start, end = period("03-10", named)
    shown = run("--period", str(named))
    assert shown.returncode == 0, shown.stderr
    assert f"DRAFT for public review: {start.isoformat()} to {end.isoformat()}" in shown.stdout
    assert f"The period has not ended: figures to {today.isoformat()}" in shown.stdout
    rows = {
        r["category"]: r
        for r in csv.DictReader(io.StringIO(run("--period", str(named), "--csv").stdout))
    }
    assert rows["Notices of violation"]["count"] == "1"
    assert rows["Notices of violation"]["documents"] == corrected.number
    assert first.number not in str(rows)
    refused = run("--period", str(named + 2))
    assert refused.returncode == 1
    assert "has not begun" in refused.stderr and "Traceback" not in refused.stderr
    unnamed = run("--period", str(named), "--out", str(tmp_path / "report"))
    assert unnamed.returncode == 2
    assert "give --prepared-by and --title" in unnamed.stderr
    made = run(
        "--period", str(named), "--out", str(tmp_path / "report"),
        "--prepared-by", "Ellen M. Corbett", "--title", "Village Clerk",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    pdf = next(Path(line) for line in made.stdout.split() if line.endswith(".pdf"))
    text = " ".join(pdf_text(pdf.read_bytes()).split())
    assert "DRAFT for public review" in text and corrected.number in text
    assert first.number not in text


def test_the_draft_report_read_back_from_its_pdf_docx_and_html(reg, tmp_path):
    """The report as a document: DRAFT for public review, each category with its count,
    rule and numbers, the chart by month as inline SVG with its text alternatives (a
    label, and a table of the same numbers), read back from the PDF, DOCX and HTML."""
    today = today_in("homer")
    named = named_holding("03-10", today)
    when = reporting_period("homer", named, None, None)
    issued = reg.issue("notice-of-violation", notice(), formats=("html",))
    found = figures(reg.engine, "homer", when.start, when.through)
    months = by_month(found, when)
    assert months[0].label == f"March 10-31, {when.start.year}"
    assert sum(m.counts["notices-of-violation"] for m in months) == 1
    by = {"name": "Ellen M. Corbett", "title": "Village Clerk"}
    paths = {p.suffix: p for p in write_report("homer", when, found, by, tmp_path)}
    assert set(paths) == {".pdf", ".docx", ".html"}
    text = " ".join(pdf_text(paths[".pdf"].read_bytes()).split())
    assert "DRAFT for public review" in text
    assert "Notices of violation 1 each notice issued in the period and not superseded" in text
    assert "Notices of violation: 1 Each notice issued in the period" in text
    assert issued.number in text
    assert f"The period has not ended: the figures run to {long_date(today)}" in text
    assert "The chart’s numbers: documents issued each month" in text
    assert "by Ellen M. Corbett, Village Clerk" in text
    assert issued.number in docx_text(paths[".docx"].read_bytes())
    html = paths[".html"].read_text(encoding="utf-8")
    assert '<svg class="year-chart" role="img" aria-label="Bar chart by month of' in html
    assert html.count("<rect ") == 4 * len(months)
    assert "(the reporting year of the State’s stormwater permit" in text
    chosen = reporting_period("homer", None, today.replace(day=1), today)
    found = figures(reg.engine, "homer", chosen.start, chosen.through)
    pdf = {p.suffix: p for p in write_report("homer", chosen, found, by, tmp_path / "chosen")}
    text = " ".join(pdf_text(pdf[".pdf"].read_bytes()).split())
    assert "a period chosen for this report, not the reporting year the Village of Homer" in text
    assert "reporting year of the State" not in text
