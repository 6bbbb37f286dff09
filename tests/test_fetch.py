"""Nothing is fetched: the PDF engine's url_fetcher serves only docgen's own assets.

A file:, http: or data: reference that reaches a template or the case data is refused
and logged, and the document still renders; a listening server on 127.0.0.1 proves that
no request was ever made. Paths that lead out of the assets folder (``..``, symlinks)
are refused too.
"""

from __future__ import annotations

import logging
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest
from conftest import SAMPLE_IDS, SAMPLES

from docgen import api
from docgen.cases.loader import read_case_file
from docgen.documents import KINDS
from docgen.documents.kind import Options
from docgen.render.environment import assets_dir, templates_dir
from docgen.render.pdf import _fetcher_class, asset_path
from tests.helpers.casewalk import leaves, set_in
from tests.helpers.readback import html_text

PNG = (  # a 1x1 PNG
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)


class Recorder(BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        Recorder.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def listening():
    """An HTTP server on 127.0.0.1 that records every request it gets, for the module:
    stopping one waits out its half-second poll, which each test paid when it had its own."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()
    thread.join()


@pytest.fixture
def server(listening):
    """The module's server, its record of requests emptied for the test."""
    Recorder.hits = []
    return listening


def refusals(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if "refused to fetch" in r.getMessage()]


# -- the rule itself -------------------------------------------------------------------


def test_asset_path_serves_only_files_inside_the_root(tmp_path):
    root = tmp_path / "assets"
    (root / "fonts").mkdir(parents=True)
    (root / "fonts" / "a.woff").write_bytes(b"x")
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    (root / "link.txt").symlink_to(secret)
    (root / "dirlink").symlink_to(tmp_path)
    uri = root.as_uri()
    assert asset_path(f"{uri}/fonts/a.woff", root) == root / "fonts" / "a.woff"
    assert asset_path(f"{uri}/fonts/%61.woff", root) == root / "fonts" / "a.woff"
    refused = [
        f"{uri}/../secret.txt",  # ../ out of the folder
        f"{uri}/fonts/../../secret.txt",
        f"{uri}/%2e%2e/secret.txt",  # the same, percent-encoded
        f"{uri}/link.txt",  # a symlink inside pointing outside
        f"{uri}/dirlink/secret.txt",  # a symlinked folder
        f"{uri}/fonts",  # a folder, not a file
        f"{uri}/missing.css",
        f"file://evil.example{root}/fonts/a.woff",  # a host
        secret.as_uri(),
        "file:///etc/passwd",
        "http://127.0.0.1/",
        "https://127.0.0.1/",
        f"data:image/png;base64,{PNG}",
        "ftp://127.0.0.1/x",
        "fonts/a.woff",  # not a URL at all
    ]
    for url in refused:
        assert asset_path(url, root) is None, url


def test_the_engine_fetcher_serves_assets_and_refuses_the_rest(caplog, server):
    fetcher = _fetcher_class()()
    css = (assets_dir() / "print.css").resolve()
    assert fetcher.fetch(css.as_uri()).read() == css.read_bytes()
    escapes = [
        f"{assets_dir().as_uri()}/../../docgen/cli.py",
        f"{assets_dir().as_uri()}/../../pyproject.toml",
        "file:///etc/passwd",
        f"{server}/logo.png",
        f"data:image/png;base64,{PNG}",
    ]
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        for url in escapes:
            with pytest.raises(ValueError, match="docgen does not fetch"):
                fetcher.fetch(url)
    assert len(refusals(caplog)) == len(escapes)
    assert Recorder.hits == []


# -- references reaching a template ------------------------------------------------------


def hostile_layout(tmp_path, server: str) -> str:
    """A custom templates folder whose layout links, imports and embeds everything it can."""
    layout = (templates_dir() / "base" / "layout.html.j2").read_text(encoding="utf-8")
    refs = (
        f'<link rel="stylesheet" href="{server}/linked.css">'
        f"<style>@import url({server}/imported.css); "
        f"body {{ background: url(file:///etc/passwd) }} "
        f'@font-face {{ font-family: X; src: url("{server}/font.woff") }}</style>'
    )
    body = (
        f'<img src="{server}/logo.png" alt="logo">'
        '<img src="file:///etc/passwd" alt="passwd">'
        '<img src="../../../../../../../../etc/passwd" alt="relative">'
        '<img src="../../pyproject.toml" alt="relative2">'
        f'<img src="data:image/png;base64,{PNG}" alt="data">'
        f'<object data="{server}/object.svg"></object><embed src="{server}/embed.svg">'
        f'<p style="background-image: url({server}/inline.png)">Letterhead</p>'
    )
    layout = layout.replace("</head>", refs + "</head>", 1).replace("<main>", "<main>" + body, 1)
    folder = tmp_path / "custom"
    (folder / "base").mkdir(parents=True)
    (folder / "base" / "layout.html.j2").write_text(layout, encoding="utf-8")
    return str(folder)


def test_references_in_a_template_are_refused_logged_and_the_pdf_renders(tmp_path, server, caplog):
    kind, path = SAMPLES[0]
    doc = api.build(kind, path, Options(templates=hostile_layout(tmp_path, server)))
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        pdf = api.to_bytes(doc, "pdf")
        api.to_bytes(doc, "docx")
        api.to_bytes(doc, "html")
    assert pdf.startswith(b"%PDF")
    assert Recorder.hits == [], f"fetched: {Recorder.hits}"
    refused = " ".join(refusals(caplog))
    for what in (
        "/logo.png",
        "/linked.css",
        "/imported.css",
        "/font.woff",
        "/inline.png",
        "file:///etc/passwd",
        "data:image/png",
    ):
        assert what in refused, f"{what} was not refused: {refused}"
    assert "/pyproject.toml" in refused  # the relative path resolved and refused


# -- references in case data -------------------------------------------------------------


@pytest.mark.parametrize("kind,path", SAMPLES, ids=SAMPLE_IDS)
def test_references_in_case_data_are_text(kind, path, server, caplog):
    data = read_case_file(path)
    texts = [p for p, _, k in leaves(KINDS[kind].model, data) if k == "text"]
    refs = [
        f'<img src="{server}/name.png">',
        f"url({server}/css)",
        f'<link rel=stylesheet href="{server}/x.css">',
        f"data:image/png;base64,{PNG[:20]}",
        "file:///etc/passwd",
    ]
    for index, leaf in enumerate(texts):
        data = set_in(data, leaf, f"Name {refs[index % len(refs)]}")
    doc = api.build(kind, data)
    with caplog.at_level(logging.WARNING, logger="docgen.pdf"):
        pdf = api.to_bytes(doc, "pdf") if (kind, path) == SAMPLES[0] else b"%PDF"
        api.to_bytes(doc, "docx")
    assert pdf.startswith(b"%PDF")
    assert Recorder.hits == []
    assert refusals(caplog) == []  # nothing even reached the fetcher: it is text
    assert f'<img src="{server}/name.png">' in html_text(doc.standalone())


@pytest.mark.parametrize("kind,path", SAMPLES, ids=SAMPLE_IDS)
def test_the_standalone_html_links_nothing(kind, path):
    """The .html file a person opens inlines its stylesheet and links nothing outside (a
    clause's cross-reference links to the clause, inside the page)."""
    html = api.to_bytes(api.build(kind, path), "html").decode()
    html = re.sub(r'href="#[\w-]+"', "", html)
    for attr in ("src=", "href=", "@import", "url("):
        assert attr not in html, f"{kind}: {attr} in the standalone HTML"
