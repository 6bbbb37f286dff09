"""A municipality's settings outside the package: found in the register's home (or
DOCGEN_SETTINGS), validated like a pack, replacing the pack values a village edits while
keeping their citations, checked by `docgen pack check --settings`, never written by docgen."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import ROOT

from docgen import api
from docgen.cli import main
from docgen.law.packs import load_pack
from docgen.settings import SettingsInvalid, load_settings, settings_path
from tests.helpers.readback import html_text

FIXTURES = ROOT / "fixtures"

HOMER = """\
offices:
  phone: "(607) 555-0199"
  hours: Monday to Friday, 8:30 a.m. to 4:30 p.m.
  appeal_office: Village Clerk-Treasurer
officers:
  enforcement: {name: Dana R. Whitcomb, title: Code Enforcement Officer}
  signatory: {name: Hal Brennan, title: Deputy Mayor}
resolutions:
  instruments: {body: Board of Trustees, date: 2026-01-05, resolution: "2026-04"}
verification:
  address: https://homer.example.gov/
"""


@pytest.fixture
def settings_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "settings"
    folder.mkdir()
    monkeypatch.setenv("DOCGEN_SETTINGS", str(folder))
    return folder


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_settings_replace_the_values_a_village_edits_and_keep_their_citations(settings_dir):
    before = load_pack("homer")
    write(settings_dir, "homer", HOMER)
    pack = load_pack("homer")
    assert pack.offices.phone.value == "6075550199"
    assert pack.offices.phone.ref == before.offices.phone.ref
    assert pack.offices.hours.value == "Monday to Friday, 8:30 a.m. to 4:30 p.m."
    assert pack.offices.hours.ref == before.offices.ref  # the group's citation
    assert pack.offices.street == before.offices.street  # not given: the pack's own
    assert pack.enforcement.appeal_office.value == "Village Clerk-Treasurer"
    assert pack.recording.signatory.value == "Deputy Mayor"
    assert pack.recording.authorization.value.resolution == "2026-04"
    local = load_settings("homer")
    assert local.settings.officers.enforcement.name == "Dana R. Whitcomb"
    assert local.settings.verification.address == "https://homer.example.gov"
    assert load_settings("macedon") is None  # a municipality without settings
    assert load_pack("macedon").offices.phone == load_pack("macedon").offices.phone


def test_a_rendered_notice_prints_the_settings(settings_dir):
    case = FIXTURES / "notice-of-violation" / "homer-first-offense.yaml"
    write(settings_dir, "homer", HOMER)
    text = html_text(api.build("notice-of-violation", case).standalone())
    assert "(607) 555-0199" in text
    assert "open Monday to Friday, 8:30 a.m. to 4:30 p.m." in text
    assert "Village Clerk-Treasurer" in text


def test_the_standing_resolution_signs_an_instrument_that_names_none(settings_dir):
    case = yaml.safe_load(
        (FIXTURES / "maintenance-easement" / "homer-individual.yaml").read_text(encoding="utf-8")
    )
    del case["authorization"], case["signatory"]  # the village's standing officer signs
    write(settings_dir, "homer", HOMER)
    text = html_text(api.build("maintenance-easement", case).standalone())
    assert "Resolution No. 2026-04 of the Board of Trustees" in text
    assert "Name: Hal Brennan" in text and "Title: Deputy Mayor" in text
    assert "Hal Brennan, the Deputy Mayor of the Village of Homer" in " ".join(text.split())


def test_the_settings_folder_defaults_to_the_register_home(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCGEN_SETTINGS", raising=False)
    monkeypatch.setenv("DOCGEN_HOME", str(tmp_path))
    assert settings_path("Homer") == tmp_path.resolve() / "settings" / "homer.yaml"
    assert ROOT / "docgen" not in settings_path("homer").parents


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("offices: {phone: 555-0199}\n", "offices.phone: '555-0199' is not a ten-digit"),
        ("offices: {telephone: 6075550199}\n", "offices.telephone: is not a settings key"),
        ("officers: {signatory: {name: Hal Brennan}}\n", "officers.signatory.title: is required"),
        (
            "resolutions: {instruments: {body: B, date: 2026-02-30, resolution: '1'}}\n",
            "not valid YAML: day is out of range",
        ),
        ("verification: {address: homer.example.gov}\n", "verification.address: 'homer.example"),
        ("offices: {phone: 1}\noffices: {phone: 2}\n", "key 'offices' given twice"),
        ("- a list\n", "settings are a mapping"),
    ],
)
def test_bad_settings_name_the_file_and_the_key(settings_dir, text, expected):
    path = write(settings_dir, "homer", text)
    with pytest.raises(SettingsInvalid) as err:
        load_pack("homer")
    assert str(err.value).startswith(str(path))
    assert expected in str(err.value)


def test_a_setting_with_nothing_to_replace_is_an_error(settings_dir):
    # Macedon's pack provides no enforcement kinds: there is no appeal office to set.
    path = write(settings_dir, "macedon", "offices: {appeal_office: Town Clerk}\n")
    with pytest.raises(SettingsInvalid) as err:
        load_pack("macedon")
    assert f"{path}: offices.appeal_office: the macedon pack gives no enforcement" in str(err.value)


def test_pack_check_validates_a_settings_file(settings_dir):
    good = write(settings_dir, "homer", HOMER)
    result = CliRunner().invoke(main, ["pack", "check", "--settings", str(good)])
    assert result.exit_code == 0, result.output
    assert "valid settings for 'homer' (Village of Homer)" in result.output
    bad = write(settings_dir.parent, "homer", "officers: {mayor: {name: A, title: B}}\n")
    result = CliRunner().invoke(main, ["pack", "check", "--settings", str(bad)])
    assert result.exit_code == 1
    assert f"{bad}: invalid settings" in result.output
    assert "officers.mayor: is not a settings key" in result.output
    unknown = write(settings_dir.parent, "springfield", "offices: {hours: 9 to 5}\n")
    result = CliRunner().invoke(main, ["pack", "check", "--settings", str(unknown)])
    assert result.exit_code == 1
    assert "unknown jurisdiction 'springfield'" in result.output


def test_a_changed_settings_file_is_read_again(settings_dir):
    path = write(settings_dir, "homer", "offices: {hours: 9 to 5}\n")
    assert load_pack("homer").offices.hours.value == "9 to 5"
    path.write_text("offices: {hours: 8 to 4, phone: 6075550100}\n", encoding="utf-8")
    assert load_pack("homer").offices.hours.value == "8 to 4"


def test_pack_check_checks_the_signing_files(settings_dir):
    from tests.helpers import pki

    good = pki.install(settings_dir)
    result = CliRunner().invoke(main, ["pack", "check", "--settings", str(good)])
    assert result.exit_code == 0, result.output
    assert "trust root subject:" in result.output and "Root CA" in result.output
    (settings_dir / "keys" / "homer.p12").unlink()
    result = CliRunner().invoke(main, ["pack", "check", "--settings", str(good)])
    assert result.exit_code == 1
    assert f"signing.key: no such file {settings_dir / 'keys' / 'homer.p12'}" in result.output
    (settings_dir / "keys" / "root.pem").write_text("not a certificate")
    result = CliRunner().invoke(main, ["pack", "check", "--settings", str(good)])
    assert result.exit_code == 1 and "not an X.509 certificate" in result.output
