"""The steps after the notice as each municipality's law gives them (§ 228-79C(1)(f), (5),
(6); LAW.md §§ 11, 14): Macedon's article has none of them (no appeal, no notice whose
dates could be extended, neither provision), so each kind is refused naming what is
missing; the fictional adopter's pack provides each, and `pack check` renders each; a pack
may omit any, and `pack check` lists it as not provided and fails a step left without the
one it is issued upon."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from docgen import api
from docgen.documents import get_kind
from docgen.kinds import MODULES
from tests.helpers.enforcement_cases import cli, write_yaml
from tests.helpers.readback import pdf_text

ROOT = Path(__file__).resolve().parents[1]
HOMERS = "Homer's is § 228-79C("
KINDS = {
    "appeal-acknowledgment": ("homer-late-thanksgiving", "no appeal provision", HOMERS),
    "appeal-hearing": ("homer-hearing", "no appeal provision", HOMERS),
    "appeal-decision": ("homer-reversed", "no appeal provision", HOMERS),
    "extension-letter": (
        "homer-deficiency",
        "no municipal notice of deficiency or notice of violation",
        "Homer's are § 228-79A(1) and § 228-79C(1)",
    ),
    "occupancy-order": ("homer-occupancy", "withholding the certificate of occupancy", HOMERS),
    "occupancy-release": ("homer-released", "no order preventing occupancy to release", HOMERS),
    "restoration-notice": ("homer-restore", "the restoration of lands", HOMERS),
    "restoration-cost": ("homer-cost", "the Town's corrective action", HOMERS),
    "lien-notice": ("homer-lien", "a lien upon the property", HOMERS),
    "lien-release": ("homer-paid", "no lien to release", HOMERS),
}


@pytest.mark.parametrize("kind", KINDS)
def test_macedon_refuses_each_step_naming_the_missing_provision(tmp_path, kind):
    sample, missing, homers = KINDS[kind]
    data = yaml.safe_load((ROOT / "fixtures" / kind / f"{sample}.yaml").read_text("utf-8"))
    code, out = cli("check", kind, write_yaml(tmp_path, data | {"jurisdiction": "macedon"}))
    said = get_kind(kind).a_title  # the document's title, never the kind's code name
    assert code == 1 and f"Town of Macedon cannot issue {said}:" in out, out
    assert missing in out and homers in out, out
    assert "Traceback" not in out


def test_the_fictional_pack_provides_each_step_and_pack_check_renders_it():
    code, out = cli("pack", "check", ROOT / "tests" / "data" / "packs" / "alderbrook.yaml")
    assert code == 0, out
    for kind in KINDS:
        assert f"{kind:<26} renders (pdf, docx, html)" in out, (kind, out)


def test_the_cost_statement_refuses_a_total_its_items_do_not_make(tmp_path):
    data = yaml.safe_load(
        (ROOT / "fixtures" / "restoration-cost" / "homer-cost.yaml").read_text("utf-8")
    )
    data["total"] = "1500.00"
    code, out = cli("check", "restoration-cost", write_yaml(tmp_path, data))
    assert code == 1 and "$1,500.00 is not the sum of the items ($1,460.50)" in out, out
    assert "§ 228-79C(6)" in out


def test_pack_check_lists_each_step_a_pack_omits():
    """Wrenfield's pack lists none of the steps after the notice: each is said to be not
    provided (before, `pack check` was silent about a kind the pack did not list)."""
    code, out = cli("pack", "check", ROOT / "tests" / "data" / "packs" / "wrenfield.yaml")
    assert code == 0, out
    for kind in KINDS:
        assert re.search(rf"^{kind} +not provided: the pack does not list it", out, re.M), out


def unlisted(pack_text: str, kinds: list[str]) -> str:
    """The pack's text with the provisions of ``kinds`` taken out of its list."""
    return re.sub(rf"\n  (?:{'|'.join(kinds)}): \{{[^}}]*\}}", "", pack_text)


def test_a_step_omitted_fails_the_steps_issued_upon_it_in_pack_check(tmp_path):
    """An adopter collects the cost on the tax roll (no notice of lien) and leaves the
    hearing out: both are listed as not provided with the pack's reason, and the release of
    lien and the decision on appeal, which could then never be issued, fail pack check
    naming what they are issued upon; omitted too, the pack passes."""
    text = (ROOT / "tests" / "data" / "packs" / "alderbrook.yaml").read_text("utf-8")
    # The pack provides the steps after the notice and what they are issued upon (a notice of
    # violation states its penalties), no more: every kind of the fictional pack is rendered
    # by the test above.
    kept = {
        *KINDS,
        *("notice-of-violation", "penalty-statement", "stop-work-order", "inspection-report"),
    }
    text = unlisted(text, [k for k in MODULES if k not in kept])
    lien = 'lien-notice: {value: true, ref: "§ 412-32C(6)"}'
    hearing = '  appeal-hearing: {value: true, ref: "§ 412-32C(1)(f)"}\n'
    assert lien in text and hearing in text
    roll = 'note: "the Village adds the cost to the tax roll instead"'
    text = text.replace(lien, lien.replace("true", "false").replace("}", f", {roll}}}"))
    text = text.replace(hearing, "")
    path = tmp_path / "alderbrook.yaml"
    path.write_text(text, "utf-8")
    code, out = cli("pack", "check", path)
    assert code == 1, out
    assert re.search(r"^lien-notice +not provided: the Village adds the cost", out, re.M), out
    assert re.search(r"^appeal-hearing +not provided: the pack does not list it", out, re.M)
    assert (
        "FAILED lien-release is provided (§ 412-32C(6)) but the pack provides no notice of "
        "lien, which it is issued upon: none could be issued"
    ) in out, out
    assert "FAILED appeal-decision is provided" in out and "no notice of hearing" in out, out
    assert re.search(r"^restoration-cost +renders \(pdf, docx, html\)", out, re.M), out
    text = unlisted(text, ["lien-release", "appeal-decision"])
    path.write_text(text, "utf-8")
    code, out = cli("pack", "check", path)
    assert code == 0 and "FAILED" not in out, out
    provided = re.findall(r"^([a-z-]+) +renders \(pdf, docx, html\)", out, re.M)
    assert sorted(provided) == sorted(
        kept - {"lien-notice", "lien-release", "appeal-hearing", "appeal-decision"}
    ), out


def test_what_is_to_be_restored_ends_its_sentence_before_its_citation(tmp_path):
    """The officer types what is to be restored as a phrase, with or without a period: the
    notice's sentence ends with one before the section is cited, never "... inlet (§ ...)"."""
    data = yaml.safe_load(
        (ROOT / "fixtures" / "restoration-notice" / "homer-restore.yaml").read_text("utf-8")
    )
    data["restore"] = "regrade the cleared slope and seed it"
    _, files = api.render_bytes("restoration-notice", write_yaml(tmp_path, data), ("pdf",))
    said = " ".join(pdf_text(files["pdf"]).split())
    assert (
        "its undisturbed condition: regrade the cleared slope and seed it. (§ 228-79C(6))" in said
    )
