"""Validators docgen did not write, each as a function from a file's bytes to what it
finds wrong (an empty list: clean). The conformance gate (tests/test_conformance.py) runs
them on every sample; each also has a test that it finds a deliberately broken input.

- pdfua (PyPI): PDF/UA-1's machine-checkable rules, errors, warnings and rules it could
  not evaluate alike;
- qpdf --check: the PDF's syntax, cross-reference table and streams;
- pdfsig (poppler): each signature valid and covering the whole file (its exit status is
  0 even on a digest mismatch, so its text is read);
- openxml-audit (PyPI): the DOCX against the OOXML schemas and the triggers of Word's
  repair prompt;
- LibreOffice: the DOCX loads (a file it would have to repair is "could not be loaded"
  in headless mode) — tests/helpers/office.py;
- axe-core in Chromium: an HTML page's violations at every impact (tests/desk_browser.py).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pikepdf

from tests.helpers.tools import need


@contextmanager
def _as_file(data: bytes, suffix: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="docgen-validate-") as folder:
        path = Path(folder) / f"document{suffix}"
        path.write_bytes(data)
        yield path


def _as_integer(value: object) -> int | None:
    """pdfua 0.1.3's ``as_integer`` probes ``getattr(value, "is_integer")``, which pikepdf
    10 answers on an array with ValueError, not AttributeError: its empty-heading rule
    (UA-14-001) then reports "not evaluated" on every heading whose /K is an array. An
    array or a dictionary is not a number; anything else goes to pdfua's own reading."""
    from pdfua import document

    if isinstance(value, pikepdf.Array | pikepdf.Dictionary):
        return None
    return document.as_integer(value)


def pdfua_findings(pdf: bytes) -> list[str]:
    """pdfua's findings at every severity, and each rule it could not evaluate."""
    from pdfua import validate
    from pdfua.rules import structure

    with _as_file(pdf, ".pdf") as path, mock.patch.object(structure, "as_integer", _as_integer):
        report = validate(str(path))
    found = []
    for outcome in report.outcomes:
        if outcome.skipped_reason:
            found.append(f"{outcome.rule_id} not evaluated: {outcome.skipped_reason}")
        for finding in outcome.findings:
            where = finding.location.describe()
            found.append(f"{finding.rule_id} {finding.severity.name} at {where}: {finding.message}")
    return found


def qpdf_problems(pdf: bytes) -> list[str]:
    """What ``qpdf --check`` reports: errors (exit 2) and warnings (exit 3)."""
    qpdf = need("qpdf")
    with _as_file(pdf, ".pdf") as path:
        run = subprocess.run(
            [qpdf, "--check", str(path)], capture_output=True, text=True, timeout=120
        )
    if run.returncode == 0:
        return []
    lines = (run.stderr + run.stdout).splitlines()
    return [f"exit {run.returncode}"] + [ln for ln in lines if "WARNING" in ln or "ERROR" in ln]


SIGNATURE = re.compile(r"^Signature #\d+:", re.MULTILINE)


def pdfsig_problems(pdf: bytes) -> list[str]:
    """What keeps ``pdfsig`` from reading every signature as valid over the whole file:
    each signature must read "Signature is Valid" and "Total document signed"."""
    pdfsig = need("pdfsig", "poppler-utils")
    with _as_file(pdf, ".pdf") as path:
        run = subprocess.run([pdfsig, str(path)], capture_output=True, text=True, timeout=120)
    text = run.stdout + run.stderr
    blocks = SIGNATURE.split(text)[1:]
    if not blocks:
        return [f"pdfsig found no signature: {text.strip()}"]
    problems = []
    for number, block in enumerate(blocks, 1):
        validation = re.search(r"Signature Validation: (.*)", block)
        reading = validation.group(1).strip() if validation else "no validation line"
        if reading != "Signature is Valid.":
            problems.append(f"signature {number}: {reading}")
        if "- Total document signed" not in block:
            problems.append(f"signature {number}: not the total document signed")
    return problems


def openxml_problems(docx: bytes) -> list[str]:
    """openxml-audit's errors and warnings (strict policy, security checks on), and its
    verdict for Word when that is anything but opening cleanly."""
    from openxml_audit import AppPrediction, FileFormat, OpenXmlValidator, predict

    validator = OpenXmlValidator(
        file_format=FileFormat.MICROSOFT_365, max_errors=0, strict=True, security_validation=True
    )
    with _as_file(docx, ".docx") as path:
        result = validator.validate(path)
    found = [f"{e.part_uri} {e.path} {e.node or ''}: {e.description}" for e in result.errors]
    verdict = predict(result)
    if found or verdict.prediction != AppPrediction.OPENS_CLEAN:
        found.append(f"verdict: {verdict.headline}")
    return found


def tampered(pdf: bytes) -> bytes:
    """``pdf`` with one byte of its signed content changed: in the data of its first
    stream (a page's compressed content, inside the first signed range), so the file's
    structure still reads and only the digest can tell."""
    at = pdf.index(b"stream", pdf.index(b"obj")) + len(b"stream\n") + 16
    changed = bytearray(pdf)
    changed[at] ^= 0x01
    return bytes(changed)
