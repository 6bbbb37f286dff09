"""Rendering in worker processes: a preview, a Word copy, an issue (number, render, record).

WeasyPrint and python-docx hold the interpreter for seconds; in the server's own process
they would slow every other clerk's page through the GIL, so each server process keeps a
small pool of rendering processes (docgen.render.processes: each under a memory and a
time limit, one that dies or runs too long failing only the request it served and
replaced) and its threads wait on them. What crosses between processes is plain data: the
case, and back a tagged result (HTML or bytes, the problems, the register's refusal);
never an open database session. A render that did not finish raises
:class:`~docgen.render.processes.RendererLost` (the clerk is told to try again).
"""

from __future__ import annotations

import io
import logging
import threading
from collections.abc import Callable
from datetime import date
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docgen.errors import CaseInvalid, DocgenError
from docgen.render import PRELOAD
from docgen.render.processes import (
    Pool,
    Renderer,
    RendererDied,
    RendererLost,
    Start,
    seconds,
)

if TYPE_CHECKING:
    from docgen.register import Issue

RENDERERS = 2  # processes per server process: rendering is bounded by the machine's cores
# A render waits behind the pages and autosaves of the clerks who are typing: on a machine
# with few cores the renderers yield the processor to the server (a nice value, as the
# kernel's scheduler weighs it; a render still gets its share when the server is idle).
RENDER_NICENESS = 10
HEALTH_SECONDS = 10.0  # a free renderer answers a ping within this, or is replaced

Result = tuple[str, Any]
KEY_REFUSED = (
    "the municipality's signing key could not be opened (a wrong passphrase, or a damaged "
    "key file), so nothing was issued; tell the desk's administrator, whose server log "
    "names the file"
)


# Each rendering process is forked from a fork server which has loaded the engines and
# warmed them up on every kind (docgen.preload), so a new or replacing renderer renders its
# first document warm, not after the seconds that loading and warming up take. The fork
# server loads the register too (what an issue runs: SQLAlchemy, the models, the keys):
# once there, shared by every renderer, instead of a third of a second of the processor in
# each renderer at its first issue.
LOADED = (*PRELOAD, "docgen.register.store")


def _loaded() -> None:
    """A renderer's start: what its work calls, loaded (by the fork server already; on
    its own, here once)."""
    import docgen.api  # noqa: F401  (on its own, without the fork server: loaded here)


START = Start(LOADED, init=_loaded, niceness=RENDER_NICENESS)


def _answers(renderer: Renderer) -> bool:
    """The renderer answers a ping within HEALTH_SECONDS (one that does not is replaced,
    and the check fails). One that died just now can still look alive (its death reaches
    the server through the fork server, which reaps it): its ping finds the pipe closed,
    it is replaced, and the replacement is asked."""
    for _ in range(2):
        try:
            answer: Result = renderer.call(_ping, (), HEALTH_SECONDS)
            return answer == ("pong", None)
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
            _pools.append(Pool(RENDERERS, START))
        return _pools[0]


def run(work: Callable[..., Result], *args: Any) -> Result:
    """``work(*args)`` in a rendering process (the calling thread waits for it); raises
    RendererLost when the render did not finish."""
    result: Result = _pool().run(work, args, seconds())
    return result


def run_within(within: float, work: Callable[..., Result], *args: Any) -> Result:
    """:func:`run` with a time limit of its own (the public check's, shorter)."""
    result: Result = _pool().run(work, args, min(within, seconds()))
    return result


def warm() -> None:
    """Start the rendering processes now, so the first preview does not wait for them."""
    _pool()


def healthy() -> bool:
    """The desk can render (docgen.desk.health): every free process answers a ping (a dead
    one is replaced first); a busy one is alive (its request replaces it if it dies)."""
    pool = _pool()
    lent = pool.lend_all()
    try:
        busy_alive = all(r.alive() for r in pool.all if r not in lent)
        for renderer in lent:
            if not renderer.alive():
                renderer.replace()
            if not _answers(renderer):
                return False
        return busy_alive
    finally:
        for renderer in lent:
            pool.give(renderer)


def stop() -> None:
    """Let the rendering processes finish what they hold, and end them."""
    with _lock:
        pools = _pools[:]
        _pools.clear()
    for pool in pools:
        pool.stop()


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
    # loaded by the fork server already (LOADED): here for a renderer on its own
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
    # loaded by the fork server already (LOADED): here for a renderer on its own
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


def make(
    url: str | None,
    kind: str,
    number: str,
    by: str,
    on: date | None = None,
    jurisdiction: str | None = None,
) -> Result:
    """Issue the document of ``kind`` the register makes from issued document ``number`` (of
    ``jurisdiction``, where two municipalities share it)
    (docgen.register.matter.inspections.make), dated ``on`` (None: today in the municipality):
    ("issued", number), ("asked", the problems of what was typed: its date) or ("refused",
    why; a case's problems each naming its field by the form of the document it is about)."""
    # loaded by the fork server already (LOADED): here for a renderer on its own
    from docgen.cases import labels
    from docgen.documents import get_kind
    from docgen.register.matter.inspections import make
    from docgen.register.storage.db import Refused

    try:
        return "issued", make(
            register_of(url), kind, number, on, by=by, jurisdiction=jurisdiction
        ).number
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

    # loaded by the fork server already (LOADED): here for a renderer on its own
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
