"""Processes as /proc shows them: a server's children (its rendering processes), their
peak memory."""

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


def peak_memory_kb(pid: int) -> int:
    """The resident peaks (VmHWM) of process ``pid`` and its children, summed, in KB."""
    total = 0
    for entry in [Path(f"/proc/{pid}"), *children(pid)]:
        try:
            found = re.search(r"VmHWM:\s+(\d+)", (entry / "status").read_text())
        except OSError:
            continue
        total += int(found.group(1)) if found else 0
    return total
