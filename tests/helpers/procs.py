"""Processes as /proc shows them: a server's children and descendants, its rendering
processes, their peak memory."""

from __future__ import annotations

import re
from pathlib import Path


def children(pid: int) -> list[Path]:
    """/proc/<child> of each child process of ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            found.append(entry)
    return found


def descendants(pid: int) -> list[Path]:
    """/proc/<process> of each process below ``pid``: its children, theirs, and so on."""
    found = children(pid)
    for child in list(found):
        found += descendants(int(child.name))
    return found


def renderer_pids(server: int) -> list[int]:
    """A desk server's rendering processes: the children of its fork server
    (docgen.desk.renderers), not the fork server itself nor the resource tracker."""
    found = []
    for child in children(server):
        try:
            if b"forkserver" in (child / "cmdline").read_bytes():
                found += [int(renderer.name) for renderer in children(int(child.name))]
        except OSError:
            continue
    return sorted(found)


def peak_memory_kb(pid: int) -> int:
    """The resident peaks (VmHWM) of process ``pid`` and its descendants, summed, in KB."""
    total = 0
    for entry in [Path(f"/proc/{pid}"), *descendants(pid)]:
        try:
            found = re.search(r"VmHWM:\s+(\d+)", (entry / "status").read_text())
        except OSError:
            continue
        total += int(found.group(1)) if found else 0
    return total
