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

import logging
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from docgen.render import pdf_lang
from docgen.render.environment import assets_dir, templates_dir
from docgen.render.glyphs import warn_missing_glyphs
from docgen.render.html import Attachment, HtmlDocument
from docgen.render.pdf_tags import add_table_scopes
from docgen.render.variants import DEFAULT_VARIANT

log = logging.getLogger("docgen.pdf")


@cache
def _engine() -> Any:
    # fontTools, weasyprint, PIL take 240 ms to import: loaded on first use
    import weasyprint
    from weasyprint.text import ffi
    from weasyprint.text.fonts import FontConfiguration

    if getattr(ffi, "harfbuzz_subset", None) is None:
        log.warning(
            "libharfbuzz-subset0 is not installed: WeasyPrint falls back to fontTools, "
            "PDFs render about 4.5x slower and differ from run to run. Install it with "
            "`apt-get install libharfbuzz-subset0` (the README's set-up does)."
        )
    pdf_lang.install()
    return weasyprint, FontConfiguration()


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
