"""A notice issued through the register before service: (f) states the appeal period from
service with a blank certificate of service; `record-service` then issues the affidavit
that states the last day to appeal. Alone, `docgen render` still refuses such a notice."""

from __future__ import annotations

from datetime import date

import pytest
import yaml
from conftest import running_head

from docgen.api import FORMATS
from tests.helpers.cli import docgen
from tests.helpers.readback import (
    docx_text,
    html_text,
    parity_diff,
    pdf_text,
    table_heads,
    without_complex_script,
    words,
)
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of

FROM_SERVICE = "within 15 days of service of this notice"
BLANK = "Date of service: ______________________________"


def unserved(issued: str = "2026-11-16") -> dict:
    data = notice(issued)
    del data["served"]
    return data


def squash(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("register_url", ["sqlite"], indirect=True)
def test_issued_before_service_the_certificate_is_left_blank_in_every_format(reg):
    issued = reg.issue("notice-of-violation", unserved(), formats=FORMATS)
    html = issued.files["html"].decode()
    texts = {
        "html": html_text(html),
        "pdf": pdf_text(issued.files["pdf"]),
        "docx": docx_text(issued.files["docx"]),
    }
    for fmt, text in texts.items():
        text = squash(text)
        assert FROM_SERVICE in text, fmt
        assert "(§ 228-79C(1)(f))" in text, fmt
        assert BLANK in text and "Means of service: ____" in text, fmt
        assert "Served by (name and title): ____" in text, fmt
        # No computed date: personal service on the issue day would end December 1.
        assert "Last day to file" not in text and "December 1, 2026" not in text, fmt
    heads = tuple(h for h in running_head(html).split("\n") if h)
    expected = words(texts["html"])
    # The PDF's text of the language-access block's complex scripts comes back reshaped
    # (read back on their own in tests/test_taglines.py), as in tests/test_parity.py.
    shaped = words(without_complex_script(texts["html"]))
    pdf_words = words(without_complex_script(texts["pdf"]), heads)
    assert parity_diff(shaped, pdf_words, table_heads(html)) == []
    assert parity_diff(expected, words(texts["docx"]), []) == []


def test_plain_render_prints_first_too(register_url, tmp_path):
    case, out = tmp_path / "case.yaml", f"{tmp_path}/out/"
    case.write_text(yaml.safe_dump({**unserved(), "number": "NOV-2026-0001"}), encoding="utf-8")
    alone = docgen("render", "notice-of-violation", case, "-o", f"{tmp_path}/plain/", "-f", "html")
    assert alone.returncode == 0, alone.stderr  # print first, serve second (LAW.md § 2)
    (plain,) = (tmp_path / "plain").iterdir()
    assert FROM_SERVICE in squash(html_text(plain.read_text(encoding="utf-8")))
    issued = docgen("issue", "notice-of-violation", case, "-o", out, "-f", "html")
    assert issued.returncode == 0, issued.stderr
    (page,) = (tmp_path / "out").iterdir()
    assert FROM_SERVICE in squash(html_text(page.read_text(encoding="utf-8")))


def test_record_service_then_states_the_last_day_to_appeal(reg):
    issued = reg.issue("notice-of-violation", unserved(), formats=("html",))
    served = reg.record_service(
        issued.number, service_of("personal-delivery", date(2026, 11, 18)), formats=("html",)
    )
    # Delivered 2026-11-18: day 15 is 2026-12-03, a Thursday.
    assert served.service.appeal_deadline == date(2026, 12, 3)
    text = squash(html_text(served.affidavit.files["html"].decode()))
    assert f"Notice of Violation No. {issued.number}" in text
    assert "last day" not in text.lower()  # the affidavit swears to facts (LAW.md § 10)
    assert reg.document(issued.number).appeal_deadline == date(2026, 12, 3)
