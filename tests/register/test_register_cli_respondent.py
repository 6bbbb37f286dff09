"""`docgen issue` where the respondent is a question (issue 28 item 6; LAW.md § 2(a), § 4):
the refusal lists each record the name may be with the offense number and penalty its
history would give (the desk's figures, from docgen.register.people.choices), ``--respondent ID``
issues under the name the register holds for that record with that record's penalty, and
the name as typed is kept, and recorded as an alias, only with ``--keep-typed-name``.
Run as a user runs them (tests/helpers/cli.py), on both backends; the issued PDF and DOCX
are read back."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import yaml

from docgen.register import Register
from tests.helpers import cli
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.register_cases import notice

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "stop-work-order"
ON_RECORD = "Tioughnioga Ridge Development LLC"
TYPED = "Tioughnioga Ridge Developments LLC"  # one letter more: a near name
PDF = "NOV-2026-0002-notice-of-violation.pdf"
DOCX = "NOV-2026-0002-notice-of-violation.docx"


def docgen(folder: Path, *args: object) -> cli.Run:
    return cli.docgen(*args, cwd=folder)


def case_file(folder: Path, data: dict, name: str) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def convicted_then_near(folder: Path, url: str) -> Path:
    """#1 on record with one conviction (NOV-2026-0001); the case of a near name at the same
    address, to be issued next."""
    with Register.open(url) as reg:
        first = reg.issue("notice-of-violation", notice("2026-03-02"), formats=("html",))
        reg.record_disposition(
            first.number, "convicted", date(2026, 5, 4), court="Homer Village Court"
        )
    return case_file(folder, notice("2026-11-16", name=TYPED), "near.yaml")


def issued_as(folder: Path, near: Path, *answer: str) -> tuple[cli.Run, list[str]]:
    """``docgen issue`` of ``near`` answered with ``answer``: the run, and the text of the
    issued PDF and DOCX as read back (words joined by single spaces)."""
    run = docgen(
        folder, "issue", "notice-of-violation", near, "-o", "out/", "-f", "pdf,docx", *answer
    )
    assert run.returncode == 0, run.stderr
    out = folder / "out"
    texts = [pdf_text((out / PDF).read_bytes()), docx_text((out / DOCX).read_bytes())]
    return run, [" ".join(text.split()) for text in texts]


def test_the_refusal_lists_each_record_with_the_penalty_it_would_give(register_url, tmp_path):
    near = convicted_then_near(tmp_path, register_url)
    asked = docgen(tmp_path, "issue", "notice-of-violation", near, "-o", "out/")
    assert asked.returncode == 1 and "Traceback" not in asked.stderr
    said = " ".join(asked.stderr.split())
    # The record, with its id, name, address and why; the penalty its conviction gives.
    assert f"#1 {ON_RECORD} (41 Route 281, Homer, NY 13077): similar name ({ON_RECORD})" in said
    assert (
        "this would give offense number 2 (1 prior conviction counted), penalty $350.00 to "
        "$700.00 in all, or imprisonment up to 6 months, or both (§ 228-79C(4))" in said
    )
    assert (
        "a new respondent; this would give offense number 1 (0 prior convictions counted), "
        "penalty $0.00 to $350.00 in all" in said
    )
    assert "--respondent ID: that record, named on the document as the register holds it" in said
    assert f"--respondent ID --keep-typed-name: that record, the document keeping '{TYPED}'" in said
    assert "--respondent new: a different person or firm" in said
    with Register.open(register_url) as reg:
        assert reg.count() == 1  # nothing issued, no respondent made
    assert not (tmp_path / "out").exists()


def test_an_id_issues_under_the_records_name_with_its_penalty(register_url, tmp_path):
    near = convicted_then_near(tmp_path, register_url)
    chosen, texts = issued_as(tmp_path, near, "--respondent", "1")
    assert f"respondent: #1 {ON_RECORD} (matched)" in chosen.stdout
    assert "NOV-2026-0001, Homer Village Court: counted" in chosen.stdout
    for text in texts:
        assert ON_RECORD in text and TYPED not in text
        assert "second offense" in text and "$700.00" in text
    history = docgen(tmp_path, "history", "1")
    assert "also known as" not in history.stdout  # the clerk did not say to keep it
    with Register.open(register_url) as reg:
        assert reg.history(1).respondent.aliases == ()
    # The near name still asks next time: nothing was recorded as its alias.
    again = case_file(tmp_path, notice("2026-11-17", name=TYPED), "again.yaml")
    assert docgen(tmp_path, "issue", "notice-of-violation", again, "-f", "html").returncode == 1


def test_keep_typed_name_keeps_it_on_the_document_and_records_the_alias(register_url, tmp_path):
    near = convicted_then_near(tmp_path, register_url)
    _, texts = issued_as(tmp_path, near, "--respondent", "#1", "--keep-typed-name")
    for text in texts:
        assert TYPED in text and "second offense" in text and "$700.00" in text
    assert f"also known as: {TYPED}" in docgen(tmp_path, "history", "1").stdout
    # Now the spelling is the record's: the same name at the same address is taken.
    again = case_file(tmp_path, notice("2026-11-17", name=TYPED), "again.yaml")
    taken = docgen(tmp_path, "issue", "notice-of-violation", again, "-f", "html")
    assert taken.returncode == 0 and f"respondent: #1 {ON_RECORD} (matched)" in taken.stdout


def test_keep_typed_name_needs_a_record_chosen_by_its_id(register_url, tmp_path):
    near = convicted_then_near(tmp_path, register_url)
    for extra in ((), ("--respondent", "new")):
        run = docgen(
            tmp_path,
            "issue",
            "notice-of-violation",
            near,
            "-f",
            "html",
            *extra,
            "--keep-typed-name",
        )
        assert run.returncode == 1 and "Traceback" not in run.stderr
        assert "--keep-typed-name" in run.stderr and "--respondent ID" in run.stderr
        assert "(the document names whom the register holds it against)" in run.stderr
        assert "LAW.md" not in run.stderr
    with Register.open(register_url) as reg:
        assert reg.count() == 1


def test_a_kind_whose_penalty_reads_no_history_lists_the_records_without_figures(
    register_url, tmp_path
):
    """A stop-work order states no penalty from the respondent's history: the question
    lists the records and the options, and no figure that no document would state."""
    order = yaml.safe_load((FIXTURES / "homer-silt-fence.yaml").read_text(encoding="utf-8"))
    order.pop("number", None)
    first = docgen(tmp_path, "issue", "stop-work-order", case_file(tmp_path, order, "swo.yaml"))
    assert first.returncode == 0, first.stderr
    order["recipient"]["name"] = "Ceyuga Street Holdings LLC"
    asked = docgen(tmp_path, "issue", "stop-work-order", case_file(tmp_path, order, "near.yaml"))
    assert asked.returncode == 1 and "Traceback" not in asked.stderr
    said = " ".join(asked.stderr.split())
    assert "#1 Cayuga Street Holdings LLC (77 South Main Street, Homer, NY 13077)" in said
    assert "this would give" not in said and "penalty" not in said
    assert "--respondent ID --keep-typed-name" in said and "--respondent new" in said
