"""Rendering in worker processes: a preview, a Word copy, an issue (number, render, record).

WeasyPrint and python-docx hold the interpreter for seconds; in the server's own process
they would slow every other clerk's page through the GIL, so each server process keeps a
small pool of rendering processes and its threads wait on them. What crosses between
processes is plain data: the case, and back a tagged result (HTML or bytes, the problems,
the register's refusal); never an open database session.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from functools import cache
from typing import Any

RENDERERS = 2  # processes per server process: rendering is bounded by the machine's cores
# A render waits behind the pages and autosaves of the clerks who are typing: on a machine
# with few cores the renderers yield the processor to the server (a nice value, as the
# kernel's scheduler weighs it; a render still gets its share when the server is idle).
RENDER_NICENESS = 10

Result = tuple[str, Any]


@cache
def _pool() -> ProcessPoolExecutor:
    # spawn: a fresh interpreter (a fork would copy the server's threads and connections)
    context = multiprocessing.get_context("spawn")
    return ProcessPoolExecutor(max_workers=RENDERERS, mp_context=context, initializer=_ready)


def run(work: Callable[..., Result], *args: Any) -> Result:
    """``work(*args)`` in a rendering process (the calling thread waits for it)."""
    return _pool().submit(work, *args).result()


def warm() -> None:
    """Start the rendering processes now, so the first preview does not wait for them."""
    for _ in range(RENDERERS):
        _pool().submit(_ready)


def stop() -> None:
    """Let the rendering processes finish what they hold, and end them."""
    if _pool.cache_info().currsize:
        _pool().shutdown(wait=True, cancel_futures=True)
        _pool.cache_clear()


def _ready() -> None:
    import os

    # Set, not added (warm() runs this again); never lowered (only root may raise priority).
    nice = max(os.getpriority(os.PRIO_PROCESS, 0), RENDER_NICENESS)
    os.setpriority(os.PRIO_PROCESS, 0, nice)
    import docgen.api  # noqa: F401  (WeasyPrint, python-docx and the packs, loaded once)


def preview(kind: str, data: dict[str, Any], review: bool) -> Result:
    """("html", the standalone page) or ("problems", what the law says is missing)."""
    from docgen import api
    from docgen.documents.base import Options
    from docgen.errors import CaseInvalid

    try:
        return "html", api.build(kind, data, Options(review=review)).standalone()
    except CaseInvalid as err:
        return "problems", err.problems


def word(kind: str, data: dict[str, Any], review: bool) -> Result:
    """("docx", the bytes) or ("problems", ...)."""
    from docgen import api
    from docgen.documents.base import Options
    from docgen.errors import CaseInvalid

    try:
        return "docx", api.to_bytes(api.build(kind, data, Options(review=review)), "docx")
    except CaseInvalid as err:
        return "problems", err.problems


@cache
def _register(url: str | None) -> Any:
    from docgen.register import Register

    opened = Register.open(url)
    opened.engine.hide_parameters = True  # no case data in a logged error
    return opened


def issue(
    url: str | None,
    kind: str,
    data: dict[str, Any],
    respondent: Any,
    by: str,
    supersedes: str | None = None,
    final: bytes | None = None,
    copies: bool = False,
    language: str | None = None,
) -> Result:
    """Issue through the register (superseding ``supersedes``, when it corrects an issued
    document; with counsel's ``final`` DOCX, for an instrument; with ``copies``, a copy
    for each person in copies_to, docgen.register.copies): ("issued", number),
    ("ambiguous", candidates), ("problems", problems) or ("refused", the register's
    message)."""
    from docgen.errors import CaseInvalid, DocgenError
    from docgen.register import AmbiguousRespondent

    try:
        issued = _register(url).issue(
            kind,
            data,
            respondent=respondent,
            by=by,
            supersedes=supersedes,
            final=final,
            copies=copies,
            language=language,
        )
    except AmbiguousRespondent as err:
        return "ambiguous", err.candidates
    except CaseInvalid as err:
        return "problems", err.problems
    except DocgenError as err:
        return "refused", str(err)
    return "issued", issued.number


def printed_copy(kind: str, name: str, case: dict[str, Any]) -> Result:
    """("pdf", the bytes) of an issued case in a layout of its kind, as the bundle
    ``name``, or its part ``part-N`` (desk.actions.copies), or ("refused", why)."""
    from docgen import api
    from docgen.desk.actions import PART, split_parts
    from docgen.documents import BUNDLES
    from docgen.documents.base import Options
    from docgen.errors import DocgenError

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


def case_file(kind: str, case: dict[str, Any], fmt: str) -> Result:
    """(fmt, the bytes) of ``case`` rendered as ``kind`` (a document made from the
    register, not recorded in it: the day's mailing list), or ("refused", why)."""
    from docgen import api
    from docgen.errors import DocgenError

    try:
        _, files = api.render_bytes(kind, case, (fmt,))
    except DocgenError as err:
        return "refused", str(err)
    return fmt, files[fmt]
