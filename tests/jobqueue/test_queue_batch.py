"""`docgen batch --queue` against the local batch: same names, same bytes, same manifest;
two workers on two "machines" (separate processes, homes and folders) sharing only the
database; --resume; bad cases failing at once; the usage error on SQLite."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import docgen
from tests.jobqueue.conftest import copy_cases, sql, workers_ready


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def test_two_machines_write_what_the_local_batch_writes(queue_url, machines, tmp_path):
    cases = copy_cases(tmp_path / "cases")
    (cases / "broken.yaml").write_text("jurisdiction: homer\nnumber: [\n", encoding="utf-8")
    local = docgen("batch", "notice-of-violation", cases, "-o", tmp_path / "local", "-j", "1")
    assert local.returncode == 1  # the broken case
    first, second = machines(queue_url, "east"), machines(queue_url, "west")
    workers_ready(queue_url, 2)
    queued = docgen("batch", "notice-of-violation", cases, "-o", tmp_path / "queued", "--queue")
    assert queued.returncode == 1, queued.stderr
    assert _files(tmp_path / "queued") == _files(tmp_path / "local")  # manifest.json too
    manifest = json.loads((tmp_path / "queued" / "manifest.json").read_text())
    assert [f["source"] for f in manifest["failed"]] == [str(cases / "broken.yaml")]
    assert len(manifest["files"]) == 3 * len(list(cases.glob("*.yaml"))) - 3
    # the bad case was never sent; each good one was one job, done on both machines
    jobs = sql(queue_url, "SELECT status::text, worker_id, args->>'source' FROM procrastinate_jobs")
    assert sorted(source for _, _, source in jobs) == sorted(
        str(p) for p in cases.glob("*.yaml") if p.name != "broken.yaml"
    )
    assert {status for status, _, _ in jobs} == {"succeeded"}
    assert len({worker for _, worker, _ in jobs}) == 2
    assert sql(queue_url, "SELECT count(*) FROM results") == [(0,)]  # read, then removed
    status = docgen("worker", "--status")
    assert status.returncode == 0
    assert f"queue docgen: {len(jobs)} succeeded" in status.stdout
    assert "workers: 2" in status.stdout
    assert "result store: 0.0 MB" in status.stdout
    assert first.stop() == 0 and second.stop() == 0
    assert "workers stopped" in first.output()


def test_resume_sends_only_the_changed_case(queue_url, machines, tmp_path):
    cases = copy_cases(tmp_path / "cases")
    out = tmp_path / "out"
    machines(queue_url, "only")
    assert (
        docgen("batch", "notice-of-violation", cases, "-o", out, "-f", "html", "--queue").returncode
        == 0
    )
    changed = sorted(cases.glob("*.yaml"))[0]
    changed.write_text(changed.read_text() + "\n# revised\n", encoding="utf-8")
    again = docgen(
        "batch", "notice-of-violation", cases, "-o", out, "-f", "html", "--queue", "--resume"
    )
    assert again.returncode == 0, again.stderr
    sources = [row[0] for row in sql(queue_url, "SELECT args->>'source' FROM procrastinate_jobs")]
    assert sorted(sources) == sorted([str(p) for p in cases.glob("*.yaml")] + [str(changed)])
    assert "kept" in again.stdout


def test_queue_on_sqlite_is_a_usage_error(tmp_path, monkeypatch):
    monkeypatch.delenv("DOCGEN_DATABASE_URL", raising=False)
    monkeypatch.setenv("DOCGEN_HOME", str(tmp_path / "home"))
    cases = copy_cases(tmp_path / "cases", [])
    (cases / "a.yaml").write_text("jurisdiction: homer\n", encoding="utf-8")
    run = docgen("batch", "notice-of-violation", cases, "-o", tmp_path / "out", "--queue")
    assert run.returncode == 2
    assert "a queue needs the register on PostgreSQL" in run.stderr
    assert not (tmp_path / "out").exists()
    worker = docgen("worker", "--status")
    assert worker.returncode == 2
    assert "a queue needs the register on PostgreSQL" in worker.stderr
