"""What keeps a batch honest when the world misbehaves: one batch per output folder (a
lock), SIGTERM and SIGHUP handled like Ctrl-C, workers that die with their parent, and a
cap on the number of workers."""

from __future__ import annotations

import errno
import fcntl
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from docgen.errors import DocgenError, OutputError

MAX_JOBS = 32  # beyond the cores, more workers only share the same CPUs and add memory


def capped_jobs(jobs: int | None, cases: int) -> tuple[int, str | None]:
    """Workers to start, and a notice when ``jobs`` was more than the machine's cores."""
    cores = os.cpu_count() or 1
    ceiling = max(1, min(cores, MAX_JOBS))
    wanted = jobs or ceiling
    notice = None
    if wanted > ceiling:
        notice = (
            f"-j {wanted} is more than this machine's {cores} core(s); using {ceiling} "
            "(rendering is CPU-bound: more workers would only take turns and add memory)"
        )
        wanted = ceiling
    return max(1, min(wanted, cases or 1)), notice


@contextmanager
def folder_lock(out: Path) -> Iterator[None]:
    """Hold ``out`` for this batch alone: a second batch writing there is refused.

    The lock is on the folder itself (flock on its descriptor): nothing is added to the
    folder, and the kernel releases it when the process ends, however it ends.
    """
    try:
        fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
    except OSError as err:
        raise OutputError(f"{out}: cannot open the output folder: {err.strerror}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as err:
            if err.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            raise DocgenError(
                f"{out}: another docgen batch is writing into this folder; wait for it to "
                "finish or choose another folder"
            ) from None
        yield
    finally:
        os.close(fd)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


@contextmanager
def signals_as_interrupt() -> Iterator[None]:
    """SIGTERM (kill, a service stopping) and SIGHUP (the terminal closing) stop the batch
    the way Ctrl-C does: workers stopped, no partial file, the manifest says incomplete. A
    signal ignored as the batch started (SIGHUP under nohup) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may set handlers; its own handlers stay in place
        return
    wanted = [signal.SIGTERM, getattr(signal, "SIGHUP", None)]
    previous = {sig: handled(sig, _interrupt) for sig in wanted if sig is not None}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def handled(sig: signal.Signals, handler: Callable[[int, FrameType | None], None]) -> Any:
    """``handler`` for ``sig``, unless this process was started with ``sig`` ignored (by
    ``nohup``, or a shell starting a job in the background): that was the user's choice,
    and stands. Returns the disposition before, to put back."""
    before = signal.getsignal(sig)
    if before != signal.SIG_IGN:
        signal.signal(sig, handler)
    return before


def die_with_parent(batch_pid: int) -> None:
    """In a worker: ignore the terminal's signals (the batch process handles them), and end
    as soon as the batch process ends, however it ends (even by SIGKILL), so a killed batch
    leaves nothing running. The worker's own parent is the fork server, which outlives a
    killed batch, so the worker watches the batch process itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
    watch = threading.Thread(target=_exit_with, args=(batch_pid,), daemon=True)
    watch.start()


def _exit_with(pid: int) -> None:
    """Block until process ``pid`` ends, then end this process at once (no cleanup: the
    parent writes every file, so a worker has nothing to leave half-done)."""
    try:
        handle = os.pidfd_open(pid)  # Linux: readable when the process ends
    except (AttributeError, OSError):
        handle = None
    if handle is not None:
        select.select([handle], [], [])
        os._exit(1)
    while True:  # elsewhere: look once a second
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:
            pass
        time.sleep(1)
