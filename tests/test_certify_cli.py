"""`docgen certify`: a site, an invitation mailed through the settings' SMTP server (a local
aiosmtpd the test starts), the list of firms and their status, a revoked link; the smtp
settings keep no password in the file."""

from __future__ import annotations

import re
import socket
from email import message_from_bytes

import pytest

from docgen.settings import SettingsInvalid, read_settings
from tests.helpers.cli import docgen


class Mailbox:
    def __init__(self) -> None:
        self.messages: list = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.rcpt_tos, message_from_bytes(envelope.content)))
        return "250 OK"


@pytest.fixture
def mailbox(tmp_path, monkeypatch):
    from aiosmtpd.controller import Controller

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box = Mailbox()
    server = Controller(box, hostname="127.0.0.1", port=port)
    server.start()
    settings = tmp_path / "settings"
    settings.mkdir()
    (settings / "homer.yaml").write_text(
        "verification:\n  address: https://homer.example.gov\n"
        f"smtp:\n  host: 127.0.0.1\n  port: {port}\n  from: clerk@homer.example.gov\n"
        "  starttls: false\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("DOCGEN_SETTINGS", str(settings))
    monkeypatch.setenv("DOCGEN_DATABASE_URL", f"sqlite:///{tmp_path / 'docgen.sqlite'}")
    yield box
    server.stop()


def test_an_invitation_is_mailed_listed_and_revoked(mailbox):
    made = docgen(
        *("certify", "site", "--jurisdiction", "homer", "--project", "Elm Street"),
        *("--street", "12 Elm Street", "--city", "Homer", "--zip", "13077"),
    )
    assert made.returncode == 0, made.stderr
    site = re.search(r"site (\d+)", made.stdout).group(1)
    sent = docgen("certify", "invite", site, "--firm", "Acme", "--email", "office@acme.example")
    assert sent.returncode == 0, sent.stderr
    assert "sent to office@acme.example through 127.0.0.1" in sent.stdout
    assert "/certify/" not in sent.stdout  # the link went by mail only
    ((to, mail),) = mailbox.messages
    assert to == ["office@acme.example"]
    body = mail.get_payload(decode=True).decode()
    assert re.search(r"https://homer\.example\.gov/certify/[A-Za-z0-9_-]{43}", body)
    assert "§ 228-78B(4)" in body and "Acme" in body
    listed = docgen("certify", "list", site)
    assert re.search(r"^1  Acme  invited \(until \d{4}-\d\d-\d\d\)$", listed.stdout, re.M)
    invitation = re.search(r"invitation (\d+)", sent.stdout).group(1)
    assert docgen("certify", "revoke", invitation).returncode == 0
    assert "1  Acme  revoked" in docgen("certify", "list", site).stdout
    late = docgen("certify", "invite", site, "--firm", "Beta", "--expires", "2020-01-01")
    assert late.returncode == 1 and "Expires: 2020-01-01 is not after today" in late.stderr


def test_the_smtp_password_is_never_in_the_settings_file(tmp_path):
    path = tmp_path / "homer.yaml"
    path.write_text("smtp:\n  host: mail.example\n  from: a@b.example\n  password: x\n")
    with pytest.raises(SettingsInvalid, match="password"):
        read_settings(path)
