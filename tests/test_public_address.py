"""The public check's address printed on every issued document comes from the settings
(verification.address): a desk reached from other machines refuses to start while a
municipality's settings leave it unset or on loopback, issues nothing for a municipality
without one, `pack check --settings` warns, and `register check` lists the documents
already issued with a loopback address."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from docgen.settings import is_loopback
from tests.helpers.cli import docgen
from tests.helpers.register_cases import notice

PUBLIC = "verification:\n  address: https://homer.example.gov/\n"


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("DOCGEN_HOME", str(tmp_path))
    monkeypatch.delenv("DOCGEN_SETTINGS", raising=False)
    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    (tmp_path / "settings").mkdir()
    return tmp_path


@pytest.fixture
def NOTICE(tmp_path) -> Path:
    """A notice case the register numbers itself (a typed number would run ahead)."""
    path = tmp_path / "notice.yaml"
    path.write_text(yaml.safe_dump(notice(), allow_unicode=True), encoding="utf-8")
    return path


def settings(home: Path, name: str, text: str) -> Path:
    path = home / "settings" / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://127.8.9.10", True),
        ("http://localhost:8000/", True),
        ("https://desk.localhost", True),
        ("http://[::1]:8000", True),
        ("https://homer.example.gov", False),
        ("https://10.0.0.5", False),  # a village network: others can reach it
        ("https://127.example.gov", False),
    ],
)
def test_loopback_addresses(address, loopback):
    assert is_loopback(address) is loopback


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("homer.example.gov", "is not a web address"),
        ("ftp://homer.example.gov", "is not a web address"),
        ("https://", "is not a web address"),
        ("https://clerk:secret@homer.example.gov", "without a user, query or fragment"),
        ("https://homer.example.gov/?a=1", "without a user, query or fragment"),
        ("https://homer.example.gov:99999", "impossible port"),
    ],
)
def test_a_malformed_address_is_refused_naming_the_key(home, value, said):
    path = settings(home, "homer", f"verification:\n  address: {value}\n")
    done = docgen("pack", "check", "--settings", path)
    assert done.returncode == 1
    assert str(path) in done.stderr and "verification.address" in done.stderr
    assert said in done.stderr


def test_a_public_desk_will_not_start_without_a_public_address(home):
    refused = docgen(
        "serve", "--host-name", "desk.homer.example.gov", "--behind-proxy",
        "--proxy-address", "127.0.0.1",
    )  # fmt: skip
    assert refused.returncode == 2
    assert "verification.address" in refused.stderr
    assert str(home / "settings") in refused.stderr

    path = settings(home, "homer", "verification:\n  address: http://127.0.0.1:8000\n")
    refused = docgen("serve", "--host", "0.0.0.0", "--host-name", "desk.homer.example.gov")
    assert refused.returncode == 2
    assert f"{path}: verification.address is http://127.0.0.1:8000" in refused.stderr

    settings(home, "homer", PUBLIC)
    settings(home, "macedon", "offices: {phone: (315) 555-0100}\n")  # no address: refused
    refused = docgen("serve", "--host-name", "desk.homer.example.gov")
    assert refused.returncode == 2
    assert "macedon.yaml: verification.address is not set" in refused.stderr
    assert "homer.yaml" not in refused.stderr


def test_a_desk_on_loopback_starts_without_one(home, monkeypatch):
    """Loopback names and binds are the office's own machine: nothing is refused (the
    server itself is not started here: uvicorn.run is the last step)."""
    import uvicorn

    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(k["host"]))
    done = docgen(
        "serve", "--host-name", "localhost", "--behind-proxy", "--proxy-address", "127.0.0.1"
    )
    assert done.returncode == 0, done.stderr
    assert started == ["127.0.0.1"]


@pytest.mark.parametrize(
    "given,said",
    [
        ((), "--behind-proxy needs the address the proxy connects from"),
        (("--proxy-address", "*"), "is not one IP address"),
        (("--proxy-address", "127.0.0.1,10.0.0.1"), "is not one IP address"),
        (("--proxy-address", "proxy.example.org"), "is not one IP address"),
    ],
)
def test_behind_a_proxy_the_deputy_names_its_one_address(home, monkeypatch, given, said):
    """X-Forwarded-For is believed from the proxy only: no address by default (it was
    127.0.0.1, so any process on the machine could name any client), and one address,
    never a list, a name or a pattern. Refused before anything starts."""
    import uvicorn

    started = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(k))
    refused = docgen("serve", "--host-name", "localhost", "--behind-proxy", *given)
    assert refused.returncode == 2
    assert said in refused.stderr and "Traceback" not in refused.stderr
    assert started == []


def test_a_public_desk_issues_nothing_for_a_municipality_without_an_address(home, NOTICE):
    refused = docgen(
        "issue", "notice-of-violation", NOTICE, "-o", home / "out", env={"DOCGEN_SERVE_PUBLIC": "1"}
    )
    assert refused.returncode == 1
    assert "verification.address is not set" in refused.stderr
    assert "nothing was issued" in refused.stderr
    assert not (home / "out").exists()

    settings(home, "homer", PUBLIC)
    issued = docgen(
        "issue", "notice-of-violation", NOTICE, "-o", home / "out", env={"DOCGEN_SERVE_PUBLIC": "1"}
    )
    assert issued.returncode == 0, issued.stderr
    checked = docgen("register", "check")
    assert checked.returncode == 0 and "warning" not in checked.stdout


def test_pack_check_warns_and_register_check_lists_loopback_documents(home, NOTICE):
    path = settings(home, "homer", "offices: {phone: (607) 555-0199}\n")
    checked = docgen("pack", "check", "--settings", path)
    assert checked.returncode == 0
    assert f"warning: {path}: verification.address is not set" in checked.stdout

    issued = docgen("issue", "notice-of-violation", NOTICE, "-o", home / "out")
    assert issued.returncode == 0, issued.stderr
    number = re.search(r"NOV-\d{4}-\d{4}", issued.stdout).group(0)
    checked = docgen("register", "check")
    assert checked.returncode == 0  # genuine documents: listed, not a failure
    assert (
        f"warning: {number} tells the public to check it at http://127.0.0.1:8000, which only "
        "this machine can reach" in checked.stdout
    )
