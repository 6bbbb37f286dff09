"""Notice of violation: all six elements of § 228-79C(1), read back from the PDF and DOCX,
and `docgen check` naming each element that is missing or wrong."""

from __future__ import annotations

import copy
import re

import pytest

from docgen.cases.enforcement import ServedInfo
from docgen.law.deadlines import appeal_deadline, service_start
from docgen.law.packs import load_pack
from docgen.render.filters import long_date, money
from tests.helpers.enforcement_cases import NOTICES, case_data, cli, squash, write_yaml
from tests.helpers.readback import docx_text, pdf_text

HOMER = load_pack("homer")
KIND = "notice-of-violation"
SECOND = next(p for p in NOTICES if "second" in p.stem)
THANKSGIVING = next(p for p in NOTICES if "thanksgiving" in p.stem)


def expected_values(data: dict) -> dict[str, list[str]]:
    """The words each element must carry, from the case's own values."""
    r = data["recipient"]
    site = data["site"]
    deadline = appeal_deadline(service_start(ServedInfo(**data["served"]), HOMER).start, HOMER)
    copies = [w for c in data.get("copies_to", []) for w in (c["name"], c["address"]["street"])]
    site_words = [site["address"]["street"]] if "address" in site else [site["description"]]
    return {
        "(a)": [
            r["name"],
            *(r["address"][k] for k in ("street", "city", "zip")),
            "Landowner, to whom this notice is issued",
            *copies,
        ],
        "(b)": site_words + ([site["tax_map"]] if "tax_map" in site else []),
        "(c)": [w for v in data["violations"] for w in (v["nature"], v["provision"])],
        "(d)": [w for m in data["remedies"] for w in (m["measure"], long_date(m["due"]))],
        "(e)": ["upon conviction of a", "Each week's continued violation", "Total:"],
        "(f)": [
            "within 15 days of service of notice of violation",
            f"Last day to file a written notice of appeal: {long_date(deadline.last_day)}",
            *deadline.reasons,
        ],
    }


@pytest.mark.parametrize("path", NOTICES, ids=[p.stem for p in NOTICES])
@pytest.mark.parametrize("fmt", ["pdf", "docx"])
def test_each_element_is_in_the_document_with_the_case_values(renders, path, fmt):
    data = case_data(path)
    r = renders.get(KIND, path)
    text = squash(pdf_text(r["pdf"]) if fmt == "pdf" else docx_text(r["docx"]))
    for letter, values in expected_values(data).items():
        assert squash(f"§ 228-79C(1){letter}") in text, letter
        for value in values:
            assert squash(value) in text, (letter, value)
    officer = data["officer"]["name"]
    for value in ("Certificate of Service", data["served"]["method"], officer, data["number"]):
        assert squash(value) in text
    for ref in ("§ 228-79C(2)", "§ 228-79C(3)", "§ 228-79C(5)", "§ 228-79C(6)", "§ 228-79D"):
        assert squash(ref) in text


def test_penalty_is_the_engines_in_words_and_figures(renders):
    """(e) for the second offense: the silt fence continued four weeks (five violations)
    and the work first seen on its last day (one more, reading 7): six at $350-$700."""
    r = renders.get(KIND, SECOND)
    for text in (squash(pdf_text(r["pdf"])), squash(docx_text(r["docx"]))):
        assert squash("If convicted, this would be a second offense within five years") in text
        assert squash("This is a second offense") not in text  # never as a fact (reading 12)
        assert (
            squash("No. 1 October 1, 2026 October 29, 2026 (twenty-eight days later) five") in text
        )
        assert squash("No. 2 October 29, 2026 not continued one") in text
        assert squash("Total: for six violations") in text
        assert "sixviolations(6)" not in text and "chargedas" not in text
        total = "not less than two thousand one hundred dollars ($2,100.00)"
        assert squash(total) in text
        assert squash(f"nor more than four thousand two hundred dollars ({money(4200)})") in text


def test_penalty_words_are_the_penalty_statements():
    """Element (e) and the penalty statement come from the same macros: same sentences."""
    from docgen import api

    notice = api.build(KIND, SECOND).html
    data = {k: v for k, v in case_data(SECOND).items() if k not in ("served", "remedies")}
    statement = api.build("penalty-statement", data).html
    start = statement.index("<p>If convicted, this would be a ")
    end = statement.index("<h2>4.")
    for sentence in statement[start:end].split("</p>"):
        sentence = re.sub(r"<h2>[^<]*</h2>", "", sentence).strip()  # the statement's headings
        if "<table" not in sentence and sentence:
            assert sentence in notice


def test_thanksgiving_deadline_is_stated_with_its_reason(renders):
    text = " ".join(pdf_text(renders.get(KIND, THANKSGIVING)["pdf"]).split())
    text = text.replace("\u00a0", " ")
    assert "The notice was served by personal delivery on November 11, 2026" in text
    assert "Fifteen days after November 11, 2026 is November 26, 2026" in text
    assert "November 26, 2026 is Thanksgiving Day" in text
    assert (  # the statute's own words, from the pack
        "General Construction Law § 25-a(1): “When any period of time, computed from a "
        "certain day, within which or after which or before which an act is authorized or "
        "required to be done, ends on a Saturday, Sunday or a public holiday, such act may "
        "be done on the next succeeding business day.”" in text
    )
    assert "Last day to file a written notice of appeal: November 27, 2026" in text


# -- docgen check ----------------------------------------------------------------------


def without(data: dict, dotted: str) -> dict:
    out = copy.deepcopy(data)
    *parents, last = dotted.split(".")
    node = out
    for key in parents:
        node = node[key]
    del node[last]
    return out


MISSING = [
    ("recipient", "(a)"),
    ("recipient.name", "(a)"),
    ("recipient.address", "(a)"),
    ("site", "(b)"),
    ("site.address", "(b)"),  # leaves only the tax map: neither address nor description
    ("violations", "(c)"),
    ("remedies", "(d)"),
    # A notice is printed before service (LAW.md § 2): no ``served`` is no problem, but a
    # service block that is given must be whole.
    ("served.date", "(f)"),
    ("served.means", "(f)"),
]


@pytest.mark.parametrize(("key", "letter"), MISSING, ids=[k for k, _ in MISSING])
def test_check_names_each_missing_element(tmp_path, key, letter):
    data = without(case_data(SECOND), key)
    if key == "site.address":
        data["site"].pop("description")
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1
    assert f"missing {letter}" in out and f"§ 228-79C(1){letter}" in out, out
    assert "Traceback" not in out


def test_empty_lists_are_missing_elements_too(tmp_path):
    data = case_data(SECOND) | {"violations": [], "remedies": []}
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1
    assert "Remedies: missing (d)" in out and "(§ 228-79C(1)(d))" in out, out
    assert "Violations: missing (c)" in out and "(§ 228-79C(1)(c))" in out


def test_every_problem_at_once(tmp_path):
    data = {k: v for k, v in case_data(SECOND).items() if k in ("jurisdiction", "number")}
    data |= {"issued": "2026-11-03", "officer": {"name": "A", "title": "B"}}
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1
    for letter in "abcde":  # (f) needs no service: printed first, served second
        assert f"§ 228-79C(1)({letter})" in out, letter


def test_a_notice_renders_before_service_and_says_when_service_is_complete(tmp_path):
    data = {k: v for k, v in case_data(SECOND).items() if k != "served"}
    code, out = cli(
        "render", KIND, write_yaml(tmp_path, data), "-o", f"{tmp_path}/", "-f", "pdf,docx"
    )
    assert code == 0, out
    for path, read in (
        (next(tmp_path.glob("*.pdf")), pdf_text),
        (next(tmp_path.glob("*.docx")), docx_text),
    ):
        text = " ".join(read(path.read_bytes()).split()).replace("\u00a0", " ")
        assert "within 15 days of service of this notice" in text
        assert (
            "if it is mailed to you, on the later of the day you receive it and five days" in text
        )
        assert "Last day to file" not in text and "Served:" not in text
        assert "stated in the certificate of service" not in text
        assert "Date of service: ______" in text  # the certificate is left for the server


WRONG = [
    ("remedies", lambda d: d["remedies"][0].update(due="2026-11-02"), "Remedy 1, due", "(d)"),
    ("served", lambda d: d["served"].update(date="2026-11-02"), "Served, date of service", "(f)"),
    (
        "observed",
        lambda d: d["violations"][1].update(observed="2026-11-04"),
        "Violation 2, observed",
        "(c)",
    ),
    (
        "penalty history",
        lambda d: d["violations"][0].update(continued_through="2026-09-01"),
        "Violation 1, continued through",
        "(e)",
    ),
]


@pytest.mark.parametrize(("name", "change", "field", "letter"), WRONG, ids=[w[0] for w in WRONG])
def test_check_names_wrong_dates(tmp_path, name, change, field, letter):
    data = case_data(SECOND)
    change(data)
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1
    assert f"{field}: {letter}" in out, out


def test_a_good_case_checks_clean():
    code, out = cli("check", KIND, SECOND)
    assert code == 0 and "ok for a notice of violation" in out


def test_macedon_has_no_notice_of_violation(tmp_path):
    data = case_data(SECOND) | {"jurisdiction": "macedon"}
    code, out = cli("check", KIND, write_yaml(tmp_path, data))
    assert code == 1
    assert "Town of Macedon cannot issue a notice of violation" in out
    assert "§ 228-79C(1)" in out  # names where Homer's provision is, and that it is absent


def test_appeal_statement_is_the_law_verbatim():
    from conftest import LAW_TEXT

    law = (LAW_TEXT / "homer-ch228-art12.txt").read_text(encoding="utf-8")
    statement = HOMER.enforcement.appeal_statement.value
    assert f"A statement that {statement}." in law
    assert "15 days" in statement and HOMER.enforcement.appeal_days.value == 15
