"""A test run killed halfway leaves no PostgreSQL server behind (tests/helpers/pgserver.py):
the process that started a server is killed with SIGKILL, as a time-out kills a run, and
the server's watcher stops it and deletes its files. Killed with its watcher (everything at
once, as when a machine's session is torn down), the next server started does it: the
files are in memory (/dev/shm), a gigabyte and more for each server left. Nor does it leave
a process a test started in a session of its own, such as a queue's worker standing for
another machine (tests/helpers/reaping.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from conftest import ROOT

from tests.helpers import pgserver
from tests.helpers.procs import ended

START = """
import os, sys
from tests.helpers import pgserver
from tests.helpers.procs import ended
with pgserver.postgres() as url:
    data = pgserver._DATA[url]
    pid = (data / "postmaster.pid").read_text().split()[0]
    print(url, data.parent, pid, flush=True)
    sys.stdin.read()  # until killed
"""


def _starter() -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", START], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip


def test_a_killed_test_process_leaves_no_server_and_no_files():
    pgserver.require()
    starter = _starter()
    try:
        url, base, postmaster = starter.stdout.readline().split()
        assert os.path.isdir(base)
        os.kill(starter.pid, signal.SIGKILL)
        starter.wait(timeout=60)
        assert ended(int(postmaster), 120), f"the server {url} outlived the killed process"
    finally:
        starter.kill()
        starter.wait()
        starter.stdin.close()
        starter.stdout.close()
    # its files are deleted by the watcher right after the server stops: wait for the
    # watcher itself (the only process left with the folder in its command line)
    watchers = [
        int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit() and base in _cmdline(p)
    ]
    for pid in watchers:
        assert ended(pid, 60)
    assert not os.path.exists(base)


def _cmdline(proc: Path) -> str:
    try:
        return (proc / "cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_a_server_left_with_its_watcher_killed_is_stopped_and_deleted_by_the_next():
    pgserver.require()
    starter = _starter()
    try:
        url, base, postmaster = starter.stdout.readline().split()
        watcher = int((Path(base) / pgserver.WATCHED_BY).read_text())
        os.kill(watcher, signal.SIGKILL)  # everything at once: the watcher, then the run
        assert ended(watcher, 60)
        os.kill(starter.pid, signal.SIGKILL)
        starter.wait(timeout=60)
    finally:
        starter.kill()
        starter.wait()
        starter.stdin.close()
        starter.stdout.close()
    assert os.path.isdir(base) and Path(f"/proc/{postmaster}").exists(), "nothing was left"
    here = Path(base).parent
    being_made = Path(tempfile.mkdtemp(prefix="docgen-pg-", dir=here))  # no watcher yet
    forgotten = Path(tempfile.mkdtemp(prefix="docgen-pg-", dir=here))  # from long ago
    old = time.time() - 2 * pgserver.STALE_SECONDS
    os.utime(forgotten, (old, old))
    try:
        with pgserver.postgres() as fresh:  # the next server, which sweeps first, serves
            pgserver.create_database(fresh, "after_the_sweep")
        assert ended(int(postmaster), 120), f"the server {url} left behind still runs"
        assert not os.path.exists(base) and not forgotten.exists()
        assert being_made.is_dir()
    finally:
        being_made.rmdir()


# A stand-in for a test's process: it starts a "machine" in a session of its own (a shell
# with two children, as a worker has its fork server and workers), prints the pids of the
# machine, its watcher and the shell's children once the shell has started them, and
# waits until it is killed, or told to stop the machine itself.
MACHINE = """
import os, signal, subprocess, sys
from tests.helpers.reaping import die_with_this_process
machine = subprocess.Popen(
    ["sh", "-c", "sleep 1000 & a=$!; sleep 1000 & echo $a $!; exec >&-; wait"],
    start_new_session=True, stdout=subprocess.PIPE, text=True,
)
watcher = die_with_this_process(machine.pid)
print(machine.pid, watcher.pid, machine.stdout.readline().strip(), flush=True)
sys.stdin.readline()  # until killed, or a line: the test's own end of the machine
os.killpg(machine.pid, signal.SIGKILL)
machine.wait()
watcher.wait()
print("stopped", flush=True)
sys.stdin.read()
"""


def _machine_starter() -> tuple[subprocess.Popen, int, int, list[int]]:
    starter = subprocess.Popen(
        [sys.executable, "-c", MACHINE], cwd=ROOT, stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    machine, watcher, *its_children = map(int, starter.stdout.readline().split())
    assert len(its_children) == 2, its_children
    return starter, machine, watcher, its_children


def test_a_killed_test_process_takes_the_machines_it_started_in_sessions_of_their_own():
    starter, machine, watcher, its_children = _machine_starter()
    try:
        os.kill(starter.pid, signal.SIGKILL)  # as a time-out kills the run's process group
        starter.wait(timeout=60)
        for pid in (machine, *its_children, watcher):
            assert ended(pid, 60), f"process {pid} outlived the killed test process"
    finally:
        starter.kill()
        starter.wait()
        starter.stdin.close()
        starter.stdout.close()


def test_a_machine_stopped_by_its_test_ends_its_watcher_and_nothing_else():
    starter, machine, watcher, its_children = _machine_starter()
    try:
        starter.stdin.write("stop\n")
        starter.stdin.flush()
        assert starter.stdout.readline().strip() == "stopped"  # the watcher has left
        assert all(ended(pid, 60) for pid in (machine, *its_children, watcher))
        assert not ended(starter.pid, 0)  # the test's process goes on
    finally:
        starter.kill()
        starter.wait()
        starter.stdin.close()
        starter.stdout.close()
