"""Batches survive faults: SIGTERM and SIGHUP, a killed parent, a killed worker, a full
disk, two batches on one folder, many workers asked for, --resume, CSV files from other
spreadsheets. Signals and deaths are real, sent to real processes."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

from docgen import batch
from docgen.batch.manifest import previous_entries
from docgen.batch.pool import outcomes
from docgen.batch.worker import Job
from docgen.cases.loader import read_case_file
from docgen.render import processes
from tests.helpers.faults import killed_on_doomed, stuck_on_doomed
from tests.helpers.procs import started_with
from tests.test_output_safety import small_disk

KIND = "penalty-statement"
BASE = ROOT / "fixtures" / KIND / "homer-first-offense.yaml"


def cases_in(folder: Path, count: int, prefix: str = "case") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    data = read_case_file(BASE)
    for i in range(count):
        data = {**data, "number": f"PS-{prefix}-{i:04d}"}
        text = yaml.safe_dump(data, sort_keys=False)
        (folder / f"{prefix}-{i:03d}.yaml").write_text(text, encoding="utf-8")
    return folder


def docgen_batch(*args, ignored: tuple[int, ...] = (), **kw) -> subprocess.Popen:
    """``docgen batch KIND ARGS`` started as from a terminal (SIGHUP and SIGINT at their
    default, whatever this test process inherited), or with the signals ``ignored``."""
    command = [sys.executable, "-m", "docgen.cli", "batch", KIND, *map(str, args)]
    default = tuple(s for s in (signal.SIGHUP, signal.SIGINT) if s not in ignored)
    return subprocess.Popen(
        started_with(command, default, ignored),
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw,
    )  # fmt: skip


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, the fork server, its workers)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for_a_file(out: Path, proc: subprocess.Popen, suffix: str = ".html") -> None:
    deadline = time.monotonic() + 120
    while not (out.is_dir() and any(p.suffix == suffix for p in out.iterdir())):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no document was written"
        time.sleep(0.02)


def assert_manifest_true(out: Path) -> dict:
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    left = sorted(p.name for p in out.iterdir() if p.name != "manifest.json")
    assert not [n for n in left if n.startswith(".") or n.endswith(".part")], left
    assert sorted(f["file"] for f in manifest["files"]) == left
    for entry in manifest["files"]:
        assert hashlib.sha256((out / entry["file"]).read_bytes()).hexdigest() == entry["sha256"]
    return manifest


def signal_midway(tmp_path: Path, sig: int) -> tuple[subprocess.Popen, str, set[int]]:
    """A batch of 80 cases sent ``sig`` (to its main process only, as `kill` or a service
    manager does) once its first PDF is written; its stderr and the processes below it."""
    cases = cases_in(tmp_path / "cases", 80)
    proc = docgen_batch(cases, "-o", tmp_path / "out", "-j", "2", "-f", "html,pdf")
    try:
        wait_for_a_file(tmp_path / "out", proc, ".pdf")
        below = descendants(proc.pid)
        assert len(below) >= 2, below  # the fork server and the workers
        proc.send_signal(sig)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    deadline = time.monotonic() + 30
    while [p for p in below if alive(p)] and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in below if alive(p)], "worker processes outlived the batch"
    return proc, stderr, below


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_a_batch_like_ctrl_c(tmp_path, sig):
    proc, stderr, _ = signal_midway(tmp_path, sig)
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    manifest = assert_manifest_true(tmp_path / "out")
    assert manifest["complete"] is False and 0 < len(manifest["files"]) < 160


def test_a_batch_started_under_nohup_goes_on_through_sighup(tmp_path):
    """`nohup docgen batch ... &` and the terminal closed: SIGHUP was ignored as the batch
    started, the user's choice, and the batch renders every case (it stopped before)."""
    cases = cases_in(tmp_path / "cases", 12)
    out = tmp_path / "out"
    proc = docgen_batch(cases, "-o", out, "-j", "2", "-f", "pdf", ignored=(signal.SIGHUP,))
    try:
        wait_for_a_file(out, proc, ".pdf")
        assert proc.poll() is None, "the batch ended before the signal"
        proc.send_signal(signal.SIGHUP)
        _, stderr = proc.communicate(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    manifest = assert_manifest_true(out)
    assert manifest["complete"] is True and len(manifest["files"]) == 12


def test_workers_end_when_the_batch_is_killed_outright(tmp_path):
    proc, _, _ = signal_midway(tmp_path, signal.SIGKILL)  # no handler runs in the parent
    assert proc.returncode == -signal.SIGKILL
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["complete"] is False  # written before the first case: never stale


def test_a_killed_worker_costs_only_its_case(tmp_path):
    folder = cases_in(tmp_path / "cases", 7)
    doomed = folder / "case-003.yaml"
    doomed.rename(folder / "doomed-003.yaml")
    found = batch.collect([folder])
    results = list(outcomes(enumerate(found), 2, Job(KIND, ("html",)), killed_on_doomed))
    by_source = {o.source: o for o in results}
    assert len(results) == len(found) == 7
    failed = [o for o in results if o.error]
    assert [o.source for o in failed] == [str(folder / "doomed-003.yaml")]
    assert "worker process rendering this case died" in failed[0].error
    assert all(by_source[c.source].blobs.get("html") for c in found if "doomed" not in c.name)


def test_a_case_past_the_render_time_limit_costs_only_its_case(tmp_path, monkeypatch):
    """A batch's workers are the desk's rendering processes (docgen.render.processes): a
    case still rendering at the time limit is stopped, its process replaced, and the cases
    after it rendered by the replacement."""
    monkeypatch.setenv(processes.SECONDS_ENV, "3")
    folder = cases_in(tmp_path / "cases", 4)
    (folder / "case-001.yaml").rename(folder / "doomed-001.yaml")
    found = batch.collect([folder])
    results = list(outcomes(enumerate(found), 1, Job(KIND, ("html",)), stuck_on_doomed))
    failed = [o for o in results if o.error]
    assert [o.source for o in failed] == [str(folder / "doomed-001.yaml")]
    assert "took longer than 3 seconds, and was stopped" in failed[0].error
    assert "the other cases went on" in failed[0].error
    assert sorted(o.source for o in results if o.blobs.get("html")) == sorted(
        c.source for c in found if "doomed" not in c.name
    )


def test_a_full_disk_stops_the_batch_and_the_manifest_says_what_is_missing(tmp_path):
    cases = cases_in(tmp_path / "cases", 30)
    with small_disk(tmp_path, 700) as disk:
        limit = None
        if disk is None:  # no tmpfs here: a file-size limit fails the big writes instead
            disk = tmp_path / "disk"
            limit = lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (60_000, 60_000))  # noqa: E731
        out = disk / "out"
        proc = docgen_batch(cases, "-o", out, "-j", "1", "-f", "html,pdf", preexec_fn=limit)
        _, stderr = proc.communicate(timeout=600)
        assert proc.returncode == 1, stderr
        assert "No space left on device" in stderr or "File too large" in stderr
        assert "Traceback" not in stderr and "internal error" not in stderr
        manifest = assert_manifest_true(out)
        assert manifest["complete"] is False
        written = {f["source"] for f in manifest["files"]}
        missing = {entry["source"] for entry in manifest["not_written"]}
        assert missing and not written & missing
        assert written | missing == {str(p) for p in sorted(cases.iterdir())}
        cause = manifest["not_written"][0]["cause"]
        assert "No space left on device" in cause or "File too large" in cause


def test_a_second_batch_on_the_same_folder_is_refused(tmp_path):
    cases = cases_in(tmp_path / "cases", 2)
    out = tmp_path / "out"
    out.mkdir()
    holder = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # the lock a running batch holds
        proc = docgen_batch(cases, "-o", out, "-f", "html")
        _, stderr = proc.communicate(timeout=120)
    finally:
        os.close(holder)
    assert proc.returncode == 1 and "another docgen batch is writing" in stderr
    assert list(out.iterdir()) == []


def test_two_batches_at_once_one_writes_and_one_is_refused(tmp_path):
    """The first batch is held mid-way (stopped after its first document, as a busy
    machine may hold it) while the second starts: it holds the folder, whatever the time
    the second takes to start; let go, it finishes."""
    cases = cases_in(tmp_path / "cases", 4)
    out = tmp_path / "out"
    first = docgen_batch(cases, "-o", out, "-j", "1", "-f", "html,pdf")
    try:
        wait_for_a_file(out, first)
        first.send_signal(signal.SIGSTOP)
        second = docgen_batch(cases, "-o", out, "-j", "1", "-f", "html,pdf")
        _, second_err = second.communicate(timeout=120)
    finally:
        first.send_signal(signal.SIGCONT)
    _, first_err = first.communicate(timeout=600)
    assert first.returncode == 0, first_err
    assert second.returncode == 1 and "another docgen batch" in second_err
    assert assert_manifest_true(out)["complete"] is True


def test_the_parent_keeps_no_rendered_bytes(tmp_path):
    folder = cases_in(tmp_path / "cases", 5)
    heard = []
    report = batch.run(KIND, batch.collect([folder]), tmp_path / "out", ("html",), 1,
                       on_outcome=heard.append)  # fmt: skip
    assert report.documents == 5 and len(heard) == 5
    assert all(outcome.blobs == {} for outcome in heard)


def test_too_many_workers_are_capped_with_a_message(tmp_path):
    folder = cases_in(tmp_path / "cases", 2)
    proc = docgen_batch(folder, "-o", tmp_path / "out", "-j", "999", "-f", "html")
    _, stderr = proc.communicate(timeout=300)
    assert proc.returncode == 0, stderr
    assert "warning: -j: -j 999 is more than this machine's" in stderr


def test_resume_renders_only_missing_and_changed_cases(tmp_path):
    folder = cases_in(tmp_path / "cases", 5)
    out = tmp_path / "out"
    first = batch.run(KIND, batch.collect([folder]), out, ("html",), 1)
    assert first.documents == 5
    files = sorted(out.glob("*.html"))
    kept = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in files}
    files[0].unlink()  # interrupted, say, before this one was written
    changed = folder / "case-004.yaml"
    changed.write_text(  # the same number (file name), another recipient: replaced
        changed.read_text().replace("Marguerite", "Margaret"), encoding="utf-8"
    )
    heard = []
    again = batch.run(KIND, batch.collect([folder]), out, ("html",), 1, on_outcome=heard.append,
                      resume=True)  # fmt: skip
    assert sorted(o.source for o in heard) == [
        str(folder / "case-000.yaml"),
        str(folder / "case-004.yaml"),
    ]
    assert (again.documents, again.resumed, again.failures) == (2, 3, [])
    manifest = assert_manifest_true(out)
    assert manifest["complete"] is True and len(manifest["files"]) == 5
    for path in files[1:4]:
        assert (path.stat().st_ino, path.stat().st_mtime_ns) == kept[path.name]
    assert "Margaret" in files[4].read_text(encoding="utf-8")


def test_a_different_file_in_the_folder_fails_its_case_unless_forced(tmp_path):
    folder = cases_in(tmp_path / "cases", 2)
    out = tmp_path / "out"
    out.mkdir()
    served = out / "PS-case-0000-penalty-statement.html"
    served.write_text("a served notice", encoding="utf-8")
    report = batch.run(KIND, batch.collect([folder]), out, ("html",), 1)
    assert [s for s, _ in report.failures] == [str(folder / "case-000.yaml")]
    assert "--force" in report.failures[0][1]
    assert served.read_text() == "a served notice"
    forced = batch.run(KIND, batch.collect([folder]), out, ("html",), 1, force=True)
    assert forced.failures == [] and served.read_text() != "a served notice"


@pytest.mark.parametrize(("mark", "name"), [(";", "semicolons (;)"), ("\t", "tabs")])
def test_a_csv_from_a_european_spreadsheet_is_named_for_its_delimiter(tmp_path, mark, name):
    path = tmp_path / "sweep.csv"
    path.write_text(mark.join(["number", "recipient.name"]) + "\n" + mark.join(["A", "B"]))
    found = batch.collect([path])
    assert len(found) == 1 and f"separated by {name}, not commas" in found[0].error


def test_a_malformed_dotted_header_fails_the_rows_using_it(tmp_path):
    rows = [{"number": "A"}, {"number": "B", "prior_offenses.².committed": "2020-01-01"}]
    path = tmp_path / "sweep.csv"
    path.write_text(
        "number,prior_offenses.².committed\n" + "\n".join(
            f"{r['number']},{r.get('prior_offenses.².committed', '')}" for r in rows
        ), encoding="utf-8",
    )  # fmt: skip
    first, second = batch.collect([path])
    assert first.error is None and first.data == {"number": "A"}
    assert "prior_offenses.².committed" in second.error and "'²' is neither a key" in second.error


def test_a_batch_never_reads_its_own_manifest_as_a_case(tmp_path):
    folder = cases_in(tmp_path / "cases", 2)
    first = batch.run(KIND, batch.collect([folder]), folder, ("html",), 1)
    assert (folder / "manifest.json").is_file() and first.failures == []
    assert [Path(c.source).name for c in batch.collect([folder])] == ["case-000.yaml",
                                                                     "case-001.yaml"]  # fmt: skip


def test_resume_after_sigkill_renders_only_what_is_missing(tmp_path):
    # Each case's entries reach manifest.journal as its files are written, so a batch
    # killed outright (no handler runs) still says what it wrote.
    folder = cases_in(tmp_path / "cases", 30)
    out = tmp_path / "out"
    proc = docgen_batch(folder, "-o", out, "-j", "1", "-f", "html")
    try:
        deadline = time.monotonic() + 120
        while len(list(out.glob("*.html"))) < 4:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    assert json.loads((out / "manifest.json").read_text())["complete"] is False
    journaled = previous_entries(out, KIND)
    written = {p.name for p in out.glob("*.html")}
    assert 4 <= len(journaled) < 30
    listed = {entry["file"] for entries in journaled.values() for entry in entries}
    assert listed <= written and len(written - listed) <= 1  # the kill may fall in between
    # One case already written is corrected: its file is its own, so it is replaced.
    corrected = sorted(journaled)[1]
    path = Path(corrected)
    path.write_text(path.read_text().replace("Marguerite", "Margaret"), encoding="utf-8")
    heard = []
    again = batch.run(KIND, batch.collect([folder]), out, ("html",), 1,
                      on_outcome=heard.append, resume=True)  # fmt: skip
    rendered = {o.source for o in heard}
    assert rendered == {str(p) for p in folder.iterdir()} - set(journaled) | {corrected}
    assert again.failures == [] and again.resumed == len(journaled) - 1
    manifest = assert_manifest_true(out)  # no journal, no temporary left
    assert manifest["complete"] is True and len(manifest["files"]) == 30
    (entry,) = [e for e in manifest["files"] if e["source"] == corrected]
    assert "Margaret" in (out / entry["file"]).read_text(encoding="utf-8")


def test_a_file_name_that_is_not_utf8_is_reported_not_fatal(tmp_path):
    folder = cases_in(tmp_path / "cases", 2)
    odd = os.fsencode(folder) + b"/caf\xe9.yaml"
    os.rename(folder / "case-001.yaml", odd)
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, "-m", "docgen.cli", "batch", KIND, folder, "-o", out, "-f", "html"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shown = f"{folder}/caf\\xe9.yaml"
    assert f"warning: {shown}: the file's name is not UTF-8 text" in done.stderr
    manifest = assert_manifest_true(out)
    assert sorted(e["source"] for e in manifest["files"]) == sorted(
        [str(folder / "case-000.yaml"), shown]
    )
