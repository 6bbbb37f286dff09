"""A municipality whose law gives no appeal of a notice (tests/data/packs/wrenfield.yaml,
five elements): the register records its notices and their service as any other, keeps no
appeal deadline for them and puts none on the calendar (LAW.md § 1; issue 33)."""

from __future__ import annotations

from datetime import date

import pytest
from conftest import ROOT

from docgen.law.pack_check import moved_into
from docgen.law.packs import ENV, load_pack
from docgen.register.due import calendar
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice

HTML = ("html",)


@pytest.fixture(autouse=True)
def wrenfield(monkeypatch):
    monkeypatch.setenv(ENV, str(ROOT / "tests" / "data" / "packs"))


def test_a_notice_without_an_appeal_keeps_no_deadline(reg):
    case = moved_into(notice("2026-11-03"), load_pack("wrenfield"))
    issued = reg.issue("notice-of-violation", case, formats=HTML)
    assert issued.number.startswith("NOV-2026-")
    served = reg.record_service(
        issued.number,
        "certified-mail",
        date(2026, 11, 4),
        article="9407 1118 9876 5432 1012 45",
        formats=HTML,
    )
    assert served.affidavit.kind == "affidavit-of-service"
    assert served.service.appeal_deadline is None and served.service.notice_deadline is None
    kept = reg.document(issued.number, "wrenfield")
    assert kept.jurisdiction == "wrenfield"
    mine = [item for item in calendar(reg) if item.number == issued.number]
    assert [item.category for item in mine] == ["remedy"]  # and no appeal deadline


def test_a_correction_of_such_a_notice_states_no_appeal_period(reg):
    """The correction names what it replaces and which one was served, and no appeal."""
    case = moved_into(notice("2026-11-03"), load_pack("wrenfield"))
    first = reg.issue("notice-of-violation", case, formats=HTML)
    reg.record_service(first.number, "personal-delivery", date(2026, 11, 4), formats=HTML)
    corrected = {**case, "remedies": [{**case["remedies"][0], "due": "2026-11-20"}]}
    second = reg.supersede(first.number, corrected, "wrenfield", formats=HTML)
    text = " ".join(html_text(second.files["html"].decode()).split())
    assert f"This document replaces No. {first.number}" in text
    assert "appeal" not in text.lower() and "(f)" not in text
