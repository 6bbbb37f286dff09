"""Restoration of lands (§ 228-79C(6); LAW.md §§ 8, 14): the notice requiring restoration
by the officer's date; after that date and an inspection on or after it that found the
restoration not done, the statement of the cost; the notice of lien in the County Clerk's
recordable form; payments, and the release once paid in full."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest
import yaml

from docgen.register import RegisterError
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of
from tests.register.test_register_occupancy import PREMISES, flat, served_order

ROOT = Path(__file__).resolve().parents[2]
RESTORE = "regrade the cleared north slope, seed and mulch it"
ITEMS = [("Regrading the north slope", Decimal("750.00")), ("Seed and mulch", Decimal("410.50"))]


def inspection(day, deficient: bool = True) -> dict:
    data = yaml.safe_load(
        (ROOT / "fixtures" / "inspection-report" / "homer-silt-fence-washout.yaml").read_text()
    )
    data.pop("number")
    data["issued"] = data["inspected"] = day.isoformat()
    finding = {
        "practice": "North slope",
        "found": "Still bare and eroding; no regrading, seed or mulch",
        "result": "deficient" if deficient else "satisfactory",
    }
    if deficient:
        finding |= {
            "requirement": "§ 228-78D(1)",
            "corrective_action": "Regrade, seed and mulch the slope",
            "due": (day + timedelta(days=7)).isoformat(),
        }
    data["findings"] = [finding]
    return data


def restoration(reg):
    swo = served_order(reg)
    notice = reg.require_restoration(
        swo.number, RESTORE, swo.issued + timedelta(days=7), swo.issued, formats=("pdf", "docx")
    )
    return swo, notice


def test_the_notice_requires_restoration_by_the_officers_date_and_is_served(reg):
    swo = served_order(reg)
    with pytest.raises(RegisterError, match="not after the notice's date"):
        reg.require_restoration(swo.number, RESTORE, swo.issued, swo.issued)
    with pytest.raises(RegisterError, match="missing: what is to be restored"):
        reg.require_restoration(swo.number, " ", swo.issued + timedelta(days=7), swo.issued)
    _, notice = (
        swo,
        reg.require_restoration(
            swo.number, RESTORE, swo.issued + timedelta(days=7), swo.issued, formats=("pdf", "docx")
        ),
    )
    day = (swo.issued + timedelta(days=7)).strftime("%B %-d, %Y")
    for text in (flat(pdf_text(notice.files["pdf"])), flat(docx_text(notice.files["docx"]))):
        assert "Notice Requiring Restoration of Lands" in text
        assert f"restore the land to its undisturbed condition: {RESTORE}" in text
        assert f"Restoration must be undertaken by {day}" in text
        assert "“reasonable time after notice”" in text
        assert "(Village of Homer practice)" in text
        assert (
            "“Any violator may be required to restore land to its undisturbed condition. In "
            "the event that restoration is not undertaken within a reasonable time after "
            "notice, the Village of Homer may take necessary corrective action, the cost of "
            "which shall become a lien upon the property until paid.” (§ 228-79C(6))"
        ) in text
    served = reg.record_service(
        notice.number, service_of("personal-delivery", notice.issued), formats=("pdf",)
    )
    assert f"No. {notice.number}" in flat(pdf_text(served.affidavit.files["pdf"]))


def test_cost_lien_payments_and_release_in_order_and_never_before(reg):
    swo, notice = restoration(reg)
    restore_by = swo.issued + timedelta(days=7)
    reg.record_service(notice.number, service_of("personal-delivery", notice.issued))
    early = reg.issue("inspection-report", inspection(restore_by - timedelta(days=1)))
    with pytest.raises(RegisterError, match="before the date set for restoration"):
        reg.state_restoration_cost(notice.number, early.number, ITEMS, restore_by - timedelta(1))
    with pytest.raises(RegisterError, match=r"before the date set for restoration .*record an"):
        reg.state_restoration_cost(notice.number, early.number, ITEMS, restore_by)
    fine = reg.issue("inspection-report", inspection(restore_by, deficient=False))
    with pytest.raises(RegisterError, match="found nothing deficient"):
        reg.state_restoration_cost(notice.number, fine.number, ITEMS, restore_by)
    with pytest.raises(RegisterError, match="is not an inspection report"):
        reg.state_restoration_cost(notice.number, swo.number, ITEMS, restore_by)
    found = reg.issue("inspection-report", inspection(restore_by))
    cost = reg.state_restoration_cost(
        notice.number, found.number, ITEMS, restore_by, formats=("pdf", "docx")
    )
    for text in (flat(pdf_text(cost.files["pdf"])), flat(docx_text(cost.files["docx"]))):
        assert "Statement of the Cost of Corrective Action" in text
        assert f"Inspection Report No. {found.number}" in text
        assert "Regrading the north slope $750.00" in text
        assert "Total cost: one thousand one hundred sixty dollars and fifty cents ($1,160.50)" in (
            text
        )
    assert reg.document(cost.number).about == notice.number
    with pytest.raises(RegisterError, match="has its statement of cost"):
        reg.state_restoration_cost(notice.number, found.number, ITEMS, restore_by)
    with pytest.raises(RegisterError, match="is a notice requiring restoration, not a statement"):
        reg.record_lien(notice.number, restore_by)
    with pytest.raises(RegisterError, match="before the statement"):
        reg.record_lien(cost.number, restore_by - timedelta(days=1))
    lien = reg.record_lien(cost.number, restore_by, formats=("pdf", "docx"))
    for text in (flat(pdf_text(lien.files["pdf"])), flat(docx_text(lien.files["docx"]))):
        assert text.index("Space above reserved for the Cortland County Clerk") < text.index(
            "Notice of Lien"
        )
        assert "Tax Map No. (Section-Block-Lot): 87.17-01-12.000" in text
        assert "Record and return to:" in text
        assert "owned by Cayuga Street Holdings LLC" in text
        assert "($1,160.50)" in text and "until paid" in text
        assert "State of New York" in text and "County of Cortland" in text
        assert "(§ 228-79C(6))" not in text  # no citation after a clause (LAW.md § 8)
    with pytest.raises(RegisterError, match=r"balance is \$1,160.50"):
        reg.release_lien(lien.number, restore_by)
    with pytest.raises(RegisterError, match="more than the balance"):
        reg.record_lien_payment(lien.number, Decimal("2000"), restore_by, "Cayuga Street Holdings")
    left = reg.record_lien_payment(lien.number, Decimal("1000"), restore_by, "Cayuga Street LLC")
    assert left == Decimal("160.50")
    with pytest.raises(RegisterError, match=r"balance is \$160.50"):
        reg.release_lien(lien.number, restore_by)
    reg.record_lien_payment(lien.number, Decimal("160.50"), restore_by, "Cayuga Street LLC")
    freed = reg.release_lien(lien.number, restore_by, formats=("pdf", "docx"))
    for text in (flat(pdf_text(freed.files["pdf"])), flat(docx_text(freed.files["docx"]))):
        assert "Release of Lien" in text and f"Notice of Lien No. {lien.number}" in text
        assert "Total paid $1,160.50" in text
    with pytest.raises(RegisterError, match="already released"):
        reg.release_lien(lien.number, restore_by)
    with pytest.raises(RegisterError, match="was released by"):
        reg.record_lien_payment(lien.number, Decimal("1"), restore_by, "Cayuga Street LLC")


def test_the_commands_carry_the_steps_and_refuse_in_one_line(reg, tmp_path):
    swo = served_order(reg)
    env = {"DOCGEN_DATABASE_URL": reg.url}
    day = swo.issued.isoformat()
    by = (swo.issued + timedelta(days=7)).isoformat()
    run = docgen(
        "require-restoration", swo.number, "--restore", RESTORE, "--restore-by", by,
        "--date", day, "-o", str(tmp_path), cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    notice = run.stdout.split()[1]
    run = docgen(
        "state-restoration-cost", notice, "--inspection", swo.number, "--item",
        "Seed and mulch=410.50", "--date", by, cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "has no recorded service that stands" in run.stderr
    run = docgen(
        "state-restoration-cost", notice, "--inspection", swo.number, "--item", "no amount",
        cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 2 and "WHAT=AMOUNT" in run.stderr
    run = docgen("release-lien", notice, cwd=tmp_path, env=env)
    assert run.returncode == 1 and "not a release of lien" not in run.stderr
    assert "is a notice requiring restoration, not a notice of lien" in run.stderr


def test_each_step_from_the_command_line_and_its_document_read_back(reg, tmp_path):
    """The commands that carry occupancy's release and restoration's cost, lien, payments
    and release, each succeeding, its issued PDF read back (before, the command line was
    tested only refusing these five, or not at all)."""
    swo = served_order(reg)
    env = {"DOCGEN_DATABASE_URL": reg.url}
    day, by = swo.issued.isoformat(), swo.issued + timedelta(days=7)
    out = ("-f", "pdf", "-o", f"{tmp_path}/")

    def issued(*args: str) -> tuple[str, str]:
        run = docgen(*args, *out, cwd=tmp_path, env=env)
        assert run.returncode == 0, run.stderr
        number = run.stdout.split()[1]
        (path,) = tmp_path.glob(f"{number}-*.pdf")
        return number, flat(pdf_text(path.read_bytes()))

    held, _ = issued("withhold-occupancy", swo.number, "--premises", PREMISES, "--date", day)
    reg.record_service(held, service_of("personal-delivery", swo.issued))
    _, text = issued("release-occupancy", held, "--date", day)
    assert "Release of Order Preventing Occupancy" in text
    assert f"Order Preventing Occupancy No. {held}" in text and "is released in writing" in text
    notice = reg.require_restoration(swo.number, RESTORE, by, swo.issued, formats=("html",))
    reg.record_service(notice.number, service_of("personal-delivery", swo.issued))
    found = reg.issue("inspection-report", inspection(by), formats=("html",)).number
    cost, text = issued(
        "state-restoration-cost", notice.number, "--inspection", found, "--item",
        "Regrading the north slope=750.00", "--item", "Seed and mulch=410.50",
        "--date", by.isoformat(),
    )  # fmt: skip
    assert "Statement of the Cost of Corrective Action" in text
    assert f"Inspection Report No. {found}" in text
    assert "one thousand one hundred sixty dollars and fifty cents ($1,160.50)" in text
    lien, text = issued("record-lien", cost, "--date", by.isoformat())
    assert "Notice of Lien" in text and "until paid" in text
    assert "Tax Map No. (Section-Block-Lot): 87.17-01-12.000" in text
    pay = ("record-lien-payment", lien, "--paid-on", by.isoformat(), "--paid-by", "Cayuga LLC")
    run = docgen(*pay, "--amount", "460.50", cwd=tmp_path, env=env)
    assert run.returncode == 0 and "$700.00" in run.stdout, (run.stdout, run.stderr)
    run = docgen("release-lien", lien, "--date", by.isoformat(), cwd=tmp_path, env=env)
    assert run.returncode == 1 and "$700.00" in run.stderr and "Traceback" not in run.stderr
    assert docgen(*pay, "--amount", "700", cwd=tmp_path, env=env).returncode == 0
    _, text = issued("release-lien", lien, "--date", by.isoformat())
    assert "Release of Lien" in text and f"Notice of Lien No. {lien}" in text
    assert "Total paid $1,160.50" in text
