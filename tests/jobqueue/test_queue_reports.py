"""`docgen batch --queue --issue` reports what the register holds: a full result store, a
full output disk and SIGTERM each leave a summary, a manifest and an exit code that name
every number the register recorded ("recorded as NUMBER; files not written"), and
`--resume` writes those files under the same numbers; a case changed after it was issued
is refused on resume, naming its number and `docgen supersede`."""

from __future__ import annotations

import json
import resource
import signal
from pathlib import Path

from tests.helpers.cli import docgen
from tests.helpers.register_cases import notice
from tests.jobqueue.conftest import batch_process, sql, wait_for, workers_ready
from tests.test_output_safety import small_disk

KIND = "notice-of-violation"


def _cases(folder: Path, count: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        (folder / f"case-{i}.json").write_text(json.dumps(notice()))
    return folder


def _register(url: str) -> list[str]:
    return [n for (n,) in sql(url, "SELECT number FROM public.documents ORDER BY number")]


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def _numbers(manifest: dict) -> dict[str, str]:
    """Every case the manifest lists with a number: {source: number}."""
    listed = {e["source"]: e["number"] for e in manifest["files"]}
    return listed | {e["source"]: e["number"] for e in manifest.get("recorded", [])}


def test_a_full_result_store_reports_the_numbers_recorded(queue_url, machines, tmp_path):
    cases = _cases(tmp_path / "cases", 3)
    cramped = machines(
        queue_url, "cramped", {"DOCGEN_QUEUE_STORE_MB": "0.001", "DOCGEN_QUEUE_ATTEMPTS": "2"}
    )
    out = tmp_path / "out"
    run = docgen("batch", KIND, cases, "-o", out, "-f", "html", "--queue", "--issue")
    assert run.returncode == 1, run.stderr
    assert "FAILED" not in run.stderr and "not rendered" not in run.stderr
    register = _register(queue_url)
    assert register == ["NOV-2026-0001", "NOV-2026-0002", "NOV-2026-0003"]
    manifest = _manifest(out)
    assert manifest["failed"] == [] and manifest["complete"] is False
    assert sorted(_numbers(manifest).values()) == register
    for entry in manifest["recorded"]:
        said = f"recorded as {entry['number']}; files not written: "
        assert f"{entry['source']}: {said}" in run.stderr
        assert "the queue's result store is full" in entry["cause"]
    assert "`--resume` writes them" in run.stderr
    assert "recorded, not written" in run.stdout  # the summary's column
    assert list(out.glob("*.html")) == []
    cramped.stop()
    machines(queue_url, "roomy")
    again = docgen("batch", KIND, cases, "-o", out, "-f", "html", "--queue", "--issue", "--resume")
    assert again.returncode == 0, again.stderr
    manifest = _manifest(out)
    assert manifest["complete"] is True and "recorded" not in manifest
    assert sorted(_numbers(manifest).values()) == register == _register(queue_url)
    assert len(list(out.glob("*.html"))) == 3


def test_a_full_disk_reports_the_numbers_recorded(queue_url, machines, tmp_path):
    cases = _cases(tmp_path / "cases", 4)
    machines(queue_url, "clerk")
    workers_ready(queue_url, 1)
    with small_disk(tmp_path, 120) as disk:
        limit = None
        if disk is None:  # no tmpfs here: a file-size limit fails the big writes instead
            disk = tmp_path / "disk"
            limit = 120_000
        out = disk / "out"
        args = ("batch", KIND, cases, "-o", out, "-f", "pdf", "--queue", "--issue")
        if limit is not None:
            previous = resource.getrlimit(resource.RLIMIT_FSIZE)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, previous[1]))
        try:
            run = docgen(*args)
        finally:
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_FSIZE, previous)
        assert run.returncode == 1, run.stderr
        assert "writing stopped" in run.stderr and "Traceback" not in run.stderr
        register = _register(queue_url)
        manifest = _manifest(out)
        assert manifest["recorded"], manifest
        # every number the register holds is in the manifest; nothing it lists is unknown
        assert sorted(_numbers(manifest).values()) == register
        not_written = {e["source"] for e in manifest.get("not_written", [])}
        assert not not_written & set(_numbers(manifest))
        for entry in manifest["recorded"]:
            assert f"recorded as {entry['number']}; files not written" in run.stderr
        assert len(register) + len(not_written) == 4


def test_sigterm_reports_the_numbers_recorded(queue_url, machines, tmp_path):
    cases = _cases(tmp_path / "cases", 5)
    machines(queue_url, "clerk")
    workers_ready(queue_url, 1)
    out = tmp_path / "out"
    client = batch_process(queue_url, KIND, cases, "-o", out, "-f", "pdf", "--issue", cwd=tmp_path)
    # Mid-batch: the worker has recorded a first number and has four cases to go (a
    # second or more each). Waiting for a first file instead raced the batch's end on an
    # idle machine, where the files are written in one burst once the results are in.
    wait_for(lambda: _register(queue_url), what="a first number recorded")
    client.send_signal(signal.SIGTERM)
    _, err = client.communicate(timeout=240)
    assert client.returncode == 130, err
    assert "Traceback" not in err
    register = _register(queue_url)
    manifest = _manifest(out)
    assert manifest["complete"] is False
    assert sorted(_numbers(manifest).values()) == register
    for entry in manifest.get("recorded", []):
        assert f"recorded as {entry['number']}; files not written: the batch was interrupted" in err
    statuses = sql(queue_url, "SELECT status::text FROM procrastinate_jobs")
    assert ("doing",) not in statuses and ("todo",) not in statuses
    machines(queue_url, "again")
    again = docgen("batch", KIND, cases, "-o", out, "-f", "pdf", "--queue", "--issue", "--resume")
    assert again.returncode == 0, again.stderr
    assert set(register) <= set(_numbers(_manifest(out)).values())
    assert len(_register(queue_url)) == 5


def test_a_case_changed_after_it_was_issued_is_refused_on_resume(queue_url, machines, tmp_path):
    cases = _cases(tmp_path / "cases", 2)
    machines(queue_url, "clerk")
    out = tmp_path / "out"
    first = docgen("batch", KIND, cases, "-o", out, "-f", "html", "--queue", "--issue")
    assert first.returncode == 0, first.stderr
    numbers = _numbers(_manifest(out))
    changed = cases / "case-1.json"
    data = json.loads(changed.read_text())
    data["violations"][0]["nature"] += " (amended)"
    changed.write_text(json.dumps(data))
    again = docgen("batch", KIND, cases, "-o", out, "-f", "html", "--queue", "--issue", "--resume")
    assert again.returncode == 1
    number = numbers[str(changed)]
    assert f"changed since it was issued as {number}" in again.stderr
    assert f"docgen supersede {number} {changed}" in again.stderr
    assert _register(queue_url) == sorted(numbers.values())  # no second number
