"""A municipality whose law gives no appeal of a notice (tests/data/packs/wrenfield.yaml,
five elements): the register records its notices and their service as any other, keeps no
appeal deadline for them and puts none on the calendar (LAW.md § 1; issue 33)."""

from __future__ import annotations

from datetime import date

import pytest
import yaml
from conftest import ROOT

from docgen.law.packs import ENV, load_pack
from docgen.pack_check import moved_into
from docgen.register import Issue
from docgen.register.reading.due import calendar
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

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
        service_of("certified-mail", date(2026, 11, 4), article="9407 1118 9876 5432 1012 45"),
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
    reg.record_service(
        first.number, service_of("personal-delivery", date(2026, 11, 4)), formats=HTML
    )
    corrected = {**case, "remedies": [{**case["remedies"][0], "due": "2026-11-20"}]}
    second = reg.supersede(first.number, corrected, Issue(jurisdiction="wrenfield"), formats=HTML)
    text = " ".join(html_text(second.files["html"].decode()).split())
    assert f"This document replaces No. {first.number}" in text
    assert "appeal" not in text.lower() and "(f)" not in text


def test_the_appeal_period_runs_from_service_on_whom_the_notice_is_issued_to(
    reg, tmp_path, monkeypatch
):
    """Under a law that issues notices to 'the landowner, applicant and/or developer' (and
    gives an appeal), the period runs from service on the person named first, whatever
    their role; service on a person copied starts none."""
    data = yaml.safe_load((ROOT / "docgen" / "law" / "homer.yaml").read_text("utf-8"))
    enforcement = data.pop("enforcement")
    data["enforcement"] = {
        "addressed_to": {"value": ["landowner", "developer"], "ref": "§ 228-79C(1)"},
        **enforcement,
    }
    text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    (tmp_path / "walworth.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv(ENV, str(tmp_path))
    case = {**notice("2026-11-03"), "jurisdiction": "walworth"}
    landowner = case["recipient"]
    developer = {**landowner, "role": "developer", "name": "Ridge Builders LLC"}
    issued = reg.issue(
        "notice-of-violation",
        {**case, "recipient": developer, "copies_to": [landowner]},
        formats=HTML,
    )
    copied = reg.record_service(
        issued.number,
        service_of("personal-delivery", date(2026, 11, 4), to=landowner["name"]),
        formats=HTML,
    )
    assert copied.service.appeal_deadline is None
    served = reg.record_service(
        issued.number, service_of("personal-delivery", date(2026, 11, 5)), formats=HTML
    )
    assert served.service.appeal_deadline == date(2026, 11, 20)  # 15 days, a Friday
