"""DOCX as Word users see it: LibreOffice headless lays documents out and writes PDFs."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from tests.helpers.tools import unavailable

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def soffice() -> str:
    """LibreOffice's program; without it the calling test is skipped on a workstation and
    fails in CI, whose set-up installs it."""
    if SOFFICE is None:
        unavailable("LibreOffice (soffice) not found: scripts/setup.sh --test installs it")
    return str(SOFFICE)


def office_pdfs(docx: dict[str, bytes], folder: Path) -> dict[str, bytes]:
    """Each named DOCX converted to PDF by LibreOffice, in one soffice run: name -> PDF.
    Every file must load: one LibreOffice could not open as it is fails the test."""
    pdfs, refused = office_convert(docx, folder)
    assert not refused, f"LibreOffice could not load {sorted(refused)}: {refused}"
    return pdfs


def office_convert(docx: dict[str, bytes], folder: Path) -> tuple[dict[str, bytes], dict[str, str]]:
    """Each named DOCX converted to PDF by LibreOffice, in one soffice run: the PDFs of
    those it loaded, and for each it could not, what soffice said. A file that would need
    repair is not loaded in headless mode ("source file could not be loaded"), and soffice
    still exits 0. Skips the test without LibreOffice (fails in CI, whose set-up installs
    it)."""
    program = soffice()
    for name, data in docx.items():
        (folder / f"{name}.docx").write_bytes(data)
    run = subprocess.run(
        [
            program,
            f"-env:UserInstallation={(folder / 'profile').as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(folder / "pdf"),
            *sorted(str(folder / f"{name}.docx") for name in docx),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    made = {name: folder / "pdf" / f"{name}.pdf" for name in docx}
    pdfs = {name: path.read_bytes() for name, path in made.items() if path.exists()}
    said = [ln for ln in run.stderr.splitlines() if ln.startswith("Error")]
    refused = {name: "; ".join(said) or "no PDF written" for name in docx if name not in pdfs}
    return pdfs, refused
