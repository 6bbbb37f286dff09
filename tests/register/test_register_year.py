"""The municipality's year in figures from the register only (LAW.md § 15), on SQLite and
PostgreSQL: plans reviewed, approved and returned, sites active, inspections and notices,
each count with its rule and document numbers; a superseded notice is never counted (its
correction is); a register of more than 2,000 documents has each counted once, under its
kind (how long that takes is benchmarks/year.py's to measure, not a test's)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from docgen.law.packs import load_pack
from docgen.register import db
from docgen.register.invitations import add_site, today_in
from docgen.register.models import Document
from docgen.register.swppp import add_plan, record_review
from docgen.register.year import as_csv, figures
from tests.helpers.register_cases import notice


def test_the_year_counts_from_the_register_with_each_figure_s_numbers(reg):
    today = today_in("homer")
    start, end = today.replace(month=1, day=1), today
    where = add_site(reg.engine, "homer", {"name": "Elm"}, {"description": "Elm lots"}, None, "m")
    plan = add_plan(
        reg.engine,
        where,
        title="Elm SWPPP",
        revision="1",
        preparer="L. Ortiz",
        qualification="P.E.",
        received=today,
        by="m",
    )
    given = {i.id: ("present", None) for i in load_pack("homer").swppp.items}
    given["soils"] = ("missing", None)
    record_review(reg.engine, plan.id, given, reviewer="D. Whitcomb", on=today, by="m")
    returned = reg.swppp_decide(plan.id, "returned", today, formats=("html",))
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
