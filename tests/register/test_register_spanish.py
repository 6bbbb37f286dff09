"""`docgen issue notice-of-violation CASE --language es` (LAW.md § 13): the Spanish
courtesy rendition is kept with the same number as a file of its own, with its own
SHA-256; `verify` names it as the Spanish copy of the number. A kind without a Spanish
rendition, or an unknown language, is refused before anything is numbered. On SQLite and
on PostgreSQL."""

from __future__ import annotations

import hashlib
import json
from datetime import date

from docgen.register import Issue
from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import service_of


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
    run = docgen("issue", "report-requirement", statement, "--language", "es", "-o", tmp_path)
    assert run.returncode != 0
    assert "--language es: report-requirement has no Spanish rendition" in run.stderr
    from docgen.register import Register

    with Register.open(register_url) as reg:
        assert reg.count() == 0
    assert not list(tmp_path.glob("*.pdf"))


def test_a_spanish_stop_work_order_is_kept_with_its_number(register_url, tmp_path):
    from tests.helpers.enforcement_cases import ORDERS, case_data

    data = case_data(ORDERS[0])
    for key in ("number", "served", "effective"):
        data.pop(key)
    case = tmp_path / "order.json"
    case.write_text(json.dumps(data, default=str))
    run = docgen("issue", "stop-work-order", case, "--language", "es", "-o", tmp_path)
    assert run.returncode == 0, run.stderr
    assert "with a Spanish courtesy copy; the English document controls" in run.stdout
    spanish = tmp_path / "SWO-2026-0001-stop-work-order-es.pdf"
    assert "Orden de Suspensión de Obras" in pdf_text(spanish.read_bytes())
    said = docgen("verify", spanish)
    assert "the Spanish copy of SWO-2026-0001" in said.stdout, said.stderr


def preferring(language: str | None, **kwargs) -> dict:
    data = notice(**kwargs)
    if language is not None:
        data["recipient"]["language"] = language
    return data


def test_the_respondents_preferred_language_is_kept_and_offered_next_time(reg, tmp_path):
    """A case saying the recipient prefers Spanish: the Spanish copy is issued with the
    notice without --language, the register keeps the preference, and the next document
    to that respondent (its case silent) has its Spanish copy too; --language en: none."""
    from docgen import api
    from tests.helpers.enforcement_cases import ORDERS, case_data

    first = reg.issue("notice-of-violation", preferring("es"), formats=("pdf", "html"))
    assert first.language == "es" and first.preferred
    assert {"es.pdf", "es.html"} <= set(first.hashes)
    assert first.respondent.language == "es"
    assert reg.history(first.respondent.id).respondent.language == "es"
    # The English original is the one it would be without the preference.
    plain, said = preferring(None), preferring("es")
    said["remedies"] = plain["remedies"]  # notice() names another work area each time
    plain["number"] = said["number"] = "NOV-2026-0099"
    plain_html = api.build("notice-of-violation", plain).html
    assert api.build("notice-of-violation", said).html == plain_html

    data = case_data(ORDERS[0])
    for key in ("number", "served", "effective"):
        data.pop(key)
    data["recipient"] = notice()["recipient"]  # the same respondent, no language said
    order = reg.issue("stop-work-order", data, formats=("pdf",))
    assert order.respondent.id == first.respondent.id
    assert order.language == "es" and "es.pdf" in order.hashes
    assert "Orden de Suspensión de Obras" in pdf_text(order.files["es.pdf"])

    english = reg.issue(
        "notice-of-violation", notice("2026-11-23"), Issue(language="en"), formats=("pdf",)
    )
    assert english.language is None and set(english.hashes) == {"pdf"}
    statement = reg.issue(
        "notice-of-violation", preferring("en", issued="2026-11-30"), formats=("pdf",)
    )
    assert statement.language is None and set(statement.hashes) == {"pdf"}
    assert reg.history(first.respondent.id).respondent.language == "en"  # as the case said
    changes = [a for a in reg.audit() if a["action"] == "language"]
    assert [a["detail"] for a in changes] == [
        {"from": "es", "to": "en"},
        {"from": None, "to": "es"},
    ]


def test_the_cli_says_the_copy_comes_from_the_preference(register_url, tmp_path):
    case = tmp_path / "case.json"
    case.write_text(json.dumps(preferring("es")))
    run = docgen("issue", "notice-of-violation", case, "-f", "pdf", "-o", tmp_path)
    assert run.returncode == 0, run.stderr
    assert (
        "with a Spanish courtesy copy: the respondent's preferred language "
        "(--language en: English only)" in run.stdout
    )
    assert (tmp_path / "NOV-2026-0001-notice-of-violation-es.pdf").exists()


def test_a_preferred_language_the_municipality_does_not_offer_is_refused(register_url, tmp_path):
    case = tmp_path / "case.json"
    data = preferring("xx")
    data["copies_to"] = [{**data["recipient"], "language": "tlh", "role": "developer"}]
    case.write_text(json.dumps(data))
    run = docgen("issue", "notice-of-violation", case, "-o", tmp_path)
    assert run.returncode == 1, run.stdout
    assert (
        "Recipient, preferred language: 'xx' is not a language the Village of Homer offers"
        in run.stderr
    )
    assert "Party 1, preferred language: 'tlh'" in run.stderr
    assert "en, es, zh, ru" in run.stderr and "LAW.md" not in run.stderr  # the notes: not cited
    from docgen.register import Register

    with Register.open(register_url) as reg:
        assert reg.count() == 0


def test_the_lifting_notice_has_its_spanish_copy(reg):
    from tests.helpers.enforcement_cases import ORDERS, case_data

    data = case_data(ORDERS[0])
    for key in ("number", "served", "effective"):
        data.pop(key)
    issued = reg.issue("stop-work-order", data, formats=("html",))
    reg.record_service(
        issued.number, service_of("personal-delivery", issued.issued), formats=("html",)
    )
    lifted = reg.lift(issued.number, date(2026, 12, 2), formats=("pdf",), language="es")
    assert lifted.language == "es" and not lifted.preferred
    text = " ".join(pdf_text(lifted.files["es.pdf"]).split())
    assert "queda levantada a partir del 2 de diciembre de 2026" in text
    assert f"Orden de Suspensión de Obras n.º {issued.number}" in text
