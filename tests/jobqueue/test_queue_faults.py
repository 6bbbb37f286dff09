"""Faults, for real: a worker killed outright mid-job, a worker stopped with SIGTERM, the
database restarted mid-batch (and what the worker's log says of it), a full result store,
a case changed on disk after it was queued, a job run twice, an invalid case in a job."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path

from tests.helpers import pgserver
from tests.helpers.cli import docgen
from tests.helpers.readback import html_text
from tests.jobqueue.conftest import (
    FAST,
    NOTICES,
    batch_process,
    copy_cases,
    migrated,
    sql,
    wait_for,
    workers_ready,
)


def _doing(url: str) -> list[tuple]:
    return sql(url, "SELECT id FROM procrastinate_jobs WHERE status = 'doing'")


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def test_a_worker_killed_mid_job_its_job_finishes_elsewhere_once(queue_url, machines, tmp_path):
    cases = copy_cases(tmp_path / "cases", NOTICES[:1])
    doomed = machines(queue_url, "doomed")
    workers_ready(queue_url, 1)
    client = batch_process(
        queue_url, "notice-of-violation", cases, "-o", tmp_path / "out", "-f", "pdf", cwd=tmp_path
    )
    wait_for(lambda: _doing(queue_url), what="the job taken")
    doomed.signal(signal.SIGKILL)  # the machine is gone: no goodbye, no status written
    doomed.process.wait()
    machines(queue_url, "rescuer")
    _, err = client.communicate(timeout=180)
    assert client.returncode == 0, err
    assert sql(queue_url, "SELECT status::text, attempts FROM procrastinate_jobs") == [
        ("succeeded", 2)
    ]
    started = sql(queue_url, "SELECT count(*) FROM procrastinate_events WHERE type = 'started'")
    assert started == [(2,)]
    local = docgen("batch", "notice-of-violation", cases, "-o", tmp_path / "local", "-f", "pdf")
    assert local.returncode == 0
    for name in ("manifest.json", *(f["file"] for f in _manifest(tmp_path / "local")["files"])):
        assert (tmp_path / "out" / name).read_bytes() == (tmp_path / "local" / name).read_bytes()


def test_sigterm_lets_the_job_in_hand_finish(queue_url, machines, tmp_path):
    cases = copy_cases(tmp_path / "cases", NOTICES[:1])
    worker = machines(queue_url, "leaving")
    workers_ready(queue_url, 1)
    client = batch_process(
        queue_url, "notice-of-violation", cases, "-o", tmp_path / "out", "-f", "pdf", cwd=tmp_path
    )
    wait_for(lambda: _doing(queue_url), what="the job taken")
    worker.process.send_signal(signal.SIGTERM)  # to the parent alone: it tells its workers
    assert worker.process.wait(timeout=120) == 0, worker.output()
    assert sql(queue_url, "SELECT status::text, attempts FROM procrastinate_jobs") == [
        ("succeeded", 1)
    ]
    _, err = client.communicate(timeout=60)
    assert client.returncode == 0, err
    assert _manifest(tmp_path / "out")["complete"] is True
    assert sql(queue_url, "SELECT count(*) FROM procrastinate_workers") == [(0,)]


def test_the_database_restarted_mid_batch(machines, tmp_path):
    pgserver.require()
    with pgserver.postgres() as server:
        url = migrated(server, "restarted")
        cases = copy_cases(tmp_path / "cases")
        steady = machines(url, "steady")
        workers_ready(url, 1)
        out = tmp_path / "out"
        client = batch_process(
            url, "notice-of-violation", cases, "-o", out, "-f", "pdf", cwd=tmp_path
        )
        wait_for(
            lambda: sql(url, "SELECT 1 FROM procrastinate_jobs WHERE status = 'succeeded'"),
            what="a first job done",
        )
        pgserver.restart(server)
        _, err = client.communicate(timeout=240)
        assert client.returncode == 0, err
        manifest = _manifest(out)
        assert manifest["complete"] is True and manifest["failed"] == []
        assert len(manifest["files"]) == len(NOTICES)
        states = sql(url, "SELECT status::text, count(*) FROM procrastinate_jobs GROUP BY 1")
        assert states == [("succeeded", len(NOTICES))]
        assert steady.stop() == 0
    log = steady.output()
    assert "Traceback" not in log and "error connecting" not in log, log
    assert len([line for line in log.splitlines() if "connection lost" in line]) <= 1, log


def test_a_database_restart_is_two_lines_in_the_worker_log(machines, tmp_path, monkeypatch):
    """Issue 37, 5(b): the worker's log says once that the connection was lost and once
    that it is back, with no traceback and no line per reconnection attempt; and the
    worker, reconnected, renders the next job."""
    pgserver.require()
    with pgserver.postgres() as server:
        url = migrated(server, "reconnecting")
        worker = machines(url, "reconnecting")
        workers_ready(url, 1)
        pgserver.stop(server)  # as an administrator's restart does: stop, then start
        wait_for(lambda: "database connection lost" in worker.output(), timeout=30, what="the loss")
        pgserver.start(server)
        wait_for(lambda: "database connection regained" in worker.output(), timeout=30, what="back")
        monkeypatch.setenv("DOCGEN_DATABASE_URL", url)
        for key, value in FAST.items():
            monkeypatch.setenv(key, value)
        cases = copy_cases(tmp_path / "cases", NOTICES[:1])
        run = docgen(
            "batch", "notice-of-violation", cases, "-o", tmp_path / "out", "-f", "html", "--queue"
        )
        assert run.returncode == 0, run.stderr
        assert worker.stop() == 0
    log = worker.output()
    lines = log.splitlines()
    assert "Traceback" not in log, log
    (lost,) = [line for line in lines if "database connection lost" in line]
    assert lost.startswith("database connection lost (") and "); " in lost, lost
    (back,) = [line for line in lines if "database connection regained" in line]
    assert re.fullmatch(r"database connection regained after \d+\.\d s", back), back
    assert not [line for line in lines if "error connecting" in line or "pool-1" in line], log
    assert len(lines) == 4, log  # started, lost, regained, stopped


def test_a_full_result_store_is_named(queue_url, machines, tmp_path):
    cases = copy_cases(tmp_path / "cases", NOTICES[:1])
    machines(queue_url, "cramped", {"DOCGEN_QUEUE_STORE_MB": "0.001", "DOCGEN_QUEUE_ATTEMPTS": "2"})
    out = tmp_path / "out"
    run = docgen("batch", "notice-of-violation", cases, "-o", out, "-f", "html", "--queue")
    assert run.returncode == 1, run.stderr
    (failure,) = _manifest(out)["failed"]
    assert "the queue's result store is full" in failure["error"]
    assert "DOCGEN_QUEUE_STORE_MB" in failure["error"]
    assert "after 2 tries" in failure["error"]
    assert list(out.glob("*.html")) == []
    assert sql(queue_url, "SELECT status::text, attempts FROM procrastinate_jobs") == [
        ("failed", 2)
    ]


def test_the_case_as_queued_is_rendered_not_the_file_changed_since(queue_url, machines, tmp_path):
    cases = copy_cases(tmp_path / "cases", NOTICES[:1])
    (case,) = cases.glob("*.yaml")
    original = case.read_text()
    out = tmp_path / "out"
    client = batch_process(
        queue_url, "notice-of-violation", cases, "-o", out, "-f", "html", cwd=tmp_path
    )
    wait_for(lambda: sql(queue_url, "SELECT 1 FROM procrastinate_jobs"), what="the job queued")
    name = "Helen M. Brandt"
    assert name in original
    case.write_text(original.replace(name, "Somebody Else Entirely"), encoding="utf-8")
    machines(queue_url, "late")
    _, err = client.communicate(timeout=120)
    assert client.returncode == 0, err
    (page,) = out.glob("*.html")
    text = html_text(page.read_text(encoding="utf-8"))
    assert name in text
    assert "Somebody Else" not in text


def test_a_job_run_twice_stores_once_and_a_case_error_is_never_retried(queue_url, machines):
    from docgen.batch.inputs import CaseInput
    from docgen.batch.worker import Job
    from docgen.queue.client import defer, job_payload

    machines(queue_url, "twice")
    payload = job_payload(
        "b1",
        CaseInput(str(NOTICES[0]), NOTICES[0].stem, path=str(NOTICES[0])),
        Job("notice-of-violation", ("html",)),
    )
    defer(queue_url, [payload], "docgen")
    done = "SELECT created_at FROM results WHERE batch = 'b1' AND done"
    (first,) = wait_for(lambda: sql(queue_url, done), what="the result stored")
    defer(queue_url, [payload], "docgen")  # the same job again (as a retry would run it)
    succeeded = "SELECT count(*) FROM procrastinate_jobs WHERE status = 'succeeded'"
    wait_for(lambda: sql(queue_url, succeeded) == [(2,)], what="the second job done")
    assert sql(queue_url, done) == [first]
    assert sql(queue_url, "SELECT count(*) FROM result_files WHERE batch = 'b1'") == [(1,)]

    # a case that is invalid (sent without the client's validation) is a result: its error
    invalid = {**payload, "batch": "b2", "source": "sent.yaml", "name": "sent"}
    invalid["case"] = {"text": "jurisdiction: homer\nnumber: NOV-1\n"}
    (job_id,) = defer(queue_url, [invalid], "docgen")
    query = "SELECT error FROM results WHERE batch = 'b2' AND done"
    ((error,),) = wait_for(lambda: sql(queue_url, query), what="the error stored")
    assert error.startswith("sent.yaml: ") and "problem" in error
    # and the job is not tried again: it ends, succeeded at its first attempt (a retry
    # would leave it waiting to run again, and the wait would time out)
    ended = (
        "SELECT status::text, attempts FROM procrastinate_jobs"
        " WHERE id = %s AND status NOT IN ('todo', 'doing')"
    )
    found = wait_for(lambda: sql(queue_url, ended, job_id), what="the job ended")
    assert found == [("succeeded", 1)]
