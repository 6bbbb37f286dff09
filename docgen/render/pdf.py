"""Stage 2a: HTML to PDF through WeasyPrint.

WeasyPrint is imported here only, on the first PDF. Per process it keeps one
FontConfiguration and the parsed stylesheets. Its url_fetcher serves only docgen's own
assets: anything else a template or case value points at (file:, http:, data:) is
refused and logged, and the render goes on without it. Before layout, a character no
font of the document can draw is named in a warning (docgen.render.glyphs). PDFs are
tagged (PDF/UA-1) by default, their tables' header cells scoped (docgen.render.pdf_tags);
their dates come from the document, never the clock.
"""

from __future__ import annotations

import ctypes.util
import importlib
import logging
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlsplit

from docgen.render import pdf_lang
from docgen.render.environment import assets_dir, templates_dir
from docgen.render.glyphs import warn_missing_glyphs
from docgen.render.html import Attachment, HtmlDocument
from docgen.render.pdf_tags import add_table_scopes
from docgen.render.variants import DEFAULT_VARIANT

log = logging.getLogger("docgen.pdf")


def import_weasyprint() -> ModuleType:
    """WeasyPrint (loaded on a process's first PDF: with fontTools and PIL it takes most of
    a second to import), its libraries opened by their Linux names.

    Its ``text.ffi`` tries each library (GObject, Pango, HarfBuzz, fontconfig) under the
    names other systems give it before the Linux soname, and cffi asks
    ``ctypes.util.find_library`` for each name it cannot open: on Linux that runs ldconfig,
    gcc and ld, about 200 programs and a quarter of a second of processor in each process
    that makes a PDF (each ``docgen render``, each batch worker, each desk's renderers).
    While WeasyPrint loads, a name that does not open is not searched for, and the soname
    each list carries is opened directly. A system that names a library otherwise has the
    import tried again as WeasyPrint does it, searching."""
    if "weasyprint" in sys.modules:
        return sys.modules["weasyprint"]
    searching = ctypes.util.find_library
    ctypes.util.find_library = _not_searched
    try:
        return importlib.import_module("weasyprint")
    except OSError:
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
        ctypes.util.find_library = searching
        return importlib.import_module("weasyprint")
    finally:
        ctypes.util.find_library = searching


def _not_searched(name: str) -> None:
    return None


@cache
def _engine() -> Any:
    weasyprint = import_weasyprint()
    ffi = weasyprint.text.ffi
    if getattr(ffi, "harfbuzz_subset", None) is None:
        log.warning(
            "libharfbuzz-subset0 is not installed: WeasyPrint falls back to fontTools, "
            "PDFs render about 4.5x slower and differ from run to run. Install it with "
            "`apt-get install libharfbuzz-subset0` (the README's set-up does)."
        )
    pdf_lang.install()
    return weasyprint, weasyprint.text.fonts.FontConfiguration()


def asset_path(url: str, root: Path) -> Path | None:
    """The file under ``root`` that ``url`` names, or None for anything docgen must not fetch.

    Only ``file:`` URLs without a host; the path is resolved first (``..`` and symlinks
    followed), so a link or a relative path that leads out of ``root`` is refused.
    """
    parts = urlsplit(url)
    if parts.scheme != "file" or parts.netloc:
        return None
    path = Path(unquote(parts.path)).resolve()
    return path if path.is_relative_to(root.resolve()) and path.is_file() else None


@cache
def _fetcher_class() -> type:
    weasyprint, _ = _engine()
    allowed = assets_dir().resolve()

    base: Any = weasyprint.URLFetcher  # loaded on first use: no type to check against

    class AssetFetcher(base):  # type: ignore[misc]  # subclasses WeasyPrint's, loaded lazily
        """Serves files under docgen's template assets, and the document's own
        attachments, and refuses everything else."""

        def __init__(self, attachments: tuple[Attachment, ...] = ()) -> None:
            super().__init__()
            self._attachments = {a.url: a for a in attachments}

        def fetch(self, url: str, headers: Any = None) -> Any:
            attached = self._attachments.get(url)
            if attached is not None:
                return weasyprint.urls.URLFetcherResponse(
                    url, attached.data, headers={"Content-Type": attached.mime}
                )
            path = asset_path(url, allowed)
            if path is not None:
                return weasyprint.urls.URLFetcherResponse(url, path.read_bytes())
            log.warning("refused to fetch %s: docgen serves only its own assets", url[:200])
            raise ValueError(f"docgen does not fetch {url[:200]}")

    return AssetFetcher


@cache
def _counters() -> Any:
    """One CounterStyle per process: @counter-style rules of any stylesheet reach layout."""
    # fontTools, weasyprint, PIL take 240 ms to import: loaded on first use
    from weasyprint.css.counters import CounterStyle

    return CounterStyle()


@cache
def _stylesheet(name: str) -> Any:
    weasyprint, fonts = _engine()
    return weasyprint.CSS(
        filename=str(templates_dir() / name),
        font_config=fonts,
        counter_style=_counters(),
        url_fetcher=_fetcher_class()(),
    )


def warm_up() -> None:
    """Import the engine and parse the base stylesheet (batch workers call this once)."""
    _stylesheet("base/print.css")


def layout(doc: HtmlDocument) -> Any:
    """The laid-out WeasyPrint document (pages), for writing or combining."""
    weasyprint, fonts = _engine()
    warn_missing_glyphs(doc.html, doc.stylesheets, doc.number)
    html = weasyprint.HTML(
        string=doc.html,
        base_url=assets_dir().as_uri() + "/",
        url_fetcher=_fetcher_class()(doc.attachments),
    )
    return html.render(
        stylesheets=[_stylesheet(name) for name in doc.stylesheets],
        font_config=fonts,
        counter_style=_counters(),
    )


def write_pdf(rendered: Any, variant: str = DEFAULT_VARIANT) -> bytes:
    """The PDF of a laid-out document, its tables' header cells given the scope WeasyPrint
    leaves out (docgen.render.pdf_tags)."""
    options: dict[str, Any] = {"pdf_variant": variant, "pdf_tags": True}
    return add_table_scopes(rendered.write_pdf(**options))
