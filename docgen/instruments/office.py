"""LibreOffice headless, run so that counsel's file can reach nothing beyond its own folder
(issue: LibreOffice opens nothing it should not).

Each run has a throwaway folder holding the document, the output and a fresh user profile;
the profile refuses every proxy and link from outside, and sets macro security to the
highest level. The process has no network at all where the kernel lets an unprivileged user
make a network namespace (``unshare -rn``: only a loopback device, down), an environment
holding nothing of docgen's (no signing passphrase, no database address: only PATH, a HOME
and TMPDIR in the folder, and a locale), an address-space limit (``prlimit --as``) and a
time limit after which its whole process group is killed. What it is given is a copy of
the checked final without any relationship to outside the file
(docx_checks.without_outside_references).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
from functools import cache
from pathlib import Path

from docgen.errors import DocgenError

MEMORY_BYTES = 3 * 1024**3  # address space: LibreOffice maps about 1 GB to open a letter
TIME_SECONDS = 180
REFUSED_PROXY = ("127.0.0.1", "9")  # the discard port, closed: every fetch is refused

PROFILE = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry">
{items}
</oor:items>
"""
INET, SCRIPTING = "org.openoffice.Inet/Settings", "org.openoffice.Office.Common/Security/Scripting"
SETTINGS = {
    # every fetch goes through a proxy that refuses it, and no address is exempt
    (INET, "ooInetProxyType"): "1",
    (INET, "ooInetHTTPProxyName"): REFUSED_PROXY[0],
    (INET, "ooInetHTTPProxyPort"): REFUSED_PROXY[1],
    (INET, "ooInetHTTPSProxyName"): REFUSED_PROXY[0],
    (INET, "ooInetHTTPSProxyPort"): REFUSED_PROXY[1],
    (INET, "ooInetFTPProxyName"): REFUSED_PROXY[0],
    (INET, "ooInetFTPProxyPort"): REFUSED_PROXY[1],
    (INET, "ooInetNoProxy"): "",
    # links to anything not in a trusted location (there is none) are not followed
    (SCRIPTING, "BlockUntrustedRefererLinks"): "true",
    (SCRIPTING, "MacroSecurityLevel"): "3",
    (SCRIPTING, "DisableMacrosExecution"): "true",
    # nothing is updated from outside the file when it is loaded (links, fields)
    ("org.openoffice.Office.Writer/Content/Update", "Link"): "0",
    ("org.openoffice.Office.Writer/Content/Update", "Field"): "false",
    ("org.openoffice.Office.Common/Misc", "UseLocking"): "false",
}


def convert(document: bytes, target: str, suffix: str = "docx") -> bytes:
    """``document`` converted by LibreOffice (``target``: a --convert-to filter spec, whose
    extension is what comes out), in a sandbox of its own; DocgenError if it fails."""
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        raise DocgenError(
            "LibreOffice is not installed: the PDF/A of counsel's final is LibreOffice's "
            "export (apt-get install libreoffice-writer)"
        )
    extension = target.split(":", 1)[0]
    with tempfile.TemporaryDirectory(prefix="docgen-office-") as tmp:
        folder = Path(tmp)
        source = folder / f"document.{suffix}"
        source.write_bytes(document)
        profile = folder / "profile"
        write_profile(profile)
        command = [
            *confinement(),
            soffice,
            f"-env:UserInstallation={profile.as_uri()}",
            "--headless",
            "--norestore",
            "--nolockcheck",
            "--convert-to",
            target,
            "--outdir",
            str(folder / "out"),
            str(source),
        ]
        error = run(command, folder)
        made = folder / "out" / f"document.{extension}"
        if error is not None or not made.exists():
            why = error or "it wrote nothing"
            raise DocgenError(f"LibreOffice could not convert counsel's file: {why}")
        return made.read_bytes()


def run(command: list[str], folder: Path) -> str | None:
    """Run ``command`` in its own process group with the scrubbed environment; what went
    wrong, or None. On the time limit the whole group is killed (soffice starts children)."""
    process = subprocess.Popen(
        command,
        cwd=folder,
        env=environment(folder),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        _, stderr = process.communicate(timeout=TIME_SECONDS)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()
        return f"it took longer than {TIME_SECONDS} s and was stopped"
    if process.returncode != 0:
        return stderr.decode("utf-8", "replace").strip() or f"exit status {process.returncode}"
    return None


def environment(folder: Path) -> dict[str, str]:
    """All LibreOffice is told: nothing of docgen's (no DOCGEN_*, no database address)."""
    refused = f"http://{REFUSED_PROXY[0]}:{REFUSED_PROXY[1]}"
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(folder),
        "TMPDIR": str(folder),
        "LANG": "C.UTF-8",
        "SAL_USE_VCLPLUGIN": "svp",
        "http_proxy": refused,
        "https_proxy": refused,
        "ftp_proxy": refused,
        "no_proxy": "",
    }


def write_profile(profile: Path) -> None:
    items = "\n".join(
        f'<item oor:path="/{path}"><prop oor:name="{name}" oor:op="fuse">'
        f"<value>{value}</value></prop></item>"
        for (path, name), value in SETTINGS.items()
    )
    (profile / "user").mkdir(parents=True)
    (profile / "user" / "registrymodifications.xcu").write_text(
        PROFILE.format(items=items), encoding="utf-8"
    )


def confinement() -> list[str]:
    """The commands the run is wrapped in: the memory limit, and no network where the
    kernel allows an unprivileged network namespace."""
    wrap = []
    if prlimit := shutil.which("prlimit"):
        wrap += [prlimit, f"--as={MEMORY_BYTES}", "--core=0", "--"]
    if network_namespace():
        wrap += network_namespace()
    return wrap


@cache
def network_namespace() -> tuple[str, ...]:
    """``unshare -rn`` when it works here (a container may forbid it; then the refused
    proxy and the profile's settings stand alone)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    try:
        probe = subprocess.run([unshare, "-rn", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ()
    return (unshare, "-rn") if probe.returncode == 0 else ()
