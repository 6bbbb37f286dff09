"""The deployment in docs/deploy.md, run for real: the systemd units pass `systemd-analyze
verify`; Caddy with the documented Caddyfile and its internal certificate authority serves
the desk, started with the unit's own ExecStart line, on loopback; a clerk signs in
through it over HTTPS; every docgen command the guide names exists with its options.

(Restoring a backup as the guide says: tests/register/test_register_restore.py.)
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.desk_server import PASSWORD, csrf_of, docgen, free_port, sqlite_of
from tests.helpers.caddy import start_caddy
from tests.helpers.tools import need

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "docs" / "deploy"
GUIDE = ROOT / "docs" / "deploy.md"
UNITS = ("docgen.service", "docgen-backup.service", "docgen-backup.timer")
INSTALLED = "/opt/docgen/venv"  # where the guide installs docgen


def unit_text(name: str) -> str:
    """A unit as installed here: the guide's /opt/docgen/venv is this checkout's venv."""
    return (DEPLOY / name).read_text(encoding="utf-8").replace(INSTALLED, sys.prefix)


def test_the_units_pass_systemd_analyze(tmp_path):
    analyze = need("systemd-analyze")
    for name in UNITS:
        (tmp_path / name).write_text(unit_text(name), encoding="utf-8")
    done = subprocess.run(
        [analyze, "verify", *(str(tmp_path / name) for name in UNITS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    ours = [line for line in done.stderr.splitlines() if str(tmp_path) in line]
    assert ours == []


def test_the_service_runs_as_its_own_user_with_private_files():
    service = unit_text("docgen.service")
    settings = dict(
        line.split("=", 1) for line in service.splitlines() if re.match(r"^[A-Z]\w*=", line)
    )
    assert settings["User"] == "docgen" and settings["UMask"] == "0077"
    assert settings["StateDirectoryMode"] == "0700"
    assert settings["CacheDirectoryMode"] == "0700"  # compiled templates: code is loaded
    assert "Environment=DOCGEN_CACHE=/var/cache/docgen" in service.splitlines()
    assert "--behind-proxy" in settings["ExecStart"]
    assert "--host 127.0.0.1" in settings["ExecStart"]  # never on a public address
    assert "--host-name ${DOCGEN_SITE}" in settings["ExecStart"]  # the name Caddy serves
    assert settings["EnvironmentFile"] == "/etc/docgen/docgen.env"


def exec_start(environment: dict[str, str]) -> list[str]:
    """The service's ExecStart as arguments, with this venv's docgen, its ${VARIABLES}
    replaced from ``environment`` as systemd replaces them from the environment file."""
    line = next(
        line for line in unit_text("docgen.service").splitlines() if line.startswith("ExecStart=")
    )
    words = shlex.split(line.removeprefix("ExecStart="))
    return [re.sub(r"\$\{(\w+)\}", lambda m: environment[m.group(1)], w) for w in words]


def wait_for(url: str, process: subprocess.Popen, log: Path, **client) -> None:
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(log.read_text())
        try:
            with httpx.Client(**client) as probe:
                probe.get(url, timeout=2)
            return
        except (httpx.TransportError, OSError):
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within 90 s:\n{log.read_text()}")


def test_a_clerk_signs_in_through_caddy_over_https(tmp_path):
    caddy = need("caddy")
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    added = docgen(
        home, "users", "add", "ann", "--role", "clerk", "--password-stdin", stdin=PASSWORD
    )
    assert added.returncode == 0, added.stderr

    desk_port = free_port()
    environment = {
        **os.environ,
        "DOCGEN_HOME": str(home),
        "DOCGEN_DATABASE_URL": sqlite_of(home),
        "DOCGEN_SITE": "localhost",  # docs/deploy.md, step 4
    }
    command = exec_start(environment)
    command[command.index("--port") + 1] = str(desk_port)
    desk_log = tmp_path / "desk.log"
    desk, proxy = None, None
    try:
        with open(desk_log, "w") as log:
            desk = subprocess.Popen(command, env=environment, stdout=log, stderr=subprocess.STDOUT)
        wait_for(f"http://127.0.0.1:{desk_port}/login", desk, desk_log)
        proxy = start_caddy(caddy, tmp_path, desk_port)
        site, trusted = proxy.site, proxy.trusted
        with httpx.Client(base_url=site, verify=trusted, timeout=30) as browser:
            page = browser.get("/login")
            assert page.status_code == 200
            assert page.headers["strict-transport-security"] == "max-age=31536000"
            assert "server" not in page.headers
            signed = browser.post(
                "/login",
                data={"username": "ann", "password": PASSWORD, "csrf_token": csrf_of(page.text)},
            )
            assert signed.status_code == 303, signed.text
            # Redirects stay on the proxy's https address, and the session cookie is Secure.
            assert signed.headers["location"].startswith(("/", site))
            session = [c for c in signed.headers.get_list("set-cookie") if "Max-Age=0" not in c]
            assert session and all("; secure" in c.lower() for c in session)
            drafts = browser.get(signed.headers["location"], follow_redirects=True)
            assert drafts.status_code == 200 and "ann" in drafts.text

        # Plain HTTP to Caddy is sent to HTTPS.
        with httpx.Client(timeout=10) as plain:
            moved = plain.get(f"http://localhost:{proxy.http_port}/login")
        assert moved.status_code in (301, 308)
        assert moved.headers["location"].startswith("https://localhost")
        # The health check is systemd's, on loopback: Caddy does not pass it on.
        with httpx.Client(base_url=site, verify=trusted, timeout=30) as stranger:
            assert stranger.get("/healthz").status_code == 404
    finally:
        if proxy is not None:
            proxy.stop()
        if desk is not None:
            desk.terminate()
            desk.wait(timeout=30)


def test_caddy_closes_connections_slow_to_send_their_request():
    """The documented Caddyfile, as Caddy reads it: a request's head within 10 s, the
    whole request within 2 minutes 30 seconds, an idle connection closed after 2 minutes
    (Caddy's own defaults have no limit; `docgen serve --header-timeout` is the desk's
    own). The body's time is longer than each of the desk's own (docgen.desk.server.limits), so
    a slow body is refused by the desk's 408, never Caddy's empty 200
    (tests/test_desk_slow_clients.py drives one through)."""
    from docgen.desk.server import limits

    caddy = need("caddy")
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert adapted.returncode == 0, adapted.stderr
    servers = json.loads(adapted.stdout)["apps"]["http"]["servers"]
    second = 1_000_000_000
    for server in servers.values():
        assert server["read_header_timeout"] == 10 * second
        assert server["read_timeout"] == 150 * second
        longest = max(limits.budget(path).seconds for path in ("/login", "/v/x", "/drafts"))
        assert server["read_timeout"] > longest * second
        assert server["idle_timeout"] == 120 * second


def guide_commands() -> list[list[str]]:
    """Every docgen command line in the guide's shell blocks (joined at backslashes)."""
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
    lines = "\n".join(blocks).replace("\\\n", " ").splitlines()
    found = []
    for line in lines:
        for part in re.split(r"\|\||&&|\|", line.split("#", 1)[0]):
            words = shlex.split(part)
            for lead in ("docgen-admin", "/opt/docgen/venv/bin/docgen"):
                if lead in words:
                    found.append(words[words.index(lead) + 1 :])
    return found


def test_every_command_the_guide_names_exists_with_its_options():
    import click

    from docgen.cli import main

    commands = guide_commands()
    assert len(commands) >= 8
    for words in commands:
        command, context = main, click.Context(main)
        rest = list(words)
        while isinstance(command, click.Group) and rest and not rest[0].startswith("-"):
            found = command.get_command(context, rest[0])
            assert found is not None, f"docs/deploy.md: no command {' '.join(words)!r}"
            command, context, rest = found, click.Context(found), rest[1:]
        options = {opt for param in command.params for opt in param.opts}
        for word in rest:
            if word.startswith("--"):
                assert word in options, f"docs/deploy.md: {' '.join(words)}: no option {word}"
