"""docs/deploy.md followed, not just read: every command of its shell blocks is run in the
guide's order, as written, on a fresh folder standing for the server's disk, with a
PostgreSQL server the test starts, Caddy on loopback and the systemd units' ExecStart run
directly; every command must succeed.

What cannot be run as written on a test machine is translated, each in one place below and
nothing else: absolute paths of the guide (/etc/docgen, /var/lib/docgen, /opt/docgen, ...)
live under the fresh folder; the service user is this test's user (`useradd` and `chown`
are checked, not run; docgen-admin is the guide's script with `runuser -u docgen` left
out); `apt-get install` checks that each package it names is installed; the release wheel
is this checkout's; `systemctl` starts, checks and stops the units' own command lines;
PostgreSQL's socket folder is the test server's (the guide's URL unchanged, its port from
PGPORT as libpq reads it). Placeholders in the guide (a backup's name, a served notice's
file) name what the test made. A block marked `<!-- guide: sqlite -->` is for a SQLite
register and left out of this PostgreSQL run (SQLite's restore: test_register_restore.py).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import yaml
from conftest import ROOT

from tests.desk_server import csrf_of, free_port
from tests.helpers import pgserver
from tests.helpers.caddy import Caddy, start_caddy
from tests.helpers.guides import guide_blocks
from tests.helpers.register_cases import notice
from tests.helpers.tools import need
from tests.helpers.wheels import environment, pip_install

GUIDE = ROOT / "docs" / "deploy.md"
# The guide's folders on the server, each put under the test's fresh folder.
SERVER_PATHS = (
    "/etc/docgen", "/var/lib/docgen", "/var/backups/docgen", "/opt/docgen", "/usr/local/bin",
    "/etc/systemd/system", "/etc/caddy", "/var/run/postgresql", "/root",
)  # fmt: skip
PLACEHOLDER_BACKUP = re.compile(r"\S*/var/backups/docgen/docgen-2026-12-01-023000\.backup")
PLACEHOLDER_WHEEL = re.compile(r"\S*/root/docgen-[\w.]+-py3-none-any\.whl")
PLACEHOLDER_NOTICE = "/path/to/a/served/notice.pdf"


@dataclass
class Server:
    """The fresh folder standing for the server, and what runs on it."""

    root: Path
    checkout: Path
    wheel: Path
    postgres: str
    env: dict[str, str]
    ran: list[str] = field(default_factory=list)
    desk: subprocess.Popen | None = None
    desk_port: int = 0
    caddy: Caddy | None = None
    notice_pdf: Path | None = None
    browser: httpx.Client | None = None

    def rooted(self, text: str) -> str:
        for path in SERVER_PATHS:
            text = re.sub(
                rf"(?<![\w/.]){re.escape(path)}(?=[/\s'\"]|$)", f"{self.root}{path}", text
            )
        return text

    def placeholders(self, text: str) -> str:
        text = PLACEHOLDER_WHEEL.sub(str(self.wheel), text)
        backups = sorted((self.root / "var/backups/docgen").glob("docgen-*.backup"))
        if backups:
            text = PLACEHOLDER_BACKUP.sub(str(backups[-1]), text)
        if self.notice_pdf is not None:
            text = text.replace(PLACEHOLDER_NOTICE, str(self.notice_pdf))
        return text

    def shell(self, command: str) -> subprocess.CompletedProcess:
        done = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", command],
            cwd=self.checkout, env=self.env, capture_output=True, text=True, timeout=300,
            check=False,
        )  # fmt: skip
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        return done

    def service_env(self) -> dict[str, str]:
        """The environment the units give docgen: the environment file, then Environment=."""
        env = dict(self.env)
        lines = (self.root / "etc/docgen/docgen.env").read_text(encoding="utf-8").splitlines()
        for line in lines:
            if "=" in line and not line.startswith("#"):
                key, value = line.split("=", 1)
                env[key] = value
        env["DOCGEN_HOME"] = str(self.root / "var/lib/docgen")
        env["DOCGEN_SETTINGS"] = str(self.root / "etc/docgen/settings")
        env["DOCGEN_CACHE"] = str(self.root / "var/cache/docgen")
        return env

    # -- each kind of command -----------------------------------------------------------
    def run(self, command: str) -> None:
        self.ran.append(command)
        if "<<" not in command and " && " in command:
            for part in command.split(" && "):
                self.run_one(part.strip())
        else:
            self.run_one(command)

    def run_one(self, command: str) -> None:
        words = shlex.split(command.split("<<", 1)[0], comments=True)
        program = words[0]
        if program == "useradd":
            assert words[-1] == "docgen" and "--system" in words
        elif program == "apt-get":
            # One dpkg-query for all: installed, or else known to apt (apt-cache reads
            # the whole package list: two thirds of a second a package here).
            packages = [w for w in words[2:] if not w.startswith("-")]
            installed = subprocess.run(
                ["dpkg-query", "-W", "-f=${Package} ${Status}\n", *packages],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            found = {
                line.split(" ", 1)[0]
                for line in installed.stdout.splitlines()
                if line.endswith("install ok installed")
            }
            for package in (p for p in packages if p not in found):
                known = subprocess.run(
                    ["apt-cache", "show", package], capture_output=True, check=False
                )
                assert known.returncode == 0, (
                    f"docs/deploy.md names the Debian package {package}, which is not known"
                )
        elif program == "chown":
            for target in words[2:]:
                assert Path(self.rooted(target)).exists(), target
        elif program == "systemctl":
            self.systemctl(words[1:])
        elif program == "journalctl":
            pass  # the log: the desk's own output, read by `systemctl status` below
        elif program == "python3" and words[1:3] == ["-m", "venv"]:
            environment(Path(self.rooted(words[3])))
        elif program.endswith("/venv/bin/pip") and "requirements.lock" in words:
            # the checkout's lock, with its hashes; this environment, which the server's
            # reaches through its .pth line, was installed from it (tests/test_lock.py)
            assert words[2:] == ["--require-hashes", "-r", "requirements.lock"], command
            assert (self.checkout / "requirements.lock").is_file()
        elif program.endswith("/venv/bin/pip"):
            python = Path(self.rooted(program)).with_name("python")
            args = [self.placeholders(self.rooted(w)) for w in words[2:]]
            done = pip_install(python, *args)
            assert done.returncode == 0, done.stderr
        elif program == "runuser" and words[1:3] == ["-u", "postgres"]:
            tail = words[words.index("--") + 1 :]
            as_postgres = words if os.geteuid() == 0 else tail
            done = subprocess.run(
                as_postgres, env=self.env, capture_output=True, text=True, check=False
            )
            assert done.returncode == 0, f"{command}\n{done.stderr}"
        elif program == "install" and "-d" in words:
            # -o and -g name the service user: this test's own user stands for it.
            self.shell(self.rooted(re.sub(r"\s-[og]\s+\S+", "", command)))
        elif program == "install" and words[-1].endswith("/docgen-admin"):
            self.shell(self.rooted(command))
            script = Path(self.rooted(words[-1]))
            text = self.rooted(script.read_text(encoding="utf-8"))
            script.write_text(text.replace("runuser -u docgen -- ", ""), encoding="utf-8")
        else:
            self.shell(self.placeholders(self.rooted(command)))

    def systemctl(self, args: list[str]) -> None:
        verb, unit = args[0], args[-1]
        if verb in ("daemon-reload", "edit"):
            return
        if unit == "docgen-backup.timer":
            assert (self.root / "etc/systemd/system/docgen-backup.timer").is_file()
        elif unit == "docgen-backup":
            self.backup()
        elif unit == "docgen" and verb in ("start", "enable"):
            self.start_desk()
        elif unit == "docgen" and verb == "stop":
            self.stop(self.desk)
            self.desk = None
        elif unit == "docgen" and verb == "status":
            assert self.desk is not None and self.desk.poll() is None
            log = (self.root / "desk.log").read_text(encoding="utf-8")
            assert f"docgen desk on http://127.0.0.1:{self.desk_port}/" in log
        elif unit == "caddy" and verb == "restart":
            self.start_caddy()
        else:
            raise AssertionError(f"docs/deploy.md: systemctl {' '.join(args)} is not followed")

    def unit_lines(self, name: str) -> dict[str, list[str]]:
        text = (self.root / "etc/systemd/system" / name).read_text(encoding="utf-8")
        found: dict[str, list[str]] = {}
        for line in text.splitlines():
            if re.match(r"^[A-Z]\w*=", line):
                key, value = line.split("=", 1)
                found.setdefault(key, []).append(value)
        return found

    def start_desk(self) -> None:
        unit = self.unit_lines("docgen.service")
        env = self.service_env()
        words = shlex.split(self.rooted(unit["ExecStart"][0]))
        words = [re.sub(r"\$\{(\w+)\}", lambda m: env[m.group(1)], w) for w in words]
        self.desk_port = free_port()
        words[words.index("--port") + 1] = str(self.desk_port)
        with open(self.root / "desk.log", "w") as log:  # the server keeps its own descriptor
            self.desk = subprocess.Popen(
                words, env=env, stdout=log, stderr=subprocess.STDOUT, umask=0o077
            )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert self.desk.poll() is None, (self.root / "desk.log").read_text()
            try:
                answer = httpx.get(
                    f"http://127.0.0.1:{self.desk_port}/login",
                    headers={"Host": env["DOCGEN_SITE"]},
                    timeout=5,
                )
                assert answer.status_code == 200, answer.text
                return
            except httpx.TransportError:
                time.sleep(0.3)
        raise AssertionError("the desk did not answer within 120 s")

    def backup(self) -> None:
        unit = self.unit_lines("docgen-backup.service")
        env = self.service_env()
        for key in ("ExecStart", "ExecStartPost"):
            line = self.rooted(unit[key][0]).replace("%%", "%")
            done = subprocess.run(
                shlex.split(line), env=env, capture_output=True, text=True, check=False,
                umask=0o077,
            )  # fmt: skip
            assert done.returncode == 0, f"{key}: {done.stderr}"

    def start_caddy(self) -> None:
        """`systemctl restart caddy`: the installed Caddyfile, for the guide's site name."""
        self.caddy = start_caddy(
            need("caddy"),
            self.root,
            self.desk_port,
            name=self.service_env()["DOCGEN_SITE"],
            config=self.root / "etc/caddy/Caddyfile",
        )

    def through_caddy(self, method: str, path: str, **kw) -> httpx.Response:
        """A request to the desk through Caddy (one browser: its cookies are kept)."""
        if self.browser is None:
            self.browser = httpx.Client(verify=self.caddy.trusted, timeout=30)
        return self.caddy.request(self.browser, method, path, **kw)

    @staticmethod
    def stop(process: subprocess.Popen | None) -> None:
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def test_the_deputy_follows_the_guide_on_postgresql(checkout_wheel, request, postgres_server):
    need("caddy")
    # A short folder: PostgreSQL's socket path under it must stay within 107 bytes.
    root = Path(tempfile.mkdtemp(prefix="guide-", dir="/tmp"))
    request.addfinalizer(lambda: shutil.rmtree(root, ignore_errors=True))
    (root / "var/run").mkdir(parents=True)
    (root / "var/run/postgresql").symlink_to(pgserver.socket_folder(postgres_server))
    (root / "root").mkdir()
    bin_folder = root / "usr/local/bin"
    bin_folder.mkdir(parents=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/caddy").mkdir(parents=True)
    env = {
        **os.environ,
        "PATH": f"{bin_folder}:{os.environ['PATH']}",
        "PGHOST": str(pgserver.socket_folder(postgres_server)),
        "PGPORT": str(pgserver.port_of(postgres_server)),
        "PGUSER": "postgres",
    }
    env.pop("DOCGEN_DATABASE_URL", None)
    server = Server(root, ROOT, checkout_wheel, postgres_server, env)
    text = GUIDE.read_text(encoding="utf-8")
    password = re.search(r"printf '%s' '([^']+)' \| docgen-admin users add ann", text).group(1)
    try:
        for block in guide_blocks(text):
            if block.only == "sqlite":
                continue
            for command in block.commands:
                if "systemctl start docgen-backup" in command and server.notice_pdf is None:
                    # A clerk's day before the night's backup: a notice issued and served.
                    server.notice_pdf = issue_a_notice(server)
                server.run(command)
            if server.caddy is not None and not getattr(server, "signed_in", False):
                sign_in_through_caddy(server, password)
                server.signed_in = True
        assert server.notice_pdf is not None and getattr(server, "signed_in", False)
        # The guide's end state: the restored register issues again, above the numbers
        # accounted for, and `register check` says the gap's reason.
        checked = server.shell("docgen-admin register check").stdout
        assert "used after the backup, stated by" in checked
        assert "NOV-2026-0002 to NOV-2026-0007, AOS-2026-0001 to AOS-2026-0012" in checked
        assert server.desk is not None and server.desk.poll() is None
        assert "migrated from" not in server.shell("docgen-admin register upgrade").stdout
    finally:
        if server.browser is not None:
            server.browser.close()
        if server.caddy is not None:
            server.caddy.stop()
        server.stop(server.desk)
    # What the table "Files and who may read them" says.
    for path, mode in (("var/lib/docgen", 0o700), ("var/backups/docgen", 0o700)):
        assert (root / path).stat().st_mode & 0o777 == mode, path
    for backup in (root / "var/backups/docgen").glob("*.backup"):
        assert backup.stat().st_mode & 0o077 == 0, backup
    assert len(server.ran) >= 40, server.ran


def issue_a_notice(server: Server) -> Path:
    folder = server.root / "clerk"
    folder.mkdir()
    case = folder / "case.yaml"
    case.write_text(yaml.safe_dump(notice("2026-03-02"), allow_unicode=True), encoding="utf-8")
    server.shell(f"docgen-admin issue notice-of-violation {case} -f pdf -o {folder}/")
    (pdf,) = folder.glob("NOV-*.pdf")
    return pdf


def sign_in_through_caddy(server: Server, password: str) -> None:
    page = server.through_caddy("GET", "/login")
    assert page.status_code == 200, page.text
    signed = server.through_caddy(
        "POST",
        "/login",
        data={"username": "ann", "password": password, "csrf_token": csrf_of(page.text)},
    )
    assert signed.status_code == 303, signed.text


def test_the_guide_reads_as_commands():
    """The parser the run above relies on: blocks in order, continuations joined, the
    settings file's here-document one command, and the marked blocks found."""
    blocks = guide_blocks(GUIDE.read_text(encoding="utf-8"))
    commands = [c for b in blocks for c in b.commands]
    assert any(c.startswith("cat > /etc/docgen/settings/homer.yaml <<'EOF'\n") for c in commands)
    heredoc = next(c for c in commands if c.startswith("cat > /etc/docgen/settings"))
    assert heredoc.rstrip().endswith("EOF") and "verification:" in heredoc
    assert any(
        c.startswith("apt-get install --no-install-recommends python3-venv") for c in commands
    )
    assert {b.only for b in blocks} == {None, "sqlite", "postgresql"}
