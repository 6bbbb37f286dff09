"""Contractor certifications (§ 228-78B(4); § 301-71D): the statement word for word, once
per contractor, every required field, phones, --split, --blank and lapsed training."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, Rendered

from docgen import api
from docgen.documents.kind import Options
from docgen.errors import CaseInvalid, DocgenError
from docgen.law.packs import load_pack
from docgen.law.training import training_current_through, training_expired
from docgen.render.filters import long_date
from tests.helpers.cli import docgen
from tests.helpers.readback import docx_text, pdf_text

KIND = "contractor-certification"
FIXTURES = ROOT / "fixtures" / KIND
HOMER = FIXTURES / "homer-three-contractors.yaml"
MACEDON = FIXTURES / "macedon-unsigned.yaml"
OTHER = {"homer": "macedon", "macedon": "homer"}


def flat(text: str) -> str:
    """White space folded to single spaces (no-break spaces too)."""
    return " ".join(text.replace("\u00a0", " ").split())


def statement(jurisdiction: str) -> str:
    return load_pack(jurisdiction).certification.statement.value


def case_data(path: Path = HOMER) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def texts(rendered: Rendered) -> dict[str, str]:
    """The document's words as PDF and DOCX read back, white space folded."""
    return {"pdf": flat(pdf_text(rendered["pdf"])), "docx": flat(docx_text(rendered["docx"]))}


def required_values(data: dict, contractor: dict) -> list[str]:
    """What § 228-78B(4)(b) / § 301-71D(2) require, as the document must print it."""
    a = contractor["address"]
    site = data["site"]
    values = [
        contractor["firm"],
        contractor["signer"]["name"],
        contractor["signer"]["title"],
        f"{a['street']}, {a['city']}, {a['state']} {a['zip']}",
        contractor["role"].capitalize(),
        *contractor["responsibilities"],
    ]
    if site.get("address"):
        s = site["address"]
        values.append(f"{s['street']}, {s['city']}, {s['state']} {s['zip']}")
    if site.get("description"):
        values.append(site["description"])
    if contractor.get("signed"):
        values.append(long_date(date.fromisoformat(str(contractor["signed"]))))
    return [flat(v) for v in values]


# -- the statement, every field, in PDF and DOCX ------------------------------------------


@pytest.mark.parametrize("path", [HOMER, MACEDON], ids=lambda p: p.stem)
def test_statement_verbatim_once_per_contractor_and_every_field(path, renders):
    data = case_data(path)
    own, other = data["jurisdiction"], OTHER[data["jurisdiction"]]
    count = len(data["contractors"])
    for fmt, text in texts(renders.get(KIND, path)).items():
        quoted = f"\u201c{statement(own)}\u201d"
        assert text.count(quoted) == count, fmt
        assert text.count(statement(own)) == count, fmt
        assert statement(other) not in text, fmt
        for contractor in data["contractors"]:
            for value in required_values(data, contractor):
                assert value in text, (fmt, value)
        pack = load_pack(own)
        for key in ("who_signs", "required_fields", "part_of_swppp"):
            assert getattr(pack.certification, key).value in text, (fmt, key)
            assert flat(getattr(pack.certification, key).ref) in text, (fmt, key)


def test_each_contractor_starts_a_new_page(renders):
    rendered = renders.get(KIND, HOMER)
    assert rendered["doc"].html.count('<div class="page-break"></div>') == 2
    from tests.helpers.readback import pdf_pages

    pages = [flat(p) for p in pdf_pages(rendered["pdf"])]
    firsts = [p for p in pages if "Contractor Certification under" in p]
    assert len(firsts) == 3
    for page, firm in zip(
        firsts, ["Cortland Site Works", "Hinman Paving", "Grouse Hill"], strict=True
    ):
        assert f"Contracting firm {firm}" in page


def test_phones_print_in_one_form(renders):
    text = flat(docx_text(renders.get(KIND, HOMER)["docx"]))
    for phone in ("(607) 555-0142", "(607) 555-0199", "(607) 555-0177"):
        assert phone in text
    assert "607.555.0142" not in text and "+1" not in text


def test_unsigned_forms_have_blank_signature_and_date_lines(renders):
    text = flat(pdf_text(renders.get(KIND, MACEDON)["pdf"]))
    line = "Signature: ______________________________ Date: ________________"
    assert text.count(line) == 2
    assert text.count("(to be dated when signed)") == 2


def test_signed_forms_print_the_date_beside_the_signature_line():
    text = flat(api.build(KIND, HOMER).html)
    assert "Signature: ______________________________ Date: September 2, 2026" in text


# -- phone numbers --------------------------------------------------------------------------


def with_phone(phone, jurisdiction: str = "homer") -> dict:
    data = case_data()
    data["jurisdiction"] = jurisdiction
    data["contractors"][0]["phone"] = phone
    return data


@pytest.mark.parametrize(
    "phone",
    [
        "607.555.0142",
        "+1 (607) 555-0142",
        "6075550142",
        "(607) 555-0142",
        "607 555 0142",
        "1-607-555-0142",
    ],
)
def test_common_phone_forms_are_accepted_and_normalized(phone):
    doc = api.build(KIND, with_phone(phone))
    assert "(607) 555-0142" in doc.html


@pytest.mark.parametrize(
    "phone",
    [
        "555-0142",
        "(107) 555-0142",
        "(607) 155-0142",
        "607-555-O142",
        "call 607 555 0142",
        "607555014299",
    ],
)
@pytest.mark.parametrize(
    ("jurisdiction", "provision"), [("homer", "§ 228-78B(4)(b)"), ("macedon", "§ 301-71D(2)")]
)
def test_bad_phones_are_errors_naming_field_and_provision(phone, jurisdiction, provision):
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, with_phone(phone, jurisdiction))
    message = str(err.value)
    assert "contractors[0].phone" in message
    assert provision in message


# -- missing fields ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "remove", "field"),
    [
        (("contractors", 0, "signer"), "title", "contractors[0].signer.title"),
        (("contractors", 1), "address", "contractors[1].address"),
        (("contractors", 2), "phone", "contractors[2].phone"),
        (("contractors", 0, "address"), "zip", "contractors[0].address.zip"),
        ((), "site", "site"),
    ],
)
@pytest.mark.parametrize(
    ("jurisdiction", "provision"), [("homer", "§ 228-78B(4)(b)"), ("macedon", "§ 301-71D(2)")]
)
def test_missing_required_field_names_field_and_section(
    path, remove, field, jurisdiction, provision
):
    data = case_data()
    data["jurisdiction"] = jurisdiction
    node = data
    for key in path:
        node = node[key]
    del node[remove]
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, data)
    assert f"{field}: is required ({provision})" in str(err.value)


def test_site_needs_an_address_or_a_description():
    data = case_data()
    data["site"] = {}
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, data)
    assert "site: needs an address or another identifying description" in str(err.value)
    assert "§ 228-78B(4)(b)" in str(err.value)


def test_no_contractors_and_no_responsibilities_are_errors():
    data = case_data()
    data["contractors"][0]["responsibilities"] = []
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, data)
    assert "contractors[0].responsibilities" in str(err.value)
    # The list comes from the construction general permit, not the article: it cites that.
    assert "(GP-0-25-001)" in str(err.value) and "§ 228-78B(4)(a)" not in str(err.value)
    data["contractors"] = []
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, data)
    assert "contractors:" in str(err.value)


def test_unknown_keys_and_roles_are_errors():
    data = case_data()
    data["contractors"][0]["role"] = "consultant"
    data["contractors"][0]["fax"] = "6075550100"
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, data)
    assert "contractors[0].role" in str(err.value)
    assert "contractors[0].fax: is not a key" in str(err.value)


# -- the three-year training period (§ 228-78A) ---------------------------------------------


@pytest.mark.parametrize(
    ("trained", "on", "expired"),
    [
        (date(2023, 3, 15), date(2026, 3, 15), False),  # exactly three years: still current
        (date(2023, 3, 15), date(2026, 3, 16), True),  # one day more
        (date(2023, 3, 15), date(2023, 3, 15), False),  # trained that day
        (date(2024, 2, 29), date(2027, 2, 28), False),  # from Feb 29: three years end Feb 28
        (date(2024, 2, 29), date(2027, 3, 1), True),
        (date(2023, 2, 28), date(2026, 2, 28), False),
        (date(2025, 2, 28), date(2028, 2, 29), True),  # the leap day itself is one day more
        (date(2021, 3, 1), date(2024, 2, 29), False),
    ],
)
def test_training_expiry_boundaries(trained, on, expired):
    assert training_expired(trained, on, 3) is expired


def test_training_current_through():
    assert training_current_through(date(2024, 2, 29), 3) == date(2027, 2, 28)
    assert training_current_through(date(2024, 2, 29), 4) == date(2028, 2, 29)
    assert training_current_through(date(2023, 3, 15), 3) == date(2026, 3, 15)


def test_check_warns_naming_contractor_field_and_228_78a():
    warnings = api.check(KIND, HOMER)
    assert len(warnings) == 2  # Dale Hinman's lapsed training; Grouse Hill names nobody
    warning = warnings[0]
    assert warning.startswith("contractors[1].trained_contractor.trained:")
    assert "Dale Hinman" in warning and "Hinman Paving & Drainage LLC" in warning
    assert "(§ 228-78A)" in warning


def test_macedon_prints_no_training_period_and_flags_nothing():
    """Article XIV defines no trained contractor: old training is no warning, no note."""
    data = case_data()
    data["jurisdiction"] = "macedon"
    assert load_pack("macedon").certification.training_valid_years is None
    warnings = api.check(KIND, data)
    assert not [w for w in warnings if "trained_contractor.trained" in w]
    for text in texts(Rendered(doc=api.build(KIND, data))).values():
        assert "Training not current" not in text and "three years" not in text
        assert "Dale Hinman, most recently trained on March 15, 2023. (GP-0-25-001)" in text


def test_render_warns_and_the_page_never_prints_lapsed_training_as_current(renders):
    rendered = renders.get(KIND, HOMER)
    doc = rendered["doc"]
    assert len(doc.warnings) == 2 and "contractors[1]" in doc.warnings[0]
    text = flat(pdf_text(rendered["pdf"]))
    assert "Dale Hinman, most recently trained on March 15, 2023. (GP-0-25-001)" in text
    assert (
        "Training not current: March 15, 2023 is more than three years before the date of "
        "this certification, September 2, 2026; training received on that date was current "
        "through March 15, 2026 only. (§ 228-78A)"
    ) in text
    assert text.count("Training not current") == 1  # Luis Ortega's 2025 training is current
    assert "Luis Ortega, most recently trained on April 2, 2025." in text


def unsigned_trained(trained: str) -> dict:
    data = case_data(MACEDON) | {"jurisdiction": "homer"}  # Homer defines the period
    data["contractors"][0]["trained_contractor"] = {"name": "Ines Moreau", "trained": trained}
    return data


def test_unsigned_form_reads_training_on_the_render_date():
    data = unsigned_trained("2023-05-01")
    lapsed = [w for w in api.check(KIND, data, Options(today=date(2026, 5, 1))) if ".trained:" in w]
    assert lapsed == []
    (warning,) = [
        w for w in api.check(KIND, data, Options(today=date(2026, 5, 2))) if ".trained:" in w
    ]
    assert "May 2, 2026 (render date; the form is unsigned)" in warning
    doc = api.build(KIND, data, Options(today=date(2026, 5, 2)))
    assert "May 2, 2026, the date this form was prepared" in flat(doc.html)


def test_training_after_the_certification_date_is_an_error():
    data = case_data()
    data["contractors"][0]["trained_contractor"]["trained"] = "2026-09-02"
    with pytest.raises(CaseInvalid) as err:
        api.check(KIND, data)
    assert "contractors[0].trained_contractor.trained: September 2, 2026 is after" in str(err.value)
    assert "(GP-0-25-001)" in str(err.value)


def test_signed_forms_do_not_depend_on_the_clock():
    early = api.build(KIND, HOMER, Options(today=date(2026, 1, 1)))
    late = api.build(KIND, HOMER, Options(today=date(2031, 7, 4)))
    assert early.html == late.html and early.date == late.date == date(2026, 9, 3)
    for fmt in ("pdf", "docx"):
        assert api.to_bytes(early, fmt) == api.to_bytes(late, fmt)


def test_unsigned_forms_carry_no_date_and_do_not_depend_on_the_clock():
    early = api.build(KIND, MACEDON, Options(today=date(2026, 1, 1)))
    late = api.build(KIND, MACEDON, Options(today=date(2031, 7, 4)))
    assert early.date is None and early.html == late.html
    for fmt in ("pdf", "docx"):
        assert api.to_bytes(early, fmt) == api.to_bytes(late, fmt)


# -- --split ----------------------------------------------------------------------------------


def test_split_writes_one_file_per_contractor_named_after_the_firm(tmp_path):
    result = api.render(KIND, HOMER, ("pdf", "docx"), tmp_path / "out", split=True)
    names = sorted(p.name for p in result.files)
    stems = ["Cortland-Site-Works-Inc", "Grouse-Hill-Landscaping", "Hinman-Paving-Drainage-LLC"]
    assert names == sorted(f"{s}.{f}" for s in stems for f in ("pdf", "docx"))
    assert result.document.warnings  # the whole case's warnings, once
    data = case_data()
    for contractor, stem in zip(data["contractors"], [stems[0], stems[2], stems[1]], strict=True):
        pdf = flat(pdf_text((tmp_path / "out" / f"{stem}.pdf").read_bytes()))
        docx = flat(docx_text((tmp_path / "out" / f"{stem}.docx").read_bytes()))
        for text in (pdf, docx):
            assert text.count(statement("homer")) == 1
            for value in required_values(data, contractor):
                assert value in text
            others = [c["firm"] for c in data["contractors"] if c is not contractor]
            assert not any(f"Contracting firm {firm}" in text for firm in others)


def test_split_names_are_sanitized_and_unique(tmp_path):
    data = case_data()
    data["contractors"][1]["firm"] = "../Cortland Site Works, Inc."
    data["contractors"][2]["firm"] = "CORTLAND SITE WORKS INC"
    result = api.render(KIND, data, ("html",), tmp_path, split=True)
    assert [p.name for p in result.files] == [
        "Cortland-Site-Works-Inc.html",
        "Cortland-Site-Works-Inc-2.html",
        "CORTLAND-SITE-WORKS-INC-3.html",
    ]
    assert all(p.parent == tmp_path for p in result.files)


def test_split_needs_a_directory_and_a_kind_with_parts(tmp_path):
    target = tmp_path / "a-file.pdf"
    target.write_bytes(b"")
    with pytest.raises(DocgenError, match="directory"):
        api.render(KIND, HOMER, ("html",), target, split=True)
    penalty = ROOT / "fixtures" / "penalty-statement" / "homer-first-offense.yaml"
    with pytest.raises(DocgenError, match="no parts to split"):
        api.render("penalty-statement", penalty, ("html",), tmp_path, split=True)


# -- --blank ----------------------------------------------------------------------------------


@pytest.mark.parametrize("jurisdiction", ["homer", "macedon"])
def test_blank_form_for_a_jurisdiction(jurisdiction):
    doc = api.blank(KIND, jurisdiction)
    pack = load_pack(jurisdiction)
    for fmt, text in texts(Rendered(doc=doc)).items():
        assert text.count(f"\u201c{statement(jurisdiction)}\u201d") == 1, fmt
        assert statement(OTHER[jurisdiction]) not in text, fmt
        assert "Signature: ______________________________ Date: ________________" in text
        assert "Firm\u2019s telephone number (___) ___-____" in text
        assert pack.certification.part_of_swppp.value in text
        assert pack.name.value in text
    assert doc.warnings == ()
    assert doc.filename == f"{jurisdiction}-contractor-certification-blank"


def test_blank_is_refused_for_kinds_without_a_form():
    with pytest.raises(DocgenError, match="no blank form"):
        api.blank("penalty-statement", "homer")
    with pytest.raises(DocgenError, match="unknown jurisdiction"):
        api.blank(KIND, "ithaca")


# -- the command -------------------------------------------------------------------------------


def test_cli_blank_split_and_check(tmp_path):
    run = docgen(
        "render", KIND, "--blank", "--jurisdiction", "macedon", "-f", "pdf", "-o", f"{tmp_path}/"
    )
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "macedon-contractor-certification-blank.pdf").is_file()

    run = docgen("render", KIND, HOMER, "--split", "-f", "docx", "-o", tmp_path / "split")
    assert run.returncode == 0, run.stderr
    assert len(list((tmp_path / "split").glob("*.docx"))) == 3
    assert "warning: Contractor 2, trained contractor, trained: Dale Hinman" in run.stderr

    run = docgen("check", KIND, HOMER)
    assert run.returncode == 0
    assert "Dale Hinman" in run.stderr and "§ 228-78A" in run.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("render", KIND),
        ("render", KIND, "--blank"),
        ("render", KIND, HOMER, "--blank", "--jurisdiction", "homer"),
        ("render", KIND, HOMER, "--jurisdiction", "homer"),
    ],
)
def test_cli_usage_errors(args):
    run = docgen(*args)
    assert run.returncode == 2
    assert "Traceback" not in run.stderr


def test_cli_bad_phone_exits_1_and_writes_nothing(tmp_path):
    bad = tmp_path / "case.yaml"
    bad.write_text(HOMER.read_text().replace("phone: 607.555.0142", "phone: 555-0142"))
    run = docgen("render", KIND, bad, "-o", f"{tmp_path}/out/")
    assert run.returncode == 1
    assert "Contractor 1, phone: " in run.stderr and "§ 228-78B(4)(b)" in run.stderr
    assert not (tmp_path / "out").exists()


# -- the construction general permit, and the municipality's date ---------------------------


@pytest.mark.parametrize("path", [HOMER, MACEDON], ids=["homer", "macedon"])
def test_swppp_elements_and_trained_contractor_print_their_permit_source(path, renders):
    for text in texts(renders.get(KIND, path)).values():
        assert "SWPPP elements the firm is responsible for" in text
        assert "Stormwater Discharges from Construction Activity, GP-0-25-001" in text
        assert "Trained contractor (identified under the construction general permit)" in text


def test_a_missing_trained_contractor_prints_none_named_and_warns(renders):
    rendered = renders.get(KIND, MACEDON)
    doc = rendered["doc"]
    for text in texts(rendered).values():
        assert text.count("construction general permit): none named. (GP-0-25-001)") == 2
    assert [w.split(":")[0] for w in doc.warnings] == [
        "contractors[0].trained_contractor",
        "contractors[1].trained_contractor",
    ]


def test_an_unsigned_forms_today_is_the_municipalitys_date_not_the_servers():
    """The server may run in any time zone; the form's date is New York's."""
    script = (
        "import time; time.tzset(); "
        "from docgen.documents.contractor_certification import municipal_today; "
        "from docgen.law.packs import load_pack; print(municipal_today(load_pack('macedon')))"
    )
    import os
    from datetime import datetime
    from zoneinfo import ZoneInfo

    for zone in ("Pacific/Kiritimati", "Etc/GMT+12"):  # UTC+14 and UTC-12
        out = subprocess.run(
            [sys.executable, "-c", script],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "TZ": zone},
        ).stdout.strip()
        assert out == datetime.now(ZoneInfo("America/New_York")).date().isoformat()
