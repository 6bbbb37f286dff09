"""Processes of their own without an interpreter started for each: one fresh Python per
module imports what the processes need once, then forks a child for each command (a fork
after imports). A child is a process of its own as ``python -m MODULE`` or ``python -c
CODE`` would be: its own environment, folder and streams, and its end is its own (a
``os._exit`` in it, a power cut at a crash point, ends it alone). Only the interpreter's
start and the imports are shared: each cost about a second of the processor per process.

The server is single-threaded (the test process is not: forking it would copy locks
other threads hold) and reads one batch of commands a line; the children of a batch run
at once, and their exit codes come back when all have ended.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.helpers.cli import Run

SERVER = r"""
import atexit, json, os, runpy, signal, sys, traceback
for name in json.loads(sys.argv[1]):
    __import__(name)
requests, replies = sys.stdin, sys.stdout

def child(job):
    signal.alarm(job["timeout"])  # a child that never ends is ended (SIGALRM), not waited on
    os.environ.clear()
    os.environ.update(job["env"])
    os.chdir(job["cwd"])
    for fd, path, mode in ((0, os.devnull, os.O_RDONLY), (1, job["stdout"], os.O_WRONLY),
                           (2, job["stderr"], os.O_WRONLY)):
        os.dup2(os.open(path, mode), fd)
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", closefd=False)
    sys.stderr = open(2, "w", closefd=False)
    flag, what, *args = job["argv"]
    code = 0
    try:
        if flag == "-m":
            sys.argv = [what, *args]
            runpy.run_module(what, run_name="__main__", alter_sys=True)
        else:
            sys.argv = ["-c", *args]
            exec(compile(what, "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as end:  # as the interpreter ends on it
        if end.code is None or isinstance(end.code, int):
            code = end.code or 0
        else:
            print(end.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)

for line in requests:
    pids = []
    for job in json.loads(line):
        pid = os.fork()
        if pid == 0:
            child(job)
        pids.append(pid)
    codes = [os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) for pid in pids]
    replies.write(json.dumps(codes) + "\n")
    replies.flush()
"""


class Forks:
    """A fork server (``forking``): ``run`` runs commands, each in a child of its own."""

    def __init__(self, process: subprocess.Popen, folder: Path) -> None:
        self.process = process
        self.folder = folder
        self.jobs = 0

    def run(
        self,
        *commands: Sequence[str],
        env: dict[str, str] | None = None,
        cwd: Path | None = None,
        timeout: int = 300,
    ) -> list[Run]:
        """Each command (``["-m", MODULE, *ARGS]`` or ``["-c", CODE, *ARGS]``) in a process
        of its own, all at once, with ``env`` (default: this process's) in ``cwd``: what
        each exited with and printed, in order."""
        jobs = []
        for command in commands:
            self.jobs += 1
            streams = {s: str(self.folder / f"{self.jobs}.{s}") for s in ("stdout", "stderr")}
            for path in streams.values():
                Path(path).touch()
            jobs.append(
                {
                    "argv": [str(a) for a in command],
                    "env": dict(os.environ if env is None else env),
                    "cwd": str(cwd or Path.cwd()),
                    "timeout": timeout,
                    **streams,
                }
            )
        self.process.stdin.write(json.dumps(jobs) + "\n")
        self.process.stdin.flush()
        reply = self.process.stdout.readline()
        assert reply, f"the fork server ended: {(self.folder / 'server.stderr').read_text()}"
        return [
            Run(code, Path(job["stdout"]).read_text(), Path(job["stderr"]).read_text())
            for code, job in zip(json.loads(reply), jobs, strict=True)
        ]


@contextmanager
def forking(*preload: str) -> Iterator[Forks]:
    """A fork server that imported the modules ``preload`` names, stopped after."""
    with tempfile.TemporaryDirectory(prefix="docgen-forks-") as folder:
        with open(Path(folder) / "server.stderr", "w") as said:
            process = subprocess.Popen(
                [sys.executable, "-c", SERVER, json.dumps(preload)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=said,
                text=True,
            )
        try:
            yield Forks(process, Path(folder))
        finally:
            process.stdin.close()  # the server reads no more: it ends
            process.wait(timeout=60)
            process.stdout.close()
