"""Caddy with the documented Caddyfile (docs/deploy/Caddyfile) in front of a desk on
loopback, on free ports with its internal certificate authority, as in the tests of the
deployment and of slow clients."""

from __future__ import annotations

import os
import ssl
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

CADDYFILE = Path(__file__).resolve().parents[2] / "docs" / "deploy" / "Caddyfile"


@dataclass
class Caddy:
    process: subprocess.Popen
    https_port: int
    http_port: int
    trusted: ssl.SSLContext
    log: Path
    name: str = "localhost"  # the site name it serves (DOCGEN_SITE)

    @property
    def site(self) -> str:
        return f"https://{self.name}:{self.https_port}"

    def request(self, client: httpx.Client, method: str, path: str, **kw) -> httpx.Response:
        """``method path`` through Caddy on loopback, for its site name whatever it is
        (the name sent as SNI and Host, without resolving it)."""
        return client.request(
            method,
            f"https://127.0.0.1:{self.https_port}{path}",
            headers={"Host": self.name},
            extensions={"sni_hostname": self.name},
            **kw,
        )

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_caddy(
    caddy: str,
    folder: Path,
    upstream_port: int,
    name: str = "localhost",
    config: Path = CADDYFILE,
) -> Caddy:
    """Caddy serving https://NAME:<port> (``config``, the documented Caddyfile by default)
    in front of 127.0.0.1:``upstream_port``. A free port can be taken by another process
    between its choice and Caddy's bind (the suite runs in parallel): Caddy then exits
    saying so, and starts again on other ports."""
    for _ in range(4):
        started = _start_caddy(caddy, folder, upstream_port, name, config)
        if started is not None:
            return started
    raise AssertionError("Caddy found no free port in four tries")


def _start_caddy(
    caddy: str, folder: Path, upstream_port: int, name: str, config: Path
) -> Caddy | None:
    """Caddy started and answering, or None when a port it was given was taken."""
    from tests.desk_server import free_port

    https_port, http_port = free_port(), free_port()
    environment = {
        **os.environ,
        "DOCGEN_SITE": name,
        "DOCGEN_UPSTREAM": f"127.0.0.1:{upstream_port}",
        "DOCGEN_HTTPS_PORT": str(https_port),
        "DOCGEN_HTTP_PORT": str(http_port),
        "DOCGEN_CADDY_ADMIN": "off",
        "XDG_DATA_HOME": str(folder / "caddy-data"),
        "XDG_CONFIG_HOME": str(folder / "caddy-config"),
        "HOME": str(folder),
    }
    log = folder / "caddy.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [caddy, "run", "--config", str(config), "--adapter", "caddyfile"],
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )

    def running() -> bool:
        if process.poll() is None:
            return True
        said = log.read_text()
        assert "address already in use" in said, said
        return False

    root = folder / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    deadline = time.monotonic() + 60
    while not root.exists() and time.monotonic() < deadline:
        if not running():
            return None
        time.sleep(0.2)
    assert root.exists(), log.read_text()
    trusted = ssl.create_default_context(cafile=str(root))
    started = Caddy(process, https_port, http_port, trusted, log, name)
    while time.monotonic() < deadline:
        if not running():
            return None
        try:
            with httpx.Client(verify=started.trusted, timeout=2) as probe:
                started.request(probe, "GET", "/login")
            return started
        except (httpx.TransportError, OSError):
            time.sleep(0.2)
    started.stop()
    raise AssertionError(f"Caddy did not answer within 60 s:\n{log.read_text()}")
