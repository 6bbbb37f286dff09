"""Any adopter by one file (issue 33; LAW.md § 1): a fictional town built the way the
Village of Patchogue (ch. 369) and the Town of Canandaigua (ch. 170, § 170-10) differ from
Homer (tests/data/packs/wrenfield.yaml: a chapter of its own, §§ 86-1 to 86-4, a notice of
five elements with no appeal, issued to the landowner, applicant and/or developer, a
Stormwater Management Officer, appearance tickets) renders every kind it provides from the
built-in samples renumbered through its section map; Homer's pack renumbered passes
`pack check`; and a pack that is wrong is refused at load with every problem named."""

from __future__ import annotations

import re
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT

from docgen import api
from docgen.cli import main
from docgen.demo import sample_cases
from docgen.documents import KINDS
from docgen.errors import CaseInvalid, DocgenError
from docgen.law.packs import ENV, load_pack, read_pack
from docgen.pack_check import moved_into
from tests.helpers.readback import docx_text, html_text, pdf_text

PACKS = ROOT / "tests" / "data" / "packs"
HOMER = ROOT / "docgen" / "law" / "homer.yaml"
CITATION = re.compile(r"§+\s*(\d+-\d+)")  # a section of a municipal code (not "§ 309-a")


def cli(*args: Any, env: dict[str, str] | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, [str(a) for a in args], env=env)
    return result.exit_code, result.output


@pytest.fixture
def wrenfield(monkeypatch):
    monkeypatch.setenv(ENV, str(PACKS))
    return load_pack("wrenfield")


def first_samples(pack) -> list[tuple[str, Any]]:
    chosen: dict[str, Any] = {}
    for kind, path in sample_cases():
        if pack.provides(kind):
            chosen.setdefault(kind, path)
    return list(chosen.items())


def test_the_pack_states_how_its_law_differs(wrenfield):
    enforcement = wrenfield.enforcement
    listed = enforcement.elements.listed()
    assert [(key, letter) for key, letter, _ in listed] == [
        ("addressee", "(1)"),
        ("site", "(2)"),
        ("nature", "(3)"),
        ("remedies", "(4)"),
        ("penalty", "(5)"),
    ]
    assert not enforcement.appealable and enforcement.appeal_days is None
    assert enforcement.addressees() == ["landowner", "applicant", "developer"]
    assert wrenfield.officer.value == "Stormwater Management Officer"
    assert wrenfield.code.article is None and wrenfield.code.part_of_code() == "Chapter 86"
    assert read_pack(PACKS / "wrenfield.yaml").overrides == ()  # the State's law, unchanged


def test_every_kind_renders_with_its_own_sections_and_no_appeal(wrenfield):
    """No "(f)", no appeal statement, and every section cited is the town's own."""
    samples = first_samples(wrenfield)
    assert [kind for kind, _ in samples] == wrenfield.kinds()
    for kind, path in samples:
        data, _ = api.load(path)
        doc = api.build(kind, moved_into(data, wrenfield))
        texts = {
            "html": html_text(doc.html),
            "pdf": pdf_text(api.to_bytes(doc, "pdf")),
            "docx": docx_text(api.to_bytes(doc, "docx")),
        }
        for fmt, text in texts.items():
            where = f"{kind} ({fmt}, from {path.name})"
            assert "(f)" not in text, where
            assert not re.search(r"appeal", text, re.IGNORECASE), where
            foreign = {s for s in CITATION.findall(text) if not s.startswith("86-")}
            assert not foreign, (where, foreign)
            assert "228-" not in text, where


def test_the_notice_letters_its_five_elements_and_names_the_added_remedy(wrenfield):
    kind, path = next((k, p) for k, p in first_samples(wrenfield) if k == "notice-of-violation")
    data, _ = api.load(path)
    text = " ".join(html_text(api.build(kind, moved_into(data, wrenfield)).html).split())
    headings = re.findall(r"\((\d)\) (Landowner|Where|Nature|Remedial|Penalties)", text)
    assert [number for number, _ in headings] == ["1", "2", "3", "4", "5"]
    assert "Chapter 86, and issues this written notice of violation. (§ 86-4A)" in text
    assert (
        "The Stormwater Management Officer may issue an appearance ticket for a violation "
        "of this chapter. (§ 86-4G)" in text
    )
    assert "Last day" not in text and "Right to" not in text


def test_a_notice_goes_to_whom_its_law_says(wrenfield):
    """Wrenfield issues to the landowner, applicant and/or developer; Homer to the landowner."""
    path = next(p for k, p in sample_cases() if k == "notice-of-violation")
    data, _ = api.load(path)
    developer = {**data["recipient"], "role": "developer", "name": "Ridge Builders LLC"}
    to_developer = {**moved_into(data, wrenfield), "recipient": developer}
    text = html_text(api.build("notice-of-violation", to_developer).html)
    assert "Developer, to whom this notice is issued: Ridge Builders LLC" in text
    with pytest.raises(CaseInvalid) as refused:
        api.build("notice-of-violation", {**data, "recipient": developer})
    assert "is developer, but it is issued to the landowner" in str(refused.value)


def renumbered_homer() -> str:
    text = HOMER.read_text(encoding="utf-8")
    for old, new in (("228-77", "17-20"), ("228-78", "17-21"), ("228-79", "17-22")):
        text = text.replace(old, new)
    return text.replace('"228"', '"17"').replace("Ch. 228", "Ch. 17")


def test_pack_check_proves_a_renumbered_pack_and_names_what_an_incomplete_one_needs(tmp_path):
    """Homer's pack renumbered to §§ 17-20 to 17-22 renders every kind from the built-in
    samples (before: "'§ 228-78B(4)' is not a provision"); without the stop-work text it
    fails naming the value and the section that holds it."""
    pack = tmp_path / "walworth.yaml"
    pack.write_text(renumbered_homer(), encoding="utf-8")
    code, out = cli("pack", "check", pack)
    assert code == 0, out
    assert "extends 'new-york'" in out and "overrides" not in out
    # every kind Homer provides (each new kind one more): each renders from its sample
    provided = [name for name in KINDS if load_pack("homer").provides(name)]
    assert out.count("renders (pdf, docx, html)") == len(provided) >= 27
    lines = [line for line in pack.read_text().splitlines() if not line.startswith("  stop_work:")]
    pack.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out = cli("pack", "check", pack)
    assert code == 1
    assert (
        "enforcement.stop_work: is required (the text of the model law's stop_work_order "
        "section; this pack's § 17-22C(2))" in out
    ), out


def homer_data() -> dict[str, Any]:
    return yaml.safe_load(HOMER.read_text(encoding="utf-8"))


def write(tmp_path, data: dict[str, Any], name: str = "walworth"):
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def test_a_wrong_pack_is_refused_with_every_problem_at_once(tmp_path):
    data = homer_data()
    data["county_seat"] = {"value": "Cortland", "ref": "§ 228-77B"}  # no such key
    elements = data["enforcement"]["elements"]
    data["enforcement"]["elements"] = {
        "ref": elements["ref"],
        "site": elements["site"],
        "addressee": elements["addressee"],
        **{k: v for k, v in elements.items() if k not in ("ref", "site", "addressee")},
    }
    section_map = data["code"]["section_map"]["value"]
    section_map["stop_work_order"] = section_map["notice_of_violation"]
    data["counsel"]["ref"] = "§ 301-73B"  # another municipality's section, never renumbered
    code, out = cli("pack", "check", write(tmp_path, data))
    assert code == 1
    assert "invalid pack, 4 problems" in out, out
    assert "counsel: ref '§ 301-73B' names no provision of the pack's own law" in out
    assert "county_seat: is not a pack key (a typo?)" in out
    assert "list them in the law's order: addressee, site, nature" in out
    assert "section_map: notice_of_violation and stop_work_order are both '228-79C(1)'" in out


def test_a_foreign_reference_and_an_unfounded_override_are_refused_together(tmp_path):
    data = homer_data()
    data["counsel"]["ref"] = "§ 301-73B"  # Macedon's section, never renumbered
    data["enforcement"]["appeal_deadline"] = {
        "weekend_days": {"value": ["Sunday"], "ref": "GCL § 25-a(1)"}  # no local law says so
    }
    code, out = cli("pack", "check", write(tmp_path, data))
    assert code == 1
    assert "invalid pack, 2 problems" in out, out
    assert "counsel: ref '§ 301-73B' names no provision of the pack's own law" in out
    assert (
        "enforcement.appeal_deadline.weekend_days: overrides New York State law "
        "(GCL § 25-a(1)) citing 'GCL § 25-a(1)'"
    ) in out


def test_an_override_citing_the_packs_own_law_is_taken_and_listed(tmp_path, monkeypatch):
    data = homer_data()
    data["enforcement"]["appeal_deadline"] = {
        "weekend_days": {"value": ["Sunday"], "ref": "§ 228-79C(1)(f)"}
    }
    # The notice the appeal deadline is on, and the penalties it states: every kind of
    # Homer's pack is rendered by pack check in test_pack_check_proves_a_renumbered_pack...
    kept = ("notice-of-violation", "penalty-statement")
    data["provisions"] = {k: v for k, v in data["provisions"].items() if k in kept}
    path = write(tmp_path, data)
    code, out = cli("pack", "check", path)
    assert code == 0, out
    assert re.findall(r"^([a-z-]+) +renders", out, re.M) == list(kept), out
    assert (
        "overrides enforcement.appeal_deadline.weekend_days (GCL § 25-a(1)) with "
        "§ 228-79C(1)(f)" in out
    )
    monkeypatch.setenv(ENV, str(tmp_path))
    pack = load_pack("walworth")
    assert pack.enforcement.appeal_deadline.weekend_days.value == ["Sunday"]
    assert pack.enforcement.appeal_deadline.public_holidays.ref == "GCL § 24"  # the State's


def test_a_pack_that_extends_no_known_state_is_refused(tmp_path):
    data = {**homer_data(), "extends": "new-jersey"}
    with pytest.raises(DocgenError, match="'new-jersey' is not a state pack"):
        read_pack(write(tmp_path, data))


def test_pack_new_writes_every_value_to_fill_and_pack_check_names_each_blank(tmp_path):
    code, out = cli("pack", "new", "brookfield", "-o", tmp_path)
    assert code == 0, out
    path = tmp_path / "brookfield.yaml"
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    assert data["extends"] == "new-york"
    for key in ("name", "code", "offices", "enforcement", "penalties", "easement", "agreement"):
        assert key in data, key
    assert set(data["enforcement"]["elements"]) >= {"addressee", "appeal"}
    assert "appeal_deadline" not in data["enforcement"]  # the State's, not the town's
    assert "# the title of the officer the law charges with enforcing it" in text
    assert "the model law's stop_work_order section" in text
    path.write_text(text.replace('name: {value: ""', 'name: {value: "Town of Brookfield"'))
    code, out = cli("pack", "new", "brookfield", "-o", tmp_path)  # the town's work is kept
    assert code == 1 and "a different file is already there; it was kept" in out
    assert "Town of Brookfield" in path.read_text(encoding="utf-8")
    path.write_text(text, encoding="utf-8")
    code, out = cli("pack", "check", path)
    assert code == 1
    assert "name.ref: String should have at least 1 character" in out
    assert "enforcement.stop_work.ref" in out
