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

    @property
    def site(self) -> str:
        return f"https://localhost:{self.https_port}"

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def start_caddy(caddy: str, folder: Path, upstream_port: int) -> Caddy:
    """Caddy serving https://localhost:<port> in front of 127.0.0.1:``upstream_port``."""
    from tests.desk_server import free_port

    https_port, http_port = free_port(), free_port()
    environment = {
        **os.environ,
        "DOCGEN_SITE": "localhost",
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
            [caddy, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env=environment,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    root = folder / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    deadline = time.monotonic() + 60
    while not root.exists() and time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        time.sleep(0.2)
    assert root.exists(), log.read_text()
    trusted = ssl.create_default_context(cafile=str(root))
    started = Caddy(process, https_port, http_port, trusted, log)
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()
        try:
            with httpx.Client(verify=started.trusted) as probe:
                probe.get(f"{started.site}/login", timeout=2)
            return started
        except (httpx.TransportError, OSError):
            time.sleep(0.2)
    started.stop()
    raise AssertionError(f"Caddy did not answer within 60 s:\n{log.read_text()}")
