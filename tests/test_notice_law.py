"""Notice of violation, the hand corrections a clerk no longer makes: the landowner is the
addressee, provisions exist, each violation counts on its own, service by each means,
where to appeal, the wording of (e) and "Other consequences", and warnings a clerk needs.
Rendered text is read back from the PDF and the DOCX."""

from __future__ import annotations

import pytest

from docgen import api
from docgen.errors import CaseInvalid
from tests.helpers.enforcement_cases import NOTICES, case_data, cli, squash, write_yaml
from tests.helpers.readback import docx_text, pdf_text

KIND = "notice-of-violation"
SECOND = next(p for p in NOTICES if "second" in p.stem)
THANKSGIVING = next(p for p in NOTICES if "thanksgiving" in p.stem)


def texts(renders, path):
    r = renders.get(KIND, path)
    return squash(pdf_text(r["pdf"])), squash(docx_text(r["docx"]))


def problems(tmp_path, data, kind=KIND):
    with pytest.raises(CaseInvalid) as err:
        api.check(kind, write_yaml(tmp_path, data))
    return {p.field: p for p in err.value.problems}


# -- addressee: § 228-79C(1) "issue a written notice of violation to the landowner" ------


def test_the_landowner_is_addressed_and_the_applicant_named_in_a_and_copied(renders):
    for text in texts(renders, THANKSGIVING):
        assert squash("Helen M. Brandt 15 Albany Street") in text  # in the window
        assert squash("Issued to the landowner.") in text
        assert squash("Landowner, to whom this notice is issued: Helen M. Brandt") in text
        assert squash("Applicant, who receives a copy: Albany Street Partners LP") in text
        assert squash("Copies to: Albany Street Partners LP (applicant)") in text


def test_a_notice_to_an_applicant_is_an_error_naming_a(tmp_path):
    data = case_data(THANKSGIVING)
    data["recipient"] = data.pop("copies_to")[0]
    found = problems(tmp_path, data)
    assert found["recipient.role"].provision == "§ 228-79C(1)(a)"
    assert "issued to the landowner" in found["recipient.role"].message


def test_a_notice_without_a_landowner_is_an_error_naming_a(tmp_path):
    data = case_data(THANKSGIVING)
    del data["recipient"]
    found = problems(tmp_path, data)
    assert "missing (a)" in found["recipient"].message
    assert "landowner" in found["recipient"].message


# -- provisions violated exist in the jurisdiction's article ------------------------------


@pytest.mark.parametrize("provision", ["§ 301-73A(1)", "Section 228-99(Z)", "§ 228-78D(9)"])
def test_a_provision_not_in_the_article_is_an_error(tmp_path, provision):
    data = case_data(SECOND)
    data["violations"][1]["provision"] = provision
    found = problems(tmp_path, data)
    p = found["violations[1].provision"]
    assert provision in p.message and "§§ 228-77 to 228-79" in p.message
    assert p.provision == "§ 228-79C(1)(c)"


def test_a_provision_that_is_not_a_citation_is_an_error(tmp_path):
    data = case_data(SECOND)
    data["violations"][1]["provision"] = "the silt fence rule"
    assert "not a citation" in problems(tmp_path, data)["violations[1].provision"].message


@pytest.mark.parametrize("provision", ["§ 228-78D(1)", "Section 228-79A(1)", "§ 228-78B(2)(b)[3]"])
def test_real_provisions_pass(tmp_path, provision):
    data = case_data(SECOND)
    data["violations"][1]["provision"] = provision
    assert api.check(KIND, write_yaml(tmp_path, data)) == []


def test_the_pack_lists_exactly_the_articles_subsections():
    """The pack's list is the adopted text's numbering, section by section."""
    import re

    import yaml
    from conftest import LAW_TEXT, ROOT

    for name, text in (("homer", "homer-ch228-art12.txt"), ("macedon", "macedon-ch301-art14.txt")):
        pack = yaml.safe_load((ROOT / "docgen" / "law" / f"{name}.yaml").read_text("utf-8"))
        listed = pack["code"]["provisions"]["value"]
        section, stack, found = None, [], {}
        for line in (LAW_TEXT / text).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if m := re.match(r"§ (\d+-\d+) ", line):
                section, stack = m.group(1), []
                found[section] = []
                continue
            depth = next(
                (
                    d
                    for d, pat in enumerate((r"[A-Z]\.", r"\(\d+\)", r"\([a-z]+\)", r"\[\d+\]"))
                    if re.fullmatch(pat, line)
                ),
                None,
            )
            if section is None or depth is None:
                continue
            stack = [*stack[:depth], line.rstrip(".")]
            found[section].append("".join(stack))
        assert listed == found


def test_the_silt_fence_sample_cites_maintenance_during_construction(renders):
    for text in texts(renders, SECOND):
        assert squash("§ 228-78D(1)") in text
        assert squash("§ 228-78B(1)") not in text


# -- each violation counts on its own; offense is not read in a notice --------------------


def test_offense_in_a_notice_is_an_error_that_says_so(tmp_path):
    data = case_data(SECOND) | {"offense": {"committed": "2026-10-01"}}
    found = problems(tmp_path, data)
    assert "each violation counts on its own" in found["offense"].message
    assert found["offense"].provision == "§ 228-79C(1)(e)"


def test_each_violations_dates_are_printed(renders):
    for text in texts(renders, SECOND):
        assert squash("October 1, 2026, continued through October 29, 2026") in text


# -- service and the appeal deadline ------------------------------------------------------


def service_text(tmp_path, served: dict) -> str:
    data = case_data(SECOND) | {"served": served}
    doc = api.build(KIND, write_yaml(tmp_path, data))
    pdf = pdf_text(api.to_bytes(doc, "pdf"))
    docx = docx_text(api.to_bytes(doc, "docx"))
    assert squash(pdf).count(squash("Last day to file")) == 1
    return " ".join(pdf.split()), " ".join(docx.split())


def test_mail_with_a_return_receipt_runs_from_receipt(renders):
    for text in texts(renders, SECOND):
        assert squash("mailed on November 4, 2026 and received on November 6, 2026") in text
        # The later of receipt (11-06) and mailing + 5 (11-09): day 15 is 11-24.
        assert squash("so the appeal period runs from November 9, 2026") in text
        assert squash("Last day to file a written notice of appeal: November 24, 2026") in text


def test_mail_without_receipt_adds_five_days(tmp_path):
    served = {"date": "2026-11-04", "means": "mail", "method": "first-class mail"}
    for text in service_text(tmp_path, served):
        assert "no date of receipt is known, so the appeal period runs from the mailing " in text
        assert "date plus five days, November 9, 2026. (CPLR 2103(b)(2), by analogy)" in text
        assert "Last day to file a written notice of appeal: November 24, 2026" in text


def test_posting_runs_from_the_later_of_posting_and_mailing(tmp_path):
    served = {"date": "2026-11-04", "means": "posting", "mailed": "2026-11-05", "method": "posting"}
    for text in service_text(tmp_path, served):
        assert "posted at the site on November 4, 2026 and mailed on November 5, 2026" in text
        # The later of posting (11-04) and mailing + 5 (11-10): day 15 is 11-25.
        assert "Last day to file a written notice of appeal: November 25, 2026" in text


@pytest.mark.parametrize(
    ("served", "field"),
    [
        ({"date": "2026-11-04", "method": "posting", "means": "posting"}, "served.mailed"),
        (
            {"date": "2026-11-04", "method": "m", "means": "mail", "received": "2026-11-03"},
            "served.received",
        ),
        (
            {"date": "2026-11-04", "method": "m", "means": "personal", "received": "2026-11-05"},
            "served.received",
        ),
        (
            {"date": "2026-11-04", "method": "m", "means": "mail", "mailed": "2026-11-05"},
            "served.mailed",
        ),
        ({"date": "2026-11-04", "method": "m", "means": "fax"}, "served.means"),
    ],
)
def test_service_dates_each_means_needs(tmp_path, served, field):
    data = case_data(SECOND) | {"served": served}
    assert field in problems(tmp_path, data)


def test_where_to_appeal_and_the_letterhead(renders):
    for text in texts(renders, SECOND):
        where = (
            "File the written notice of appeal with the Village Clerk, Village of Homer, "
            "Village Hall, 31 North Main Street, Homer, New York 13077; telephone (607) 749-3322; "
            "open Monday to Friday, 8:30 a.m. to 4:30 p.m., except public holidays."
        )
        assert squash(where) in text
        assert (
            squash("Village Hall, 31 North Main Street, Homer, New York 13077 · Telephone") in text
        )


# -- wording -----------------------------------------------------------------------------


def test_other_consequences_are_introduced_as_what_the_article_also_provides(renders):
    for text in texts(renders, SECOND):
        assert squash("Beside the penalties, the article also provides as follows.") in text
        assert squash("may also: The Village") not in text
        fines = (
            "In addition to or as an alternative to any penalty provided herein or by law, "
            "upon conviction"
        )
        assert squash(fines) in text


def test_prose_dates_are_long_form(renders):
    for path in NOTICES:
        for text in texts(renders, path):
            assert "2023-09-14" not in text and "2026-" not in text.replace("NOV-2026-", "")


# -- warnings and check ------------------------------------------------------------------


def test_a_remedy_due_on_a_weekend_or_holiday_is_warned(tmp_path):
    data = case_data(SECOND)
    data["remedies"][0]["due"] = "2026-11-07"  # a Saturday
    data["remedies"][1]["due"] = "2026-11-11"  # Veterans Day
    warnings = api.check(KIND, write_yaml(tmp_path, data))
    assert any("remedies[0].due: November 7, 2026 is a Saturday" in w for w in warnings)
    assert any("remedies[1].due: November 11, 2026 is Veterans Day" in w for w in warnings)
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 0 and "November 7, 2026 is a Saturday" in out


def test_check_reports_type_errors_and_legal_checks_together(tmp_path):
    data = case_data(SECOND)
    data["copies_to"][0]["role"] = "builder"  # a type error
    data["remedies"][0]["due"] = "2026-11-02"  # before issue: a legal check
    data["violations"][1]["provision"] = "§ 301-73A(1)"  # another legal check
    found = problems(tmp_path, data)
    assert {"copies_to[0].role", "remedies[0].due", "violations[1].provision"} <= set(found)
