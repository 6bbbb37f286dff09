"""Processes as /proc shows them: a server's children and descendants, its rendering
processes, their peak memory."""

from __future__ import annotations

import re
import sys
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
    (docgen.desk.server.renderers), not the fork server itself nor the resource tracker."""
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


def unread_bytes(pid: int) -> int:
    """The bytes waiting unread in the sockets of process ``pid`` (a renderer's pipe from
    its server is a socket pair): each socket is taken from the process (pidfd_getfd, which
    needs no cooperation: the process may be stopped) and asked FIONREAD."""
    import array
    import ctypes
    import fcntl
    import os
    import termios

    pidfd_getfd = 438  # the same number on every architecture
    libc = ctypes.CDLL(None, use_errno=True)
    total = 0
    pidfd = os.pidfd_open(pid)
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                if not os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                    continue
            except OSError:
                continue
            ours = libc.syscall(pidfd_getfd, pidfd, int(fd), 0)
            if ours < 0:
                raise OSError(ctypes.get_errno(), f"pidfd_getfd of {pid}'s fd {fd}")
            try:
                count = array.array("i", [0])
                fcntl.ioctl(ours, termios.FIONREAD, count)
                total += count[0]
            finally:
                os.close(ours)
    finally:
        os.close(pidfd)
    return total


def ended(pid: int, seconds: float = 0) -> bool:
    """Whether process ``pid`` ends within ``seconds`` (gone, or a zombie its parent has not
    reaped yet): woken by its end through its pidfd, never polled."""
    import os
    import select

    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([fd], [], [], seconds)[0])
    finally:
        os.close(fd)


def started_with(
    command: list[str], default: tuple[int, ...] = (), ignored: tuple[int, ...] = ()
) -> list[str]:
    """``command``, started with each signal of ``default`` at its default disposition and
    each of ``ignored`` ignored, whatever the test process inherited: a test run started in
    the background or under nohup ignores SIGINT or SIGHUP, and its children inherit that.
    ``default=(SIGINT, SIGHUP)`` starts it as a terminal does; ``ignored=(SIGHUP,)`` as
    nohup does."""
    settings = [f"signal.signal({int(s)}, signal.SIG_DFL)" for s in default]
    settings += [f"signal.signal({int(s)}, signal.SIG_IGN)" for s in ignored]
    code = f"import os, signal, sys; {'; '.join(settings)}; os.execv(sys.argv[1], sys.argv[1:])"
    return [sys.executable, "-c", code, *command]
