"""`docgen issue notice-of-violation CASE --language es` (LAW.md § 13): the Spanish
courtesy rendition is kept with the same number as a file of its own, with its own
SHA-256; `verify` names it as the Spanish copy of the number. A kind without a Spanish
rendition, or an unknown language, is refused before anything is numbered. On SQLite and
on PostgreSQL."""

from __future__ import annotations

import hashlib
import json

from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice


def test_issue_keeps_the_spanish_rendition_with_the_number(register_url, tmp_path):
    case = tmp_path / "case.json"
    case.write_text(json.dumps(notice()))
    run = docgen(
        "issue", "notice-of-violation", case, "--language", "es", "-f", "pdf", "-o", tmp_path
    )
    assert run.returncode == 0, run.stderr
    stem = "NOV-2026-0001-notice-of-violation"
    english, spanish = tmp_path / f"{stem}.pdf", tmp_path / f"{stem}-es.pdf"
    assert "COPIA DE CORTESÍA EN ESPAÑOL" in pdf_text(spanish.read_bytes())
    assert "COPIA DE CORTESÍA" not in pdf_text(english.read_bytes())
    said = docgen("verify", spanish)
    assert said.returncode == 0, said.stderr
    assert "NOV-2026-0001, notice-of-violation" in said.stdout
    assert "the Spanish copy of NOV-2026-0001" in said.stdout
    assert "the English document controls" in said.stdout
    assert "Spanish copy" not in docgen("verify", english).stdout
    from docgen.register import Register

    with Register.open(register_url) as reg:
        assert reg.count() == 1
        stored = reg.document("NOV-2026-0001")
    assert stored.hashes["es.pdf"] == hashlib.sha256(spanish.read_bytes()).hexdigest()
    assert stored.hashes["pdf"] == hashlib.sha256(english.read_bytes()).hexdigest()


def test_an_unknown_language_or_a_kind_without_it_is_refused_before_numbering(
    register_url, tmp_path
):
    case = tmp_path / "case.json"
    case.write_text(json.dumps(notice()))
    run = docgen("issue", "notice-of-violation", case, "--language", "xx", "-o", tmp_path)
    assert run.returncode != 0 and "--language xx: no such language" in run.stderr
    statement = tmp_path / "statement.json"
    statement.write_text(json.dumps(notice()))
    run = docgen("issue", "notice-of-deficiency", statement, "--language", "es", "-o", tmp_path)
    assert run.returncode != 0
    assert "--language es: notice-of-deficiency has no Spanish rendition" in run.stderr
    from docgen.register import Register

    with Register.open(register_url) as reg:
        assert reg.count() == 0
    assert not list(tmp_path.glob("*.pdf"))
