"""Access codes (random, grouped, no look-alikes, stored hashed) and `docgen keys`:
a pilot key made and named in the settings, shown, and its passphrase never an argument."""

from __future__ import annotations

import math
import re

import pytest
from click.testing import CliRunner

from docgen.cli import main
from docgen.settings import load_settings
from docgen.signing import codes
from docgen.signing.keys import read_certificate, read_key, usable


def test_access_codes_are_random_grouped_and_without_look_alikes():
    found = {codes.new_code() for _ in range(200)}
    assert len(found) == 200
    for code in found:
        assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code)
    assert not set("01ILO") & set(codes.ALPHABET)
    assert codes.LENGTH * math.log2(len(codes.ALPHABET)) >= 40


def test_a_code_is_stored_hashed_and_read_as_a_person_types_it():
    code = codes.new_code()
    stored = codes.hash_code(code)
    assert code not in stored and code.replace("-", "") not in stored
    assert codes.code_matches(stored, code)
    assert codes.code_matches(stored, code.lower().replace("-", " "))
    assert codes.code_matches(stored, code.replace("-", ""))
    other = codes.new_code()
    assert not codes.code_matches(stored, other)
    assert not codes.code_matches(stored, "")
    assert not codes.code_matches(None, code)
    assert not codes.code_matches(stored, code + "X")


def test_the_qr_code_is_an_accessible_svg_of_the_address():
    svg = str(codes.qr_svg("https://homer.example.gov/v/NOV-2026-0001?code=7K3M-Q9PX-2D4H"))
    assert svg.startswith("<svg") and "<title>QR code: https://homer.example.gov/v/" in svg
    assert codes.check_address("https://h.example/", "NOV 1/2") == "https://h.example/v/NOV%201%2F2"


def test_keys_create_names_a_pilot_key_in_the_settings_and_show_prints_it(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_SETTINGS", str(tmp_path))
    (tmp_path / "homer.yaml").write_text("# Village settings\noffices: {hours: 9 to 5}\n")
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["keys", "create", "--jurisdiction", "homer", "--passphrase-stdin"],
        input="a pilot passphrase\n",
    )
    assert result.exit_code == 0, result.output
    local = load_settings("homer")
    assert local.settings.offices.hours == "9 to 5"  # the rest of the file kept
    assert "# Village settings" in (tmp_path / "homer.yaml").read_text()
    assert local.settings.signing.key == tmp_path / "keys" / "homer.p12"
    key = read_key(local.settings.signing.key, b"a pilot passphrase")
    usable(key.certificate)
    assert key.certificate == read_certificate(local.settings.signing.certificate)
    assert "Village of Homer" in key.certificate.subject.rfc4514_string()
    shown = runner.invoke(main, ["keys", "show", "--jurisdiction", "homer"])
    assert shown.exit_code == 0, shown.output
    assert re.search(r"SHA-256: +([0-9A-F]{2}:){31}[0-9A-F]{2}", shown.output)
    assert re.search(r"subject: .*CN=Village of Homer", shown.output)
    assert "usable for signing: yes" in shown.output
    again = runner.invoke(
        main, ["keys", "create", "-j", "homer", "--passphrase-stdin"], input="a pilot passphrase\n"
    )
    assert again.exit_code == 1 and "a key is already there" in again.output


def test_a_passphrase_is_never_an_argument(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_SETTINGS", str(tmp_path))
    result = CliRunner().invoke(main, ["keys", "create", "-j", "homer", "--passphrase", "x" * 20])
    assert result.exit_code == 2
    short = CliRunner().invoke(
        main, ["keys", "create", "-j", "homer", "--passphrase-stdin"], input="short\n"
    )
    assert short.exit_code == 1 and "at least 12 characters" in short.output


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("Kq7Zp2Wm" + "\u200b" * 6, "at least 12 characters (counted as they show)"),
        ("".join(c + "\u0301" for c in "Kq7Zp2Wm"), "at least 12 characters"),  # 8 shown
        ("password1234", "one of the most common passwords"),
        ("aaaaaaaaaaaaaaaa", "repeats a few characters"),
    ],
)
def test_keys_create_refuses_what_the_desk_refuses_for_a_password(
    typed, said, tmp_path, monkeypatch
):
    from docgen.desk.base.auth import password_problem

    monkeypatch.setenv("DOCGEN_SETTINGS", str(tmp_path))
    refused = CliRunner().invoke(
        main, ["keys", "create", "-j", "homer", "--passphrase-stdin"], input=f"{typed}\n"
    )
    assert refused.exit_code == 1 and said in refused.output, refused.output
    assert said in password_problem(typed)
    assert not (tmp_path / "keys").exists()


def test_keys_show_without_a_key(tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_SETTINGS", str(tmp_path))
    result = CliRunner().invoke(main, ["keys", "show", "-j", "homer"])
    assert result.exit_code == 1
    assert "no signing key is named" in result.output
