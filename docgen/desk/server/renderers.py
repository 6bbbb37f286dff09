"""Rendering in worker processes: a preview, a Word copy, an issue (number, render, record).

WeasyPrint and python-docx hold the interpreter for seconds; in the server's own process
they would slow every other clerk's page through the GIL, so each server process keeps a
small pool of rendering processes and its threads wait on them. What crosses between
processes is plain data: the case, and back a tagged result (HTML or bytes, the problems,
the register's refusal); never an open database session.

Each rendering process serves one request at a time, under a memory limit (RLIMIT_DATA,
``DOCGEN_RENDER_MEMORY_MB``: the memory it writes; not RLIMIT_AS, the address space, which
the .NET redline engine and LibreOffice it starts reserve many times over and would fail
under) and a time limit (``DOCGEN_RENDER_SECONDS``). One
that dies (the kernel's out-of-memory killer, a SIGKILL, a crash in a C library) or runs
past its time fails only the request it was serving (``RendererLost``: the clerk is told
to try again) and is replaced by a fresh process; the others never notice. A pool of
processes that share a fate (``ProcessPoolExecutor``, which breaks for good when one of
its workers dies) would fail every request after it until the desk was restarted.
"""

from __future__ import annotations

import io
import logging
import multiprocessing
import os
import queue
import resource
import threading
from collections.abc import Callable
from datetime import date
from functools import cache
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.errors import CaseInvalid, DocgenError
from docgen.render import PRELOAD

if TYPE_CHECKING:
    from docgen.register import Issue

RENDERERS = 2  # processes per server process: rendering is bounded by the machine's cores
# A render waits behind the pages and autosaves of the clerks who are typing: on a machine
# with few cores the renderers yield the processor to the server (a nice value, as the
# kernel's scheduler weighs it; a render still gets its share when the server is idle).
RENDER_NICENESS = 10
MEMORY_ENV = "DOCGEN_RENDER_MEMORY_MB"
MEMORY_MB = 2048  # written memory: ~0.1 GB after a preview; a PDF well under 1 GB
SECONDS_ENV = "DOCGEN_RENDER_SECONDS"
SECONDS = 180.0  # the longest render (an issue with a copy for each person) takes ~20 s
START_SECONDS = 120.0  # a fresh process loads its engines (seconds; longer under load)
HEALTH_SECONDS = 10.0  # a free renderer answers a ping within this, or is replaced

Result = tuple[str, Any]
KEY_REFUSED = (
    "the municipality's signing key could not be opened (a wrong passphrase, or a damaged "
    "key file), so nothing was issued; tell the desk's administrator, whose server log "
    "names the file"
)
TOO_BIG = (
    "A file sent with it (a final, an upload) may be damaged or far too large; trying again "
    "with the same file will fail the same way."
)

# Each rendering process is forked from a fork server: a clean process the server starts
# once, which has loaded the engines and warmed them up on every kind (docgen.preload; a
# fork of the server itself would copy its threads and connections). A new or replacing
# renderer is then ready in milliseconds and renders its first document warm, not after
# the seconds that loading and warming up take, and shares their pages.
_context = multiprocessing.get_context("forkserver")
_context.set_forkserver_preload(PRELOAD)


class RendererLost(DocgenError):
    """The request's render did not finish: its rendering process died or ran out of
    time (and was replaced), or none was free in time. It may be tried again."""

    def __init__(self, why: str, advice: str = "Try again in a moment."):
        self.why = why
        super().__init__(f"The document could not be made just now: {why}. {advice}")


class RendererDied(RendererLost):
    """The rendering process died (its pipe closed): a crash, a kill, the out-of-memory
    killer. It has been replaced."""


class RendererWasDead(RendererDied):
    """The rendering process had died before the request reached it (between requests,
    its death not yet known to the server): nothing of the request was done, so the
    request may go to its replacement at once."""


class RenderTooBig(RendererLost):
    """The render ran out of its memory (a bomb in an upload, say): trying again fails
    the same way."""


class Renderer:
    """One rendering process and the pipe to it; used by one thread at a time."""

    def __init__(self) -> None:
        self.process, self.pipe = _start()
        self.started = False  # its engines loaded: it said so once

    def call(self, work: Callable[..., Result], args: tuple[Any, ...], seconds: float) -> Result:
        sent = False
        try:
            if not self.started:  # a render's time does not count the process's start
                if not self.pipe.poll(START_SECONDS):
                    self.replace()
                    raise RendererLost(f"it did not start within {START_SECONDS:g} seconds")
                self.pipe.recv()
                self.started = True
            self.pipe.send((work, args))
            sent = True
            if not self.pipe.poll(seconds):
                self.replace()
                raise RendererLost(f"it took longer than {seconds:g} seconds, and was stopped")
            outcome, value = self.pipe.recv()
        except (EOFError, OSError):
            self.process.join(timeout=5)  # its pipe closed as it died: reap it for the code
            code = self.process.exitcode
            self.replace()
            raise (RendererDied if sent else RendererWasDead)(_death(code)) from None
        if outcome == "exhausted":  # the process may be in no state to go on: a fresh one
            self.replace()
            raise RenderTooBig(value, TOO_BIG)
        if outcome == "raised":
            raise value
        result: Result = value  # what ``work`` returned, sent back through the pipe
        return result

    def alive(self) -> bool:
        return self.process.is_alive()

    def replace(self) -> None:
        self.end(kill=True)
        self.process, self.pipe = _start()
        self.started = False

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


def _death(code: int | None) -> str:
    if code is not None and code < 0:
        return (
            f"the process making it was stopped by the system (signal {-code}, as when "
            "memory runs out)"
        )
    return "the process making it stopped"


def _start() -> tuple[BaseProcess, Connection]:
    ours, theirs = _context.Pipe()
    process = _context.Process(target=_serve, args=(theirs, _memory_limit()), daemon=True)
    process.start()
    theirs.close()
    return process, ours


def _memory_limit() -> int:
    return int(float(os.environ.get(MEMORY_ENV) or MEMORY_MB) * 1024 * 1024)


def _seconds() -> float:
    return float(os.environ.get(SECONDS_ENV) or SECONDS)


class Pool:
    """The rendering processes of one server process, lent to one request at a time."""

    def __init__(self, size: int) -> None:
        self.all = [Renderer() for _ in range(size)]
        self.free: queue.Queue[Renderer] = queue.Queue()
        for renderer in self.all:
            self.free.put(renderer)

    def run(self, work: Callable[..., Result], args: tuple[Any, ...], seconds: float) -> Result:
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

    def healthy(self) -> bool:
        """Every free process answers a ping (a dead one is replaced first); a busy one
        is alive (its request replaces it if it dies)."""
        lent: list[Renderer] = []
        try:
            while True:
                lent.append(self.free.get_nowait())
        except queue.Empty:
            pass
        try:
            busy_alive = all(r.alive() for r in self.all if r not in lent)
            for renderer in lent:
                if not renderer.alive():
                    renderer.replace()
                if not _answers(renderer):
                    return False
            return busy_alive
        finally:
            for renderer in lent:
                self.free.put(renderer)

    def stop(self) -> None:
        for _ in self.all:  # each in turn, once the request it serves is done
            self.free.get().end()


def _answers(renderer: Renderer) -> bool:
    """The renderer answers a ping within HEALTH_SECONDS (one that does not is replaced,
    and the check fails). One that died just now can still look alive (its death reaches
    the server through the fork server, which reaps it): its ping finds the pipe closed,
    it is replaced, and the replacement is asked."""
    for _ in range(2):
        try:
            return renderer.call(_ping, (), HEALTH_SECONDS) == ("pong", None)
        except RendererDied:
            continue
        except RendererLost:
            return False
    return False


_lock = threading.Lock()
_pools: list[Pool] = []


def _pool() -> Pool:
    with _lock:
        if not _pools:
            _pools.append(Pool(RENDERERS))
        return _pools[0]


def run(work: Callable[..., Result], *args: Any) -> Result:
    """``work(*args)`` in a rendering process (the calling thread waits for it); raises
    RendererLost when the render did not finish."""
    return _pool().run(work, args, _seconds())


def run_within(seconds: float, work: Callable[..., Result], *args: Any) -> Result:
    """:func:`run` with a time limit of its own (the public check's, shorter)."""
    return _pool().run(work, args, min(seconds, _seconds()))


def warm() -> None:
    """Start the rendering processes now, so the first preview does not wait for them."""
    _pool()


def healthy() -> bool:
    """The desk can render (docgen.desk.health)."""
    return _pool().healthy()


def stop() -> None:
    """Let the rendering processes finish what they hold, and end them."""
    with _lock:
        pools = _pools[:]
        _pools.clear()
    for pool in pools:
        pool.stop()


def _serve(pipe: Connection, memory: int) -> None:
    """A rendering process: its limits, the engines loaded once, then one job at a time
    until told to leave (None) or the server is gone."""
    resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
    # never lowered (only root may raise priority)
    nice = max(os.getpriority(os.PRIO_PROCESS, 0), RENDER_NICENESS)
    os.setpriority(os.PRIO_PROCESS, 0, nice)
    # loaded by the fork server already (see _context); on its own, loaded here once
    import docgen.api  # noqa: F401

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


def _ping() -> Result:
    return "pong", None


def preview(kind: str, data: dict[str, Any], review: bool, case_dir: Any = None) -> Result:
    """("html", the standalone page) or ("problems", what the law says is missing);
    ``case_dir``: the draft's folder, where the files it names are read."""
    # api and documents.kind load pydantic, yaml, annotated_types (+180 ms): loaded on first use
    from docgen import api
    from docgen.documents.kind import Options

    try:
        options = Options(review=review, case_dir=case_dir)
        return "html", api.build(kind, data, options).standalone()
    except CaseInvalid as err:
        return "problems", err.problems


def word(kind: str, data: dict[str, Any], review: bool, case_dir: Any = None) -> Result:
    """("docx", the bytes) or ("problems", ...); ``case_dir`` as for :func:`preview`."""
    # api and documents.kind load pydantic, yaml, annotated_types (+180 ms): loaded on first use
    from docgen import api
    from docgen.documents.kind import Options

    try:
        options = Options(review=review, case_dir=case_dir)
        return "docx", api.to_bytes(api.build(kind, data, options), "docx")
    except CaseInvalid as err:
        return "problems", err.problems


def exhibit(data: bytes, name: str) -> Result:
    """("exhibit", its type) when ``data`` can be attached as a map exhibit (a PDF bounded
    before its first page is drawn: docgen.documents.exhibits), else ("refused", why): the
    file sent is read here, in a rendering process, never in the server's."""
    # documents.exhibits loads pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents.exhibits import ExhibitError, exhibit_of, file_kind

    try:
        exhibit_of(data, name)
    except ExhibitError as err:
        return "refused", str(err)
    return "exhibit", file_kind(data[:8])


def photo(data: bytes, name: str, keep_location: bool) -> Result:
    """("photo", the Upload kept: docgen.documents.photos.uploaded) or ("refused", why):
    the photo sent is decoded here, under a render's memory limit, never in the server's
    process (a small file can declare a picture of gigabytes; its header is read first)."""
    # documents.photos loads pydantic, PIL (+20 ms): loaded on first use
    from docgen.documents.photos import PhotoError, uploaded

    try:
        return "photo", uploaded(data, name, keep_location)
    except PhotoError as err:
        return "refused", str(err)


@cache
def register_of(url: str | None) -> Any:
    """The register at ``url``, opened once per rendering process."""
    # register.store loads sqlalchemy, pydantic, cryptography (+580 ms): loaded on first use
    from docgen.register import Register

    opened = Register.open(url)
    opened.engine.hide_parameters = True  # no case data in a logged error
    return opened


def issue(
    url: str | None,
    kind: str,
    data: dict[str, Any],
    asked: Issue,
    by: str,
    case_dir: Path | None = None,
) -> Result:
    """Issue through the register, as ``asked`` (the respondent chosen, the document it
    corrects, counsel's final, copies, the courtesy rendition: Register.issue):
    ("issued", number), ("ambiguous", candidates), ("problems", problems) or ("refused",
    the register's message)."""
    # register.people.respondents and signing.keys load sqlalchemy, pydantic (+490 ms):
    # loaded on first use
    from docgen.register import AmbiguousRespondent
    from docgen.signing.keys import SigningKeyError

    try:
        issued = register_of(url).issue(kind, data, asked, by=by, case_dir=case_dir)
    except AmbiguousRespondent as err:
        return "ambiguous", err.candidates
    except CaseInvalid as err:
        return "problems", err.problems
    except SigningKeyError as err:  # its message names the key's file: the log only
        logging.getLogger("docgen.desk").error("issue refused: %s", err)
        return "refused", KEY_REFUSED
    except DocgenError as err:
        return "refused", str(err)
    return "issued", issued.number


def make(url: str | None, kind: str, number: str, by: str, on: date | None = None) -> Result:
    """Issue the document of ``kind`` the register makes from issued document ``number``
    (docgen.register.matter.inspections.make), dated ``on`` (None: today in the municipality):
    ("issued", number), ("asked", the problems of what was typed: its date) or ("refused",
    why; a case's problems each naming its field by the form of the document it is about)."""
    # register.matter.inspections loads sqlalchemy, pydantic, yaml (+610 ms): loaded on first use
    from docgen.cases import labels
    from docgen.documents import get_kind
    from docgen.register.matter.inspections import make
    from docgen.register.storage.db import Refused

    try:
        return "issued", make(register_of(url), kind, number, on, by=by).number
    except Refused as err:  # the page asks again for the field it names
        return "asked", err.problems
    except CaseInvalid as err:
        model = get_kind(err.kind).model if err.kind else None
        said = [labels.in_words(p, model) if model else p.message for p in err.problems]
        return "refused", "\n".join(said)
    except DocgenError as err:
        return "refused", str(err).removeprefix("error: ")


def printed_copy(kind: str, name: str, case: dict[str, Any]) -> Result:
    """("pdf", the bytes) of an issued case in a layout of its kind, as the bundle
    ``name``, or its part ``part-N`` (desk.documents.actions.copies), or ("refused", why)."""
    # api and others load sqlalchemy, pydantic, yaml (+470 ms): loaded on first use
    from docgen import api
    from docgen.desk.base.offers import PART, split_parts
    from docgen.documents import BUNDLES
    from docgen.documents.kind import Options

    try:
        if name.startswith(PART):
            _, part = split_parts(kind, case)[int(name.removeprefix(PART)) - 1]
            done = api.render_case(kind, part)
        elif name in BUNDLES:
            done = api.render_case(name, case)
        else:
            done = api.render_case(kind, case, Options(layout=name))
        return "pdf", api.to_bytes(done, "pdf")
    except DocgenError as err:
        return "refused", str(err)


MAX_PAGES = 500  # an uploaded PDF's, before its signature is checked: a packet has ~40
MAX_OBJECTS = 50_000  # and its objects (a 40-page packet has a few thousand)


def signature(blob: bytes, jurisdiction: str) -> Result:
    """("signature", the report) of an uploaded PDF's signature (the public check), or
    ("refused", why) when it has more pages or objects than any issued document."""
    # pyhanko_certvalidator, cryptography, pyhanko take 120 ms to import: loaded on first use
    from pyhanko.pdf_utils.misc import PdfReadError
    from pyhanko.pdf_utils.reader import PdfFileReader

    # register.matter.checks loads sqlalchemy, pydantic, cryptography (+510 ms): loaded on first use
    from docgen.register.matter.checks import signature_of

    try:
        reader = PdfFileReader(io.BytesIO(blob), strict=False)
        xrefs = reader.xrefs  # the objects it lists, or its trailer claims, whichever more
        listed = sum(len(xrefs.explicit_refs_in_revision(n)) for n in range(xrefs.total_revisions))
        objects = max(int(reader.trailer["/Size"]), listed)
        pages = int(reader.root["/Pages"].get("/Count", 0))
    except (PdfReadError, ValueError, KeyError, TypeError, AttributeError):
        return "signature", signature_of(blob, jurisdiction)  # says it is not readable
    if objects > MAX_OBJECTS or pages > MAX_PAGES:
        return "refused", (
            f"the file has {pages} pages and {objects} objects; an issued document has at "
            f"most {MAX_PAGES} pages and {MAX_OBJECTS} objects"
        )
    return "signature", signature_of(blob, jurisdiction)


def case_file(kind: str, case: dict[str, Any], fmt: str) -> Result:
    """(fmt, the bytes) of ``case`` rendered as ``kind`` (a document made from the
    register, not recorded in it: the day's mailing list), or ("refused", why)."""
    # api loads pydantic, yaml, annotated_types (+180 ms): loaded on first use
    from docgen import api

    try:
        _, files = api.render_bytes(kind, case, (fmt,))
    except DocgenError as err:
        return "refused", str(err)
    return fmt, files[fmt]
