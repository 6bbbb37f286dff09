"""Jurisdiction packs: typed and validated at load, every value cited, prescribed wording
verbatim from the law, amendments in force from their date, extra packs from DOCGEN_PACKS."""

from __future__ import annotations

import copy
import re
import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import LAW_TEXT, ROOT
from pydantic import BaseModel

from docgen import api
from docgen.cli import main
from docgen.documents import MODULES, get_kind
from docgen.errors import UnsupportedKind
from docgen.law.pack import Cited
from docgen.law.packs import ENV, load_pack, pack_names
from tests.helpers.readback import html_text

LAW = {
    "homer": (LAW_TEXT / "homer-ch228-art12.txt").read_text(encoding="utf-8"),
    "macedon": (LAW_TEXT / "macedon-ch301-art14.txt").read_text(encoding="utf-8"),
}
BUILT_IN = ROOT / "docgen" / "law"
FIXTURES = ROOT / "fixtures"


def dumped(pack: dict) -> str:
    """A pack as YAML in its own order (the elements' order is the law's)."""
    return yaml.safe_dump(pack, allow_unicode=True, sort_keys=False)


def cited_values(node, path=""):
    """(path, Cited) for every value of a loaded pack."""
    if isinstance(node, Cited):
        yield path, node
    elif isinstance(node, BaseModel):
        for key in type(node).model_fields:
            yield from cited_values(getattr(node, key), f"{path}.{key}".lstrip("."))
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from cited_values(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from cited_values(value, f"{path}[{i}]")


def pack_dir(tmp_path: Path, name: str, text: str) -> Path:
    folder = tmp_path / "packs"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")
    return folder


def cli(*args, env=None):
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    return result.exit_code, result.output


@pytest.mark.parametrize("name", pack_names())
def test_every_pack_value_carries_a_citation(name):
    values = list(cited_values(load_pack(name)))
    assert len(values) > 20
    assert [path for path, value in values if not value.ref.strip()] == []


def test_every_kind_declares_the_pack_groups_it_prints():
    from docgen.documents import KINDS
    from docgen.law.pack import Pack

    for name in MODULES:
        needs = KINDS[name].needs
        assert needs and all(group in Pack.model_fields for group in needs), name


@pytest.mark.parametrize("name", ["homer", "macedon"])
def test_certification_statement_is_the_law_verbatim(name):
    statement = load_pack(name).certification.statement.value
    assert f'"{statement}"' in LAW[name]
    other = "macedon" if name == "homer" else "homer"
    assert f'"{statement}"' not in LAW[other]


@pytest.mark.parametrize(
    ("edit", "expected"),
    [
        (
            ("name: {value: Town of Macedon,", "nmae: {value: Town of Macedon,"),
            "nmae: is not a pack key",
        ),
        (
            (
                'counsel: {value: "attorney for the Town", ref: "§ 301-73B"}',
                'counsel: {value: "attorney for the Town"}',
            ),
            "counsel.ref: is required",
        ),
        (
            ("inspection_years: {value: 5,", "inspection_years: {value: five,"),
            "agreement.terms.inspection_years.value: ",
        ),
        (
            ("county: {value: Wayne,", "name: {value: Wayne,"),
            "key 'name' given twice (first at line",
        ),
        (
            ("contractor-certification: {value: true,", "contractor-certificate: {value: true,"),
            "'contractor-certificate' is not a document kind",
        ),
        (
            ("  form_items: {}", '  form_items: {permits: {value: "4a", ref: "MS4 form"}}'),
            "form_items: 'permits' is not a category of the report (plans-reviewed,",
        ),
        (
            ('starts: {value: "03-10",', 'starts: {value: "13-40",'),
            "starts: '13-40' is not a month and day written MM-DD (March 10 is 03-10)",
        ),
    ],
    ids=["typo", "uncited", "type", "twice", "kind", "year-category", "year-start"],
)
def test_a_bad_pack_is_refused_at_load_naming_file_key_and_problem(tmp_path, edit, expected):
    text = (BUILT_IN / "macedon.yaml").read_text(encoding="utf-8")
    assert edit[0] in text
    folder = pack_dir(tmp_path, "walworth", text.replace(*edit))
    code, out = cli("pack", "check", folder / "walworth.yaml")
    assert code == 1
    assert f"{folder / 'walworth.yaml'}: " in out
    assert expected in out
    assert "Traceback" not in out
    # The same file as a DOCGEN_PACKS jurisdiction: every command refuses it the same way.
    code, out = cli("jurisdictions", env={ENV: str(folder)})
    assert code == 1 and expected in out and "Traceback" not in out


def test_a_pack_that_claims_a_kind_must_give_what_it_prints(tmp_path):
    text = (BUILT_IN / "macedon.yaml").read_text(encoding="utf-8")
    text = re.sub(r"  stop-work-order: \{value: false,", "  stop-work-order: {value: true,", text)
    folder = pack_dir(tmp_path, "walworth", text)
    code, out = cli("pack", "check", folder / "walworth.yaml")
    assert code == 1 and "Traceback" not in out
    assert re.search(r"FAILED stop-work-order is provided .* has no enforcement", out), out
    # Used as a jurisdiction, the kind is refused naming what the pack lacks.
    case = tmp_path / "order.yaml"
    sample = (ROOT / "fixtures" / "stop-work-order" / "homer-silt-fence.yaml").read_text()
    case.write_text(re.sub(r"jurisdiction: \w+", "jurisdiction: walworth", sample), "utf-8")
    code, out = cli("check", "stop-work-order", case, env={ENV: str(folder)})
    assert code != 0 and "has no enforcement" in out and "Traceback" not in out


def test_docgen_packs_adds_every_yaml_as_a_jurisdiction(tmp_path, monkeypatch):
    folder = pack_dir(tmp_path, "walworth", (BUILT_IN / "macedon.yaml").read_text("utf-8"))
    code, out = cli("jurisdictions", env={ENV: str(folder)})
    assert code == 0, out
    block = out[out.index("walworth ") :]
    assert f"file: {folder / 'walworth.yaml'}" in block
    assert "kinds: contractor-certification, maintenance-easement, maintenance-agreement" in block
    assert f"file: {BUILT_IN / 'homer.yaml'}" in out
    monkeypatch.setenv(ENV, str(folder))
    data = yaml.safe_load(
        (ROOT / "fixtures/maintenance-easement/homer-individual.yaml").read_text()
    )
    doc = api.build("maintenance-easement", data | {"jurisdiction": "walworth"})
    assert "Town of Macedon" in doc.html
    refusal = "cannot issue a notice of violation: .* no provision in Article XIV for a notice"
    with pytest.raises(UnsupportedKind, match=refusal):
        load_pack("walworth").require(get_kind("notice-of-violation"))


def test_a_pack_id_taken_twice_is_an_error(tmp_path):
    folder = pack_dir(tmp_path, "homer", (BUILT_IN / "macedon.yaml").read_text("utf-8"))
    code, out = cli("jurisdictions", env={ENV: str(folder)})
    assert code == 1
    assert "jurisdiction 'homer' is already defined by" in out


def test_a_document_prints_the_values_in_force_on_its_issue_date(tmp_path, monkeypatch):
    """The first-offense fine rises from $350 to $500 on 2026-11-12 (a local law's amendment)."""
    pack = yaml.safe_load((BUILT_IN / "homer.yaml").read_text(encoding="utf-8"))
    original = pack["penalties"]
    raised = copy.deepcopy(original)
    raised["ref"] = "§ 228-79C(4), as amended by Local Law 4 of 2026"
    raised["tiers"][0].update(fine_max="500", ref="Local Law 4 of 2026, § 2")
    pack["penalties"] = [original, {"effective_from": date(2026, 11, 12), **raised}]
    folder = pack_dir(tmp_path, "homer_amended", dumped(pack))
    monkeypatch.setenv(ENV, str(folder))
    assert load_pack("homer_amended").penalties.tiers[0].fine_max == 500
    assert load_pack("homer_amended", date(2026, 11, 11)).penalties.tiers[0].fine_max == 350
    data = yaml.safe_load((FIXTURES / "penalty-statement/homer-first-offense.yaml").read_text())
    data["jurisdiction"] = "homer_amended"
    before = html_text(api.build("penalty-statement", data | {"issued": "2026-11-11"}).html)
    after = html_text(api.build("penalty-statement", data | {"issued": "2026-11-12"}).html)
    assert "three hundred fifty dollars ($350.00)" in before
    assert "five hundred dollars" not in before and "Local Law 4 of 2026" not in before
    assert "five hundred dollars ($500.00)" in after and "Local Law 4 of 2026" in after


@pytest.mark.parametrize(
    ("dates", "expected"),
    [
        ((None, date(2027, 1, 1)), "counsel[1].effective_from: give the ISO date"),
        ((date(2027, 1, 1), date(2026, 1, 1)), "counsel[2].effective_from: versions go in date"),
    ],
)
def test_every_amendment_is_dated_and_in_order(tmp_path, dates, expected):
    pack = yaml.safe_load((BUILT_IN / "macedon.yaml").read_text(encoding="utf-8"))
    counsel = pack["counsel"]
    pack["counsel"] = [counsel, *({**counsel, "effective_from": day} for day in dates)]
    folder = pack_dir(tmp_path, "walworth", dumped(pack))
    code, out = cli("pack", "check", folder / "walworth.yaml")
    assert code == 1 and expected in out, out


def test_pack_check_renders_every_kind_the_pack_claims(tmp_path):
    shutil.copy(BUILT_IN / "macedon.yaml", tmp_path / "walworth.yaml")
    code, out = cli("pack", "check", tmp_path / "walworth.yaml")
    assert code == 0, out
    for kind in ("contractor-certification", "maintenance-easement", "maintenance-agreement"):
        assert re.search(rf"^{kind} +renders \(pdf, docx, html\)", out, re.M), out
    assert re.search(
        r"^notice-of-violation +not provided: no provision in Article XIV for a notice of "
        "violation",
        out,
        re.M,
    )


def test_pack_check_lists_the_year_s_period_and_the_state_form_s_items(tmp_path, monkeypatch):
    """The pack's reporting period and its map of the report's categories to the State
    form's item numbers (LAW.md § 15, a reading chosen): pack check lists both, and the
    report renders with the items beside their categories."""
    text = (BUILT_IN / "macedon.yaml").read_text(encoding="utf-8")
    mapped = '  form_items: {inspections: {value: "item 12", ref: "Town of Macedon practice"}}'
    assert "  form_items: {}" in text
    folder = pack_dir(tmp_path, "walworth", text.replace("  form_items: {}", mapped))
    code, out = cli("pack", "check", folder / "walworth.yaml")
    assert code == 0, out
    assert (
        "year (Town of Macedon practice): reporting period March 10 to March 9; 1 of 10 "
        "categories mapped to the State form's item numbers: inspections item 12"
    ) in out
    assert re.search(r"^municipal-year +renders \(pdf, docx, html\)", out, re.M), out
    monkeypatch.setenv(ENV, str(folder))
    data = yaml.safe_load((ROOT / "fixtures/municipal-year/homer-ms4-year.yaml").read_text())
    shown = html_text(api.build("municipal-year", data | {"jurisdiction": "walworth"}).html)
    assert "Category\nCount\nWhat is counted\nState form item" in shown
    assert "Inspections\n3\n" in shown and "item 12" in shown
    assert "Notices of deficiency\n1\neach notice issued" in shown


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("homer", "enforcement.injunction"),
        ("homer", "enforcement.certificate_of_occupancy"),
        ("homer", "enforcement.restoration"),
        ("homer", "enforcement.fees"),
        ("homer", "penalties.misdemeanor_clause"),
        ("homer", "agreement.dedication"),
        ("macedon", "agreement.dedication"),
        ("homer", "certification.part_of_swppp"),
        ("macedon", "certification.part_of_swppp"),
    ],
)
def test_quoted_provisions_are_verbatim(name, key):
    group, field = key.split(".")
    assert getattr(getattr(load_pack(name), group), field).value in LAW[name]


def test_penalty_tiers_match_the_text_of_228_79c4():
    tiers = load_pack("homer").penalties.tiers
    text = LAW["homer"]
    assert [t.fine_max for t in tiers] == [350, 700, 1000]
    assert [t.fine_min for t in tiers] == [None, 350, 700]
    for figure in (
        "a fine not exceeding $350",
        "not less than $350 nor more than $700",
        "not less than $700 nor more than $1,000",
    ):
        assert figure in text
    assert "within a period of five years" in text
    assert (
        "Each week's continued violation shall constitute a separate additional violation." in text
    )


def test_macedon_provides_no_enforcement_kinds():
    macedon = load_pack("macedon")
    for kind in ("notice-of-violation", "stop-work-order", "penalty-statement"):
        assert not macedon.provides(kind)
    for kind in ("contractor-certification", "maintenance-easement", "maintenance-agreement"):
        assert macedon.provides(kind)


def test_jurisdiction_facts():
    homer, macedon = load_pack("homer"), load_pack("macedon")
    assert (homer.name.value, homer.county.value) == ("Village of Homer", "Cortland")
    assert (macedon.name.value, macedon.county.value) == ("Town of Macedon", "Wayne")
    assert homer.counsel.value == "counsel for the Village of Homer"
    assert macedon.counsel.value == "attorney for the Town"
    assert "at reasonable times" in macedon.easement.access.value
    assert "at reasonable times" not in homer.easement.access.value


def test_the_notice_elements_are_the_law_verbatim():
    elements = load_pack("homer").enforcement.elements
    for key in type(elements).model_fields:
        if key not in ("ref", "note"):
            assert getattr(elements, key).value in LAW["homer"], key


def test_two_kinds_numbered_alike_are_refused(tmp_path):
    """A return-receipt annex and a log-book letter both numbered RR-2026-0001 would be two
    documents under one number: the pack is refused naming both kinds."""
    pack = yaml.safe_load((BUILT_IN / "homer.yaml").read_text(encoding="utf-8"))
    formats = pack["numbering"]["formats"]
    formats["report-requirement"] = dict(formats["return-receipt"])
    folder = pack_dir(tmp_path, "walworth", dumped(pack))
    code, out = cli("jurisdictions", env={ENV: str(folder)})
    assert code == 1
    assert "formats.return-receipt and formats.report-requirement are both" in out
    assert "give each kind a format of its own" in out


def alias_bomb(levels: int = 9) -> str:
    """A kilobyte of YAML whose aliases stand for 9 ** ``levels`` strings."""
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for n in range(1, levels):
        lines.append(f"l{n}: &l{n} [{', '.join([f'*l{n - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (alias_bomb(), "line 1: YAML anchors and aliases (&name, *name) are not allowed"),
        ("plain: &kept plain\n", "line 1: YAML anchors and aliases (&name, *name) are not allowed"),
        (
            f"huge: {'x' * (2 * 2**20)}\n",
            "the file is 2.0 MB; a pack or settings file is at most 1 MB",
        ),
    ],
    ids=["alias-bomb", "anchor", "too-large"],
)
def test_a_pack_or_settings_with_aliases_or_too_large_is_refused_before_it_is_read(
    tmp_path, extra, expected
):
    """`docgen pack check` vets a stranger's pack: a kilobyte of aliases ran it (and, once
    installed, every command) for ever, and a 60 MB value was "valid"."""
    text = extra + (BUILT_IN / "macedon.yaml").read_text(encoding="utf-8")
    folder = pack_dir(tmp_path, "walworth", text)
    code, out = cli("pack", "check", folder / "walworth.yaml")
    assert code == 1 and expected in out and "Traceback" not in out, out
    code, out = cli("jurisdictions", env={ENV: str(folder)})
    assert code == 1 and expected in out and "Traceback" not in out, out
    settings = tmp_path / "settings.yaml"
    settings.write_text(extra + "jurisdiction: homer\n", encoding="utf-8")
    code, out = cli("pack", "check", settings)
    assert code == 1 and expected in out and "Traceback" not in out, out
