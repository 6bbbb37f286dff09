"""docgen lift: the confirmation of compliance recorded and issued as a written notice
lifting a stop-work order (§ 228-79C(2); LAW.md § 3); the register then shows it lifted."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
import yaml

from docgen.register import RegisterError
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of

ROOT = Path(__file__).resolve().parents[2]


def order() -> dict:
    data = yaml.safe_load(
        (ROOT / "fixtures" / "stop-work-order" / "homer-silt-fence.yaml").read_text("utf-8")
    )
    for key in ("number", "served", "effective"):
        data.pop(key, None)
    return data


def test_a_served_order_is_lifted_in_writing_and_leaves_the_in_effect_list(reg):
    issued = reg.issue("stop-work-order", order(), formats=("html",))
    on = issued.issued
    with pytest.raises(RegisterError, match="has no recorded service"):
        reg.lift(issued.number, on)
    reg.record_service(issued.number, service_of("personal-delivery", on), formats=("html",))
    assert [d.number for d in reg.documents("stop-work-in-effect")] == [issued.number]
    with pytest.raises(RegisterError, match=r"--date .*: before service of .* was complete"):
        reg.lift(issued.number, date(on.year, on.month, on.day - 1))
    lifted = reg.lift(issued.number, date(2026, 12, 2), formats=("pdf", "docx"), by="Clerk Ames")
    assert lifted.number == "SWL-2026-0001" and lifted.kind == "stop-work-lifted"
    for text in (pdf_text(lifted.files["pdf"]), docx_text(lifted.files["docx"])):
        flat = " ".join(text.split())
        assert "Notice Lifting Stop-Work Order" in flat
        assert f"Stop-Work Order No. {issued.number}" in flat
        assert "is lifted as of December 2, 2026" in flat
        assert "(§ 228-79C(2))" in flat
    assert reg.documents("stop-work-in-effect") == []
    assert reg.document(lifted.number).about == issued.number
    assert reg.document(issued.number).lifted_by == lifted.number
    assert reg.document(lifted.number).lifted_by is None  # a lifting notice is not liftable
    with pytest.raises(RegisterError, match=f"already lifted by {lifted.number}"):
        reg.lift(issued.number, date(2026, 12, 3))


def test_only_an_order_is_lifted_and_the_command_refuses_in_one_line(reg, tmp_path):
    from tests.helpers.register_cases import notice

    issued = reg.issue("notice-of-violation", notice(), formats=("html",))
    with pytest.raises(RegisterError, match="only a stop-work order is lifted"):
        reg.lift(issued.number, date(2026, 12, 2))
    run = docgen(
        "lift", issued.number, "--date", "2026-12-02", cwd=tmp_path,
        env={"DOCGEN_DATABASE_URL": reg.url},
    )  # fmt: skip
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "only a stop-work order is lifted" in run.stderr
