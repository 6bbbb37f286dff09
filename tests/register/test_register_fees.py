"""A statement of fees from the register (§ 228-79D; LAW.md § 15), on SQLite and
PostgreSQL: each review of the site's SWPPP and each inspection of the site the register
holds in the period, at the rates of the municipality's fee schedule (a setting), the
total in words and figures, read back from the PDF; no fee without a recorded service or
without a schedule; a payment recorded against it, never more than the balance."""

from __future__ import annotations

import copy
from datetime import timedelta

import pytest

from docgen.register import RegisterError
from docgen.register.matter.inspections import record_inspection_case
from docgen.register.plans import fees as fee_register
from docgen.register.plans.swppp import add_plan, record_review
from docgen.register.sites.invitations import add_site, today_in
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import INSPECTION
from tests.helpers.readback import pdf_text

ADDRESS = {"street": "120 Cayuga Street", "city": "Homer", "state": "NY", "zip": "13077"}
OFFICER = {"name": "Dana R. Whitcomb", "title": "Code Enforcement Officer"}
SCHEDULE = (
    "fee_schedule:\n"
    "  adopted: adopted by the Board of Trustees, resolution 2026-14, January 12, 2026\n"
    "  swppp_review: 150.00\n"
    "  inspection: 75.00\n"
)


@pytest.fixture
def schedule(tmp_path, monkeypatch):
    folder = tmp_path / "settings"
    folder.mkdir()
    (folder / "homer.yaml").write_text(SCHEDULE, encoding="utf-8")
    monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))


def test_a_site_s_reviews_and_inspections_at_the_schedule_s_rates(reg, schedule, monkeypatch):
    from docgen.law.packs import load_pack

    today = today_in("homer")
    where = add_site(
        reg.engine,
        "homer",
        {"name": "Cayuga Street Townhomes"},
        {"address": ADDRESS},
        None,
        "clerk",
    )
    start = today - timedelta(days=364)  # the site's year: the twelve months to today
    with pytest.raises(RegisterError, match="holds no review or inspection"):
        fee_register.statement(
            reg,
            where,
            start,
            today,
            today,
            payer="T. R. Development LLC",
            officer=OFFICER,
            formats=("pdf",),
        )
    plan = add_plan(
        reg.engine,
        where,
        title="Cayuga SWPPP",
        revision="1",
        preparer="L. Ortiz",
        qualification="P.E.",
        received=today - timedelta(days=15),
        by="clerk",
    )
    given = {i.id: ("present", None) for i in load_pack("homer").swppp.items}
    record_review(
        reg.engine,
        plan.id,
        given,
        reviewer="Dana R. Whitcomb",
        on=today - timedelta(days=10),
        by="clerk",
    )
    inspection = copy.deepcopy(INSPECTION)
    inspection["issued"] = inspection["inspected"] = (today - timedelta(days=5)).isoformat()
    for finding in inspection["findings"]:
        finding.pop("due", None)
        finding.pop("corrective_action", None)
        finding.pop("requirement", None)
        finding["result"] = "satisfactory"
    report = record_inspection_case(reg, inspection, formats=("html",))
    elsewhere = copy.deepcopy(inspection)
    elsewhere["site"] = {"address": {**ADDRESS, "street": "9 Elm Street"}}
    other = record_inspection_case(reg, elsewhere, formats=("html",))
    before = copy.deepcopy(inspection)  # the day before the year: another statement's
    before["issued"] = before["inspected"] = (start - timedelta(days=1)).isoformat()
    earlier = record_inspection_case(reg, before, formats=("html",))
    issued = fee_register.statement(
        reg,
        where,
        start,
        today,
        today,
        payer="T. R. Development LLC",
        officer=OFFICER,
        formats=("pdf",),
    )
    assert issued.kind == "fee-statement" and issued.number.startswith("FS-")
    text = " ".join(pdf_text(issued.files["pdf"]).split())
    assert "Statement of Fees" in text and "(§ 228-79D)" in text
    assert "reasonable costs at prevailing rates for review of SWPPPs, inspections" in text
    assert "Village of Homer fee schedule, adopted by the Board of Trustees" in text
    assert f"Inspection Report No. {report.number}" in text and other.number not in text
    assert earlier.number not in text
    assert "Review of the SWPPP “Cayuga SWPPP”, revision 1" in text
    assert "two hundred twenty-five dollars ($225.00)" in text
    with pytest.raises(RegisterError, match="more than the balance due"):
        fee_register.pay(reg, issued.number, "300", today, "check no. 1234")
    with pytest.raises(RegisterError, match="to today"):
        fee_register.pay(reg, issued.number, "100", today + timedelta(days=1), "check no. 1234")
    assert fee_register.pay(reg, issued.number, "$100.00", today, "check no. 1234") == 125
    assert fee_register.balance(reg, issued.number) == (225, 100)
    with pytest.raises(RegisterError, match="a payment is of a statement of fees"):
        fee_register.pay(reg, report.number, "10", today, "cash")


def test_no_statement_without_the_municipality_s_schedule(reg, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_SETTINGS", str(tmp_path / "none"))
    today = today_in("homer")
    where = add_site(reg.engine, "homer", {"name": "Elm"}, {"address": ADDRESS}, None, "clerk")
    with pytest.raises(RegisterError, match="has no fee schedule in its settings"):
        fee_register.statement(
            reg, where, today, today, today, payer="X", officer=OFFICER, formats=("pdf",)
        )


def test_the_command_line_states_fees_and_records_a_payment(reg, schedule, tmp_path):

    from docgen.law.packs import load_pack

    today = today_in("homer")
    where = add_site(reg.engine, "homer", {"name": "Elm"}, {"address": ADDRESS}, None, "clerk")
    plan = add_plan(
        reg.engine,
        where,
        title="Elm SWPPP",
        revision="1",
        preparer="L. Ortiz",
        qualification="P.E.",
        received=today,
        by="clerk",
    )
    given = {i.id: ("present", None) for i in load_pack("homer").swppp.items}
    record_review(reg.engine, plan.id, given, reviewer="Dana R. Whitcomb", on=today, by="clerk")

    def run(*args):
        return docgen("fees", *args, cwd=tmp_path, env={"DOCGEN_DATABASE_URL": reg.url})

    on = today.isoformat()
    bad = run(
        "statement",
        str(where),
        "--from",
        on,
        "--to",
        on,
        "--date",
        on,
        "--payer",
        "Elm LLC",
        "--officer",
        "Dana Whitcomb",
    )
    assert bad.returncode != 0 and "'Name, Title'" in bad.stderr and "Traceback" not in bad.stderr
    made = run(
        "statement",
        str(where),
        "--from",
        on,
        "--to",
        on,
        "--date",
        on,
        "--payer",
        "Elm LLC",
        "--officer",
        "Dana R. Whitcomb, Code Enforcement Officer",
        "-f",
        "pdf",
    )
    assert made.returncode == 0, made.stderr
    number = made.stdout.split()[1]
    (pdf,) = tmp_path.glob("FS-*.pdf")
    assert "one hundred fifty dollars ($150.00)" in " ".join(pdf_text(pdf.read_bytes()).split())
    paid = run("pay", number, "--amount", "150", "--date", on, "--method", "cash")
    assert paid.returncode == 0 and "balance due 0.00" in paid.stdout, paid.stderr
    again = run("pay", number, "--amount", "1", "--date", on, "--method", "cash")
    assert again.returncode == 1 and "more than the balance due" in again.stderr
