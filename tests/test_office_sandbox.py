"""LibreOffice opens nothing it should not (issue: the PDF/A of counsel's final). A final
whose picture is linked from a loopback server the test starts, whose field would fetch from
it, and whose other picture is a file on this machine: made into a PDF/A, nothing fetched
anything and the PDF/A holds no picture. The sandbox's environment holds nothing of
docgen's, and the run is limited in memory and time."""

from __future__ import annotations

import io
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from pypdf import PdfReader

from docgen.instruments import office
from docgen.instruments.final import pdf_a
from tests.helpers import hostile

pytestmark = pytest.mark.usefixtures("soffice")  # LibreOffice makes the PDF/A


@pytest.fixture
def loopback():
    """An HTTP server on a free loopback port that serves a PNG and counts every request."""
    asked: list[str] = []
    picture = hostile.png((400, 400))

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):
            asked.append(self.path)
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.end_headers()
            self.wfile.write(picture)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", asked
    server.shutdown()
    server.server_close()


def images(pdf: bytes) -> int:
    return sum(len(page.images) for page in PdfReader(io.BytesIO(pdf)).pages)


def with_field_and_file(final: bytes, url: str, local: str) -> bytes:
    """``final`` with a picture linked from the file ``local`` on this machine and an
    INCLUDEPICTURE field fetching from ``url``."""
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.oxml.ns import qn

    document = docx.Document(io.BytesIO(final))
    hostile.paragraph(document, "Recording.").add_run().add_picture(io.BytesIO(hostile.png()))
    blips = document.element.body.xpath(".//a:blip")
    rel = document.part.relate_to(local, RT.IMAGE, is_external=True)
    del blips[-1].attrib[qn("r:embed")]
    blips[-1].set(qn("r:link"), rel)
    return hostile.field(f'INCLUDEPICTURE "{url}/field.png" \\d', start=hostile.saved(document))


@pytest.mark.parametrize("namespace", [True, False], ids=["no network", "refused proxy only"])
def test_a_final_linking_outside_fetches_nothing_and_embeds_nothing(
    namespace, loopback, tmp_path, monkeypatch
):
    url, asked = loopback
    local = tmp_path / "server-file.png"
    local.write_bytes(hostile.png((300, 300)))
    if not namespace:  # the profile's refused proxy and blocked links stand alone
        monkeypatch.setattr(office, "network_namespace", lambda: ())
    final = with_field_and_file(hostile.linked_picture(f"{url}/map.png"), url, local.as_uri())
    pdf = pdf_a(final)
    assert asked == []  # nothing fetched the linked picture or the field's
    assert images(pdf) == 0  # and nothing from outside is in the PDF/A
    assert "No obstruction." in " ".join(PdfReader(io.BytesIO(pdf)).pages[1].extract_text().split())


def test_even_given_the_links_libreoffice_in_its_sandbox_fetches_nothing(loopback, tmp_path):
    """The sandbox alone, with the links left in (as if the gate had missed them)."""
    url, asked = loopback
    final = hostile.linked_picture(f"{url}/map.png")
    target = 'pdf:writer_pdf_Export:{"SelectPdfVersion":{"type":"long","value":"2"}}'
    pdf = office.convert(final, target)
    assert asked == [] and images(pdf) == 0


def test_libreoffice_is_told_nothing_of_docgen_s(monkeypatch, tmp_path):
    monkeypatch.setenv("DOCGEN_SIGNING_PASSPHRASE", "a secret")
    monkeypatch.setenv("DOCGEN_DATABASE_URL", "postgresql://clerk:pw@db/register")
    monkeypatch.setenv("DATABASE_URL", "postgresql://clerk:pw@db/register")
    told = office.environment(tmp_path)
    assert not [k for k in told if k.startswith("DOCGEN") or "DATABASE" in k]
    assert "a secret" not in repr(told) and "clerk:pw" not in repr(told)
    assert told["HOME"] == str(tmp_path) and told["TMPDIR"] == str(tmp_path)
    wrap = office.confinement()
    assert any(part.startswith("--as=") for part in wrap)  # the memory limit
