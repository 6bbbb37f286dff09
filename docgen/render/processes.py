"""Rendering processes: the one design the desk's renderers and the batch's workers share.

WeasyPrint and python-docx hold the interpreter for seconds, and a hostile or runaway
case can take all the memory there is, so documents are made in processes of their own.
Each process serves one piece of work at a time, under a memory limit (RLIMIT_DATA,
``DOCGEN_RENDER_MEMORY_MB``: the memory it writes; not RLIMIT_AS, the address space, which
the .NET redline engine and LibreOffice it starts reserve many times over and would fail
under) and a time limit (``DOCGEN_RENDER_SECONDS``). One that dies (the kernel's
out-of-memory killer, a SIGKILL, a crash in a C library) or runs past its time fails only
the work it was doing (:class:`RendererLost`) and is replaced by a fresh process; the
others never notice. A pool of processes that share a fate (``ProcessPoolExecutor``,
which breaks for good when one of its workers dies) would fail every piece of work after
it: the desk until it was restarted, a batch every case in flight with the one that
killed its worker.

Each process is forked from a fork server: a clean process started once, which has
loaded what ``Start.preload`` names (a fork of the caller itself would copy its threads
and connections), so a new or replacing process is ready in milliseconds and shares
those pages. ``Start.init`` runs first in each (a batch's warm-up on its kind).

What crosses between processes is plain data: the work (a function, by name) and its
arguments, and back what it returned or raised; never an open database session.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import resource
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from docgen.errors import DocgenError

MEMORY_ENV = "DOCGEN_RENDER_MEMORY_MB"
MEMORY_MB = 2048  # written memory: ~0.1 GB after a preview; a PDF well under 1 GB
SECONDS_ENV = "DOCGEN_RENDER_SECONDS"
SECONDS = 180.0  # the longest render (an issue with a copy for each person) takes ~20 s
START_SECONDS = 120.0  # a fresh process loads its engines (seconds; longer under load)
TOO_BIG = (
    "A file sent with it (a final, an upload) may be damaged or far too large; trying again "
    "with the same file will fail the same way."
)


class RendererLost(DocgenError):
    """The work did not finish: its rendering process died or ran out of time (and was
    replaced), or none was free in time. It may be tried again."""

    def __init__(self, why: str, advice: str = "Try again in a moment."):
        self.why = why
        super().__init__(f"The document could not be made just now: {why}. {advice}")


class RendererDied(RendererLost):
    """The rendering process died (its pipe closed): a crash, a kill, the out-of-memory
    killer. It has been replaced."""


class RendererWasDead(RendererDied):
    """The rendering process had died before the work reached it (between pieces of work,
    its death not yet known): nothing of the work was done, so it may go to the
    replacement at once."""


class RenderTooBig(RendererLost):
    """The work ran out of its memory (a bomb in an upload, say): trying again fails the
    same way."""


@dataclass(frozen=True)
class Start:
    """How the processes of one pool start: the modules their fork server loads before
    forking (``preload``), what each runs first (``init(*init_args)``), and how much it
    yields the processor to others (a nice value, never lowered: only root may raise a
    priority)."""

    preload: tuple[str, ...]
    init: Callable[..., None] | None = None
    init_args: tuple[Any, ...] = ()
    niceness: int = 0

    def context(self) -> ForkServerContext | SpawnContext:
        """The fork server (spawn where there is none, each process loading on its own)."""
        if "forkserver" not in multiprocessing.get_all_start_methods():
            return multiprocessing.get_context("spawn")
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(list(self.preload))
        return context


def seconds() -> float:
    """The time limit of one piece of work (``DOCGEN_RENDER_SECONDS``)."""
    return float(os.environ.get(SECONDS_ENV) or SECONDS)


def _memory_limit() -> int:
    return int(float(os.environ.get(MEMORY_ENV) or MEMORY_MB) * 1024 * 1024)


class Renderer:
    """One rendering process and the pipe to it; used by one thread at a time.

    :meth:`call` does a piece of work and waits for it. :meth:`send` and :meth:`receive`
    do the same in two steps, for a caller that waits on several renderers' ``pipe`` at
    once (``multiprocessing.connection.wait``) and keeps its own time limit."""

    def __init__(self, start: Start) -> None:
        self.start = start
        self.process, self.pipe = self._started()
        self.ready = False  # it said once that it had started

    def call(self, work: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        self.send(work, args)
        if not self._poll(seconds):
            self.replace()
            raise RendererLost(f"it took longer than {seconds:g} seconds, and was stopped")
        return self.receive()

    def send(self, work: Callable[..., Any], args: tuple[Any, ...]) -> None:
        """Hand ``work(*args)`` to the process (once it has started: a render's time does
        not count the process's start)."""
        try:
            if not self.ready:
                if not self.pipe.poll(START_SECONDS):
                    self.replace()
                    raise RendererLost(f"it did not start within {START_SECONDS:g} seconds")
                self.pipe.recv()
                self.ready = True
            self.pipe.send((work, args))
        except (EOFError, OSError):
            raise RendererWasDead(self._died()) from None

    def receive(self) -> Any:
        """What the work sent returned (waiting for it), or what it raised; RendererLost
        when the process died or ran out of memory doing it (it is then replaced)."""
        try:
            outcome, value = self.pipe.recv()
        except (EOFError, OSError):
            raise RendererDied(self._died()) from None
        if outcome == "exhausted":  # the process may be in no state to go on: a fresh one
            self.replace()
            raise RenderTooBig(value, TOO_BIG)
        if outcome == "raised":
            raise value
        return value

    def _poll(self, seconds: float) -> bool:
        try:
            return self.pipe.poll(seconds)
        except (EOFError, OSError):
            return True  # closed: receive() says how it died

    def _died(self) -> str:
        self.process.join(timeout=5)  # its pipe closed as it died: reap it for the code
        code = self.process.exitcode
        self.replace()
        if code is not None and code < 0:
            return (
                f"the process making it was stopped by the system (signal {-code}, as when "
                "memory runs out)"
            )
        return "the process making it stopped"

    def alive(self) -> bool:
        return self.process.is_alive()

    def replace(self) -> None:
        self.end(kill=True)
        self.process, self.pipe = self._started()
        self.ready = False

    def end(self, kill: bool = False) -> None:
        if not kill:
            try:
                self.pipe.send(None)  # finish and leave
            except OSError:
                kill = True
        if kill:
            self.process.kill()
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.pipe.close()

    def _started(self) -> tuple[BaseProcess, Connection]:
        context = self.start.context()
        ours, theirs = context.Pipe()
        process = context.Process(
            target=_serve, args=(theirs, _memory_limit(), self.start), daemon=True
        )
        process.start()
        theirs.close()
        return process, ours


class Pool:
    """Rendering processes lent to one thread at a time (the desk's requests)."""

    def __init__(self, size: int, start: Start) -> None:
        self.all = [Renderer(start) for _ in range(size)]
        self.free: queue.Queue[Renderer] = queue.Queue()
        for renderer in self.all:
            self.free.put(renderer)

    def run(self, work: Callable[..., Any], args: tuple[Any, ...], seconds: float) -> Any:
        try:
            renderer = self.free.get(timeout=seconds)
        except queue.Empty:
            busy = f"every rendering process was busy for {seconds:g} seconds"
            raise RendererLost(busy) from None
        try:
            if not renderer.alive():  # it died between requests: this one never saw it
                renderer.replace()
            try:
                return renderer.call(work, args, seconds)
            except RendererWasDead:  # dead before it got the work, its death not yet known
                return renderer.call(work, args, seconds)  # to its replacement, once
        finally:
            self.free.put(renderer)

    def lend_all(self) -> list[Renderer]:
        """Every free renderer, taken out of the pool (give each back with :meth:`give`)."""
        lent: list[Renderer] = []
        try:
            while True:
                lent.append(self.free.get_nowait())
        except queue.Empty:
            return lent

    def give(self, renderer: Renderer) -> None:
        self.free.put(renderer)

    def stop(self) -> None:
        for _ in self.all:  # each in turn, once the work it does is done
            self.free.get().end()


def _serve(pipe: Connection, memory: int, start: Start) -> None:
    """A rendering process: its limits, its start, then one piece of work at a time until
    told to leave (None) or its caller is gone."""
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    nice = max(os.getpriority(os.PRIO_PROCESS, 0), start.niceness)
    os.setpriority(os.PRIO_PROCESS, 0, nice)
    if start.init is not None:
        start.init(*start.init_args)
    pipe.send(("started", None))
    while True:
        try:
            job = pipe.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        work, args = job
        try:
            reply: tuple[str, Any] = ("done", work(*args))
        except MemoryError:
            limit = f"{memory >> 20} MB"
            reply = ("exhausted", f"it needed more memory than a render may use ({limit})")
        except Exception as err:
            reply = ("raised", err)
        try:
            pipe.send(reply)
        except Exception as err:  # an exception that does not pickle: its type, at least
            pipe.send(("raised", RuntimeError(f"{type(err).__name__} in a rendering process")))
        if reply[0] == "exhausted":
            return
