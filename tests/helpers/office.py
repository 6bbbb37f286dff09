"""DOCX as Word users see it: LibreOffice headless lays documents out and writes PDFs."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


def office_pdfs(docx: dict[str, bytes], folder: Path) -> dict[str, bytes]:
    """Each named DOCX converted to PDF by LibreOffice, in one soffice run: name -> PDF.
    Skips the test without LibreOffice (fails in CI, whose set-up installs it)."""
    if SOFFICE is None:
        if os.environ.get("CI"):
            pytest.fail("LibreOffice (soffice) is required in CI: scripts/setup.sh --test")
        pytest.skip("LibreOffice is not installed")
    for name, data in docx.items():
        (folder / f"{name}.docx").write_bytes(data)
    run = subprocess.run(
        [
            SOFFICE,
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
    return {name: (folder / "pdf" / f"{name}.pdf").read_bytes() for name in docx}
