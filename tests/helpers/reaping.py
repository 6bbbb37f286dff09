"""A process a test starts in a session of its own (a `docgen worker` standing for another
machine, a batch given Ctrl-C as a terminal would) is out of reach of a kill of the run's
process group: a run stopped by a time-out's SIGKILL left those workers reconnecting to
their stopped database for ever. Each such process gets a watcher, in a session of its own
too, which waits on two pidfds (woken by either end, however it ends: no polling): if the
test's process ended first, it kills the started process's group (the worker's fork server
and workers with it); if the started process ended first, as a test ends it, it leaves."""

from __future__ import annotations

import os
import subprocess
import sys

_WATCHER = """
import os, select, signal, sys
test, group = int(sys.argv[1]), int(sys.argv[2])
try:
    ends = [os.pidfd_open(test), os.pidfd_open(group)]
except ProcessLookupError:  # one has ended already: the group's leader, or the test
    ends = []
ended, _, _ = select.select(ends, [], []) if ends else ([], [], [])
if not ends or ends[0] in ended:
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass
"""


def die_with_this_process(group: int) -> subprocess.Popen:
    """Kill process group ``group`` (a process started with ``start_new_session``) when
    this process ends without having seen it end."""
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _WATCHER, str(os.getpid()), str(group)],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )  # fmt: skip
