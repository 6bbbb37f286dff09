"""`docgen batch --queue --issue`: each case issued into the register by a worker,
numbered and recorded; its files are the register's; a respondent that needs a
clerk's decision is reported, not guessed, and not retried."""

from __future__ import annotations

import json

from docgen.register import Register
from tests.helpers.cli import docgen
from tests.helpers.register_cases import notice
from tests.jobqueue.conftest import sql, wait_for


def test_issue_through_the_queue(queue_url, machines, tmp_path):
    with Register.open(queue_url) as reg:
        first = reg.issue("notice-of-violation", notice(issued="2026-11-02"), formats=("html",))
    cases = tmp_path / "cases"
    cases.mkdir()
    same = {"name": "Ridge Builders LLC", "street": "1 Main Street"}
    (cases / "a.json").write_text(json.dumps(notice(**same)))
    (cases / "b.json").write_text(json.dumps(notice(issued="2026-11-17", **same)))
    elsewhere = notice(name="Tioughnioga Ridge Development LLC", street="77 Other Road")
    (cases / "c.json").write_text(json.dumps(elsewhere))
    invalid = {**notice(), "issued": "2026-11-20"}  # served before it was issued
    (cases / "d.json").write_text(json.dumps(invalid))
    machines(queue_url, "clerks")
    out = tmp_path / "out"
    run = docgen(
        "batch", "notice-of-violation", cases, "-o", out, "-f", "html", "--queue", "--issue",
        "--by", "Queue Clerk",
    )  # fmt: skip
    assert run.returncode == 1, run.stderr
    manifest = json.loads((out / "manifest.json").read_text())
    ambiguous, refused = manifest["failed"]  # in input order; d fails here, never sent
    assert ambiguous["source"] == str(cases / "c.json")
    assert "not matched with certainty" in ambiguous["error"]
    assert refused["source"] == str(cases / "d.json")
    assert "Served, date of service: " in refused["error"]  # as the desk's form names it
    numbers = sorted(entry["number"] for entry in manifest["files"])
    assert numbers == ["NOV-2026-0002", "NOV-2026-0003"]
    assert first.number == "NOV-2026-0001"
    for entry in manifest["files"]:
        verified = docgen("verify", out / entry["file"])
        assert verified.returncode == 0, verified.stderr
        assert entry["number"] in verified.stdout
    with Register.open(queue_url) as reg:
        issuers = [row["actor"] for row in reg.audit() if row["action"] == "issue"]
    assert issuers.count("Queue Clerk") == 2 and len(issuers) == 3
    # the respondent's question is the case's, not the machine's: asked once, not retried
    jobs = sql(queue_url, "SELECT status::text, attempts, args->>'source' FROM procrastinate_jobs")
    assert sorted(jobs) == sorted(
        ("succeeded", 1, str(cases / name)) for name in ("a.json", "b.json", "c.json")
    )


def test_issue_needs_the_queue(tmp_path):
    (tmp_path / "a.json").write_text(json.dumps(notice()))
    run = docgen("batch", "notice-of-violation", tmp_path, "-o", tmp_path / "out", "--issue")
    assert run.returncode == 2
    assert "--issue issues through the queue" in run.stderr


def test_an_issue_tried_again_is_the_same_document(queue_url, machines, tmp_path):
    """A worker that issued a case and died before storing the result: the job tried again
    (here: the same job under another batch, which has no result) gets the first
    document back from the register, never a second number."""
    from docgen.batch.inputs import CaseInput
    from docgen.batch.worker import Job
    from docgen.queue.client import defer, job_payload

    case = tmp_path / "case.json"
    case.write_text(json.dumps(notice()))
    job = Job("notice-of-violation", ("html",), issue=True)
    payloads = [
        job_payload(batch, CaseInput(str(case), "case", path=str(case)), job, "Queue Clerk")
        for batch in ("first-try", "second-try")
    ]
    machines(queue_url, "again")
    for payload in payloads:
        defer(queue_url, [payload], "docgen")
    numbers = "SELECT batch, number FROM results WHERE done ORDER BY batch"
    found = wait_for(lambda: len(sql(queue_url, numbers)) == 2 and sql(queue_url, numbers))
    assert found == [("first-try", "NOV-2026-0001"), ("second-try", "NOV-2026-0001")]
    assert sql(queue_url, "SELECT number FROM public.documents") == [("NOV-2026-0001",)]
