"""The register's commands, run as a user runs them (in a folder, through the command
line, in this process: tests/helpers/cli.py), on both backends: exit codes, what they
print, and what they leave in the register."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from conftest import ROOT

from docgen.documents import DOCUMENTS
from docgen.kinds import BUNDLES
from docgen.register import Register
from docgen.register.storage.db import HEAD
from tests.helpers import cli
from tests.helpers.cli import Run
from tests.helpers.register_cases import notice
from tests.helpers.served import service_args


def docgen(*args, cwd: Path) -> Run:
    """``docgen ARGS`` run in ``cwd``, in this process (tests/helpers/cli.py)."""
    return cli.docgen(*args, cwd=cwd)


def case_file(folder: Path, data: dict, name: str = "case.yaml") -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def test_issue_serve_decide_history_and_verify(register_url, tmp_path):
    first = docgen(
        "issue",
        "notice-of-violation",
        case_file(tmp_path, notice("2026-03-02")),
        "-o",
        "out/",
        "-f",
        "html,pdf",
        "--by",
        "Dana R. Whitcomb",
        cwd=tmp_path,
    )
    assert first.returncode == 0, first.stderr
    assert first.stdout.splitlines()[:3] == [
        "issued NOV-2026-0001 (notice of violation, 2026-03-02)",
        "respondent: #1 Tioughnioga Ridge Development LLC (new respondent)",
        "priors from the register: none",
    ]
    served = docgen(
        "record-service",
        "NOV-2026-0001",
        *service_args("certified-mail"),
        "--date",
        "2026-03-03",
        "--received",
        "2026-03-05",
        "--article",
        "9407 1118 9876 5432 1012 38",
        "-o",
        "out/",
        "-f",
        "html",
        cwd=tmp_path,
    )
    assert served.returncode == 0, served.stderr
    # Complete on the later of receipt (03-05) and mailing + 5 (03-08): day 15 is 03-23.
    assert "last day to appeal: 2026-03-23" in served.stdout
    assert "issued AOS-2026-0001 (affidavit of service, 2026-03-03)" in served.stdout
    decided = docgen(
        "record-disposition",
        "NOV-2026-0001",
        "--disposition",
        "convicted",
        "--date",
        "2026-05-04",
        "--court",
        "Homer Village Court",
        "--docket",
        "26-17",
        cwd=tmp_path,
    )
    assert decided.stdout.strip() == (
        "NOV-2026-0001: convicted on 2026-05-04 (Homer Village Court, docket 26-17)"
    )
    second = docgen(
        "issue",
        "notice-of-violation",
        case_file(tmp_path, notice("2026-11-16")),
        "-o",
        "out/",
        "-f",
        "html",
        cwd=tmp_path,
    )
    assert "NOV-2026-0001, Homer Village Court, docket 26-17: counted" in second.stdout
    shown = json.loads(
        docgen("history", "tioughnioga ridge development l.l.c.", "--json", cwd=tmp_path).stdout
    )
    assert [o["number"] for o in shown["offenses"]] == ["NOV-2026-0002", "NOV-2026-0001"]
    assert [d["number"] for d in shown["documents"]] == [
        "NOV-2026-0002",
        "AOS-2026-0001",
        "NOV-2026-0001",
    ]
    pdf = tmp_path / "out" / "NOV-2026-0001-notice-of-violation.pdf"
    ok = docgen("verify", pdf, cwd=tmp_path)
    assert ok.returncode == 0
    assert "NOV-2026-0001, notice-of-violation (pdf), issued 2026-03-02" in ok.stdout
    altered = tmp_path / "altered.pdf"
    altered.write_bytes(pdf.read_bytes() + b"% one byte more\n")
    refused = docgen("verify", altered, cwd=tmp_path)
    assert refused.returncode == 1
    assert "not issued by this register, or altered" in refused.stderr


def test_refusals_are_one_line_errors_with_exit_1(register_url, tmp_path):
    with_priors = notice()
    with_priors["prior_offenses"] = []
    run = docgen("issue", "notice-of-violation", case_file(tmp_path, with_priors), cwd=tmp_path)
    assert run.returncode == 1 and "Prior offenses: remove it" in run.stderr
    assert "Traceback" not in run.stderr
    docgen(
        "issue", "notice-of-violation", case_file(tmp_path, notice()), "-f", "html", cwd=tmp_path
    )
    near = case_file(tmp_path, notice(name="Tioughnioga Ridge Developments LLC"), "near.yaml")
    asked = docgen("issue", "notice-of-violation", near, "-f", "html", cwd=tmp_path)
    assert asked.returncode == 1
    assert "#1 Tioughnioga Ridge Development LLC" in asked.stderr
    assert "--respondent ID" in asked.stderr
    chosen = docgen(
        "issue", "notice-of-violation", near, "-f", "html", "--respondent", "1", cwd=tmp_path
    )
    assert chosen.returncode == 0 and "respondent: #1 " in chosen.stdout
    missing = docgen(
        "record-disposition", "NOV-2026-0099", "--disposition", "dismissed", cwd=tmp_path
    )
    assert missing.returncode == 1 and "no document with that number" in missing.stderr


def test_a_bundle_is_refused_as_rendered_not_issued(register_url, tmp_path):
    """`docgen issue packet` is a one-line refusal naming the documents the packet serves
    (it failed with an internal error on the bundle's want of renditions), and nothing is
    numbered: the notice issued after it is the first."""
    data = yaml.safe_load((ROOT / "fixtures/packet/homer-silt-fence-packet.yaml").read_text())
    data.pop("prior_offenses")
    (bundle,) = BUNDLES
    run = docgen("issue", bundle, case_file(tmp_path, data), cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert f"it is rendered (`docgen render {bundle}`), not issued" in run.stderr
    parts = ", ".join(DOCUMENTS[bundle].parts)
    assert f"({parts})" in run.stderr
    after = docgen("issue", "notice-of-violation", case_file(tmp_path, notice()), cwd=tmp_path)
    assert after.returncode == 0 and after.stdout.startswith("issued NOV-2026-0001 ")


def test_import_history_is_all_or_nothing_and_feeds_the_penalty(register_url, tmp_path):
    header = "name,street,city,state,zip,committed,convicted,court,docket\n"
    row = "Tioughnioga Ridge Development LLC,41 Route 281,Homer,NY,13077,2024-02-01,2024-05-01"
    bad = tmp_path / "bad.csv"
    bad.write_text(header + row + ",Homer Village Court,24-3\n" + row + ",,\n", encoding="utf-8")
    refused = docgen("register", "import-history", bad, cwd=tmp_path)
    assert refused.returncode == 1
    assert "bad.csv:3: court: " in refused.stderr and "bad.csv:3: docket: " in refused.stderr
    good = tmp_path / "good.csv"
    good.write_text(header + row + ",Homer Village Court,24-3\n", encoding="utf-8")
    imported = docgen("register", "import-history", good, cwd=tmp_path)
    assert imported.returncode == 0, imported.stderr
    # (ids are not numbers: PostgreSQL may skip one a refused import had drawn)
    assert re.search(
        r"good.csv:2: #\d+ Tioughnioga Ridge Development LLC, convicted 2024-05-01", imported.stdout
    )
    issued = docgen(
        "issue", "notice-of-violation", case_file(tmp_path, notice()), "-f", "html", cwd=tmp_path
    )
    assert "Homer Village Court, docket 24-3: counted" in issued.stdout


def test_backup_is_a_consistent_copy_and_upgrade_reports_the_revision(register_url, tmp_path):
    docgen(
        "issue", "notice-of-violation", case_file(tmp_path, notice()), "-f", "html", cwd=tmp_path
    )
    upgraded = docgen("register", "upgrade", cwd=tmp_path)
    assert upgraded.returncode == 0 and f"already at revision {HEAD}" in upgraded.stdout
    copy = tmp_path / "backup.db"
    made = docgen("register", "backup", copy, cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    if register_url.startswith("sqlite"):
        with Register.open(f"sqlite:///{copy}") as restored:
            assert restored.document("NOV-2026-0001").kind == "notice-of-violation"
    else:
        assert copy.read_bytes().startswith(b"PGDMP")  # pg_dump's custom format
    again = docgen("register", "backup", copy, cwd=tmp_path)
    assert again.returncode == 1 and "never replaces a file" in again.stderr


def test_demo_issues_the_samples_into_a_register_in_out(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    run = docgen("demo", "-o", tmp_path / "out", "-f", "html", cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    with Register.open(f"sqlite:///{tmp_path / 'out' / 'docgen.sqlite'}") as reg:
        first = reg.document("NOV-2026-0001")
        assert first.services and first.respondent is not None
        assert reg.documents(kind="affidavit-of-service")
    rerun = docgen("demo", "-o", tmp_path / "out", "-f", "html", cwd=tmp_path)
    assert rerun.returncode == 0, rerun.stderr  # a new demo register replaces the last
