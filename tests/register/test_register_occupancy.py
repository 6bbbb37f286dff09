"""Occupancy withheld (§ 228-79C(5); LAW.md § 14): the order preventing occupancy rests on
a served notice or order in the register, is served and proved like a stop-work order,
copies the building department, and is released in writing once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from docgen.register import RegisterError
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of
from tests.register.test_register_lift import order

PREMISES = "the two-story office building under construction at 120 Cayuga Street"


def flat(text: str) -> str:
    return " ".join(text.split())


def served_order(reg):
    issued = reg.issue("stop-work-order", order(), formats=("html",))
    reg.record_service(
        issued.number, service_of("personal-delivery", issued.issued), formats=("html",)
    )
    return issued


def test_an_order_rests_on_a_served_order_and_is_served_and_released_once(reg):
    swo = reg.issue("stop-work-order", order(), formats=("html",))
    with pytest.raises(RegisterError, match="has no recorded service that stands"):
        reg.withhold_occupancy(swo.number, PREMISES, swo.issued)
    reg.record_service(swo.number, service_of("personal-delivery", swo.issued), formats=("html",))
    with pytest.raises(RegisterError, match="missing: the building or land"):
        reg.withhold_occupancy(swo.number, " ", swo.issued)
    with pytest.raises(RegisterError, match="before service of"):
        reg.withhold_occupancy(swo.number, PREMISES, swo.issued - timedelta(days=1))
    held = reg.withhold_occupancy(swo.number, PREMISES, swo.issued, formats=("pdf", "docx"))
    assert held.kind == "occupancy-order" and held.number.startswith("OPO-")
    for text in (flat(pdf_text(held.files["pdf"])), flat(docx_text(held.files["docx"]))):
        assert "Order Preventing Occupancy" in text
        assert f"rests on Stop-Work Order No. {swo.number}" in text
        assert f"the occupancy of {PREMISES} is prevented" in text
        assert (
            "“If any building or land development activity is installed or conducted in "
            "violation of this article the CEO may prevent the occupancy of said building or "
            "land.” (§ 228-79C(5))"
        ) in text
        assert "releases it in writing" in text
        assert "Copy to: Village of Homer Building Department" in text
    assert reg.document(held.number).about == swo.number
    with pytest.raises(RegisterError, match="has no recorded service that stands"):
        reg.release_occupancy(held.number, held.issued)
    served = reg.record_service(
        held.number, service_of("personal-delivery", held.issued), formats=("pdf",)
    )
    affidavit = flat(pdf_text(served.affidavit.files["pdf"]))
    assert f"Order Preventing Occupancy No. {held.number}" in affidavit
    with pytest.raises(RegisterError, match="before service of"):
        reg.release_occupancy(held.number, held.issued - timedelta(days=1))
    freed = reg.release_occupancy(held.number, held.issued, formats=("pdf", "docx"))
    assert freed.kind == "occupancy-release"
    for text in (flat(pdf_text(freed.files["pdf"])), flat(docx_text(freed.files["docx"]))):
        assert "Release of Order Preventing Occupancy" in text
        assert f"Order Preventing Occupancy No. {held.number}" in text
        assert "is released in writing as of" in text
    with pytest.raises(RegisterError, match=f"already released by {freed.number}"):
        reg.release_occupancy(held.number, held.issued)
    with pytest.raises(RegisterError, match="is a stop-work order, not an order preventing"):
        reg.release_occupancy(swo.number, held.issued)


def test_a_superseded_or_wrong_document_is_refused_and_the_commands_say_so(reg, tmp_path):
    swo = served_order(reg)
    lifted = reg.lift(swo.number, swo.issued, formats=("html",))
    with pytest.raises(RegisterError, match="rests on a notice of violation or a stop-work order"):
        reg.withhold_occupancy(lifted.number, PREMISES, swo.issued)
    env = {"DOCGEN_DATABASE_URL": reg.url}
    run = docgen(
        "withhold-occupancy", swo.number, "--premises", PREMISES, "--date",
        swo.issued.isoformat(), "-o", str(tmp_path), cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    number = run.stdout.split()[1]
    assert number.startswith("OPO-")
    day = swo.issued.isoformat()
    run = docgen("release-occupancy", number, "--date", day, cwd=tmp_path, env=env)
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert "has no recorded service that stands" in run.stderr
    run = docgen(
        "withhold-occupancy", "NOV-2099-0001", "--premises", PREMISES, "--date",
        swo.issued.isoformat(), cwd=tmp_path, env=env,
    )  # fmt: skip
    assert run.returncode == 1 and "no document with that number" in run.stderr
