"""An easement's map exhibit on the desk (LAW.md § 8: the easement area can be found from the
recorded instrument alone; issue 29 item 5: exhibits are the case's files, not the server's,
and the desk takes them as uploads only). Over HTTP against a real desk: a PDF map sent to
the draft is previewed and issued with it (read back from the issued PDF and DOCX),
replaced and removed; a path typed in the field reads nothing on the server's disk; a PDF
bomb, a file that is neither a PDF nor an image, and a file sent without a name are refused
beside the field with its label, what is wrong and what to do, never a 500."""

from __future__ import annotations

import html
import io
import re
import time
import zipfile

import pytest
from desk_server import start_draft, typed_sample

from docgen.desk.base.forms import input_id
from tests.helpers import hostile, readback
from tests.helpers.procs import peak_memory_kb, renderer_pids

MAP = hostile.MAP
FIELD = "easement.exhibit"
LABEL = "Exhibit"  # the field's label on the form (docgen.cases.labels)


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


def drafted(client) -> tuple[str, str]:
    """An easement typed as its sample, its area in words only: the map must carry it."""
    where, token = start_draft(client, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    del typed["easement.metes_and_bounds"]
    assert client.post(where, data={**typed, "csrf_token": token}).status_code == 303
    return where, token


def send(client, where: str, token: str, name: str, data: bytes, action: str = "attach"):
    return client.post(
        f"{where}/upload",
        data={"csrf_token": token, "field": FIELD, "_action": action},
        files={"file": (name, data, "application/octet-stream")},
    )


def beside(page: str) -> str:
    """What the page says beside the exhibit field (its error line), in plain words."""
    found = re.search(rf'id="{input_id(FIELD)}-error">(.*?)</span></span>', page, re.DOTALL)
    assert found is not None, page[-3000:]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))).split())


def kept_files(desk, where: str) -> list[str]:
    draft = where.rsplit("/", 1)[1]
    place = desk.home / "desk-photos" / f"draft-{draft}"
    return sorted(p.name for p in place.iterdir()) if place.is_dir() else []


def test_a_pdf_map_sent_to_the_draft_is_previewed_and_issued_with_it(desk):
    attorney = desk.signed_in("ada")
    where, token = drafted(attorney)
    sent = send(attorney, where, token, "Survey Map (final).pdf", hostile.map_pdf())
    assert sent.status_code == 303, sent.text[-2000:]
    (kept,) = kept_files(desk, where)
    assert re.fullmatch(r"easement-exhibit-[0-9a-f]{16}\.pdf", kept)  # the desk's own name
    assert f"Attached: {kept}" in html.unescape(attorney.get(where).text)
    preview = attorney.get(f"{where}/preview").text
    assert "Exhibit 1: Map of the Easement Area" in preview
    assert 'src="data:image/png;base64,' in preview  # the PDF's first page, drawn
    word = attorney.get(f"{where}/word")  # counsel's working copy carries it too
    assert any(
        n.startswith("word/media/") for n in zipfile.ZipFile(io.BytesIO(word.content)).namelist()
    )

    issued = attorney.post(f"{where}/issue", data={"csrf_token": token})
    assert issued.status_code == 303, issued.text[-2000:]
    document = issued.headers["location"]
    pdf = attorney.get(f"{document}/file.pdf").content
    pages = readback.pdf_pages(pdf)
    (exhibit,) = [p for p in pages if "Exhibit 1: Map of the Easement Area" in p]
    from pypdf import PdfReader

    shown = [len(page.images) for page in PdfReader(io.BytesIO(pdf)).pages]
    assert shown[pages.index(exhibit)] == 1  # the map is drawn on the exhibit page
    assert "shown on Exhibit 1, a map attached to this" in " ".join(readback.pdf_text(pdf).split())
    docx = attorney.get(f"{document}/file.docx").content
    media = [n for n in zipfile.ZipFile(io.BytesIO(docx)).namelist() if n.startswith("word/media/")]
    assert len(media) >= 1 and "Exhibit 1: Map of the Easement Area" in readback.docx_text(docx)


def test_the_map_is_replaced_and_removed_on_the_draft(desk):
    attorney = desk.signed_in("ada")
    where, token = drafted(attorney)
    assert send(attorney, where, token, "map.pdf", hostile.map_pdf()).status_code == 303
    assert send(attorney, where, token, "map.png", MAP.read_bytes()).status_code == 303
    (kept,) = kept_files(desk, where)
    assert re.fullmatch(r"easement-exhibit-[0-9a-f]{16}\.png", kept)  # the PDF replaced
    assert f"Attached: {kept}" in attorney.get(where).text
    # the draft's form, saved again, keeps the file it names
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    del typed["easement.metes_and_bounds"]
    typed[FIELD] = kept  # as the page's hidden input sends it back
    attorney.post(where, data={**typed, "csrf_token": token})
    assert "Exhibit 1: Map of the Easement Area" in attorney.get(f"{where}/preview").text
    removed = send(attorney, where, token, "", b"", action="remove")
    assert removed.status_code == 303
    assert kept_files(desk, where) == []
    page = " ".join(html.unescape(attorney.get(where).text).split())
    assert "No file attached." in page and "Attached:" not in page
    assert "nor a map exhibit" in page  # the law's warning: the area cannot be found
    assert "Map of the Easement Area" not in attorney.get(f"{where}/preview").text


def test_a_path_typed_in_the_field_reads_nothing_on_the_server(desk, tmp_path):
    """Whether or not the server holds the file named (the very map, by its absolute path;
    a name climbing out of the draft's folder), it is refused alike and nothing is read."""
    attorney = desk.signed_in("ada")
    where, token = drafted(attorney)
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    del typed["easement.metes_and_bounds"]
    said = []
    for name in (str(MAP), "/no/such/map.png", "../../../" + MAP.name, "easement-exhibit.pdf"):
        typed[FIELD] = name
        attorney.post(where, data={**typed, "csrf_token": token})
        page = attorney.get(where).text
        words = beside(page)
        assert "is not one of the files sent with the case" in words, words
        assert "the desk reads only files uploaded to the draft, never a path typed" in words
        assert LABEL in html.unescape(page)
        preview = attorney.get(f"{where}/preview").text
        assert "data:image/png" not in preview
        said.append(words.replace(repr(name), "NAME"))
    assert len(set(said)) == 1  # the same words: nothing said of what the server holds
    issued = attorney.post(f"{where}/issue", data={"csrf_token": token})
    assert issued.status_code == 200, issued.headers.get("location")
    assert "is not one of the files sent" in html.unescape(issued.text)


def test_a_pdf_bomb_is_refused_quickly_beside_the_field(desk, capsys):
    attorney = desk.signed_in("ada")
    where, token = drafted(attorney)
    renderers = renderer_pids(desk.process.pid)
    before = {pid: peak_memory_kb(pid) for pid in renderers}
    bomb = hostile.pdf_page_bomb()
    start = time.monotonic()
    refused = send(attorney, where, token, "map.pdf", bomb)
    seconds = time.monotonic() - start
    assert refused.status_code == 400, refused.text[-2000:]
    words = beside(refused.text)
    assert words.startswith("'map.pdf' is a PDF whose first page is 69 x 69 in"), words
    assert "send the map's own sheet as a PDF, PNG or JPEG file of at most 20 MB" in words
    after = {pid: peak_memory_kb(pid) for pid in renderers}
    grown = max(after[pid] - before[pid] for pid in renderers) // 1024
    peak = max(after.values()) // 1024
    with capsys.disabled():
        print(
            f"\nPDF bomb ({len(bomb)} bytes) refused over HTTP in {seconds:.2f} s; the "
            f"renderers' resident peak {peak} MB (grown {grown} MB)"
        )
    assert seconds < 10 and grown < 100  # drawn, it took ~10 s and 1.3 GB
    assert kept_files(desk, where) == []
    assert "Attached:" not in attorney.get(where).text
    for name, data, said in (
        ("map.pdf", b"hello, this is not a map\n", "is not a PDF, PNG or JPEG file"),
        ("map.docx", hostile.draft(), "is not a PDF, PNG or JPEG file"),
        ("map.pdf", b"", "is empty"),
        ("map.pdf", hostile.pdf_stream_bomb(), "streams inflate past 128 MB"),
    ):
        refused = send(attorney, where, token, name, data)
        assert refused.status_code == 400, (name, refused.text[-2000:])
        words = beside(refused.text)
        assert words.startswith(repr(name)) and said in words, words
        assert "send" in words  # what to do
        assert LABEL in html.unescape(refused.text)
    nothing = attorney.post(
        f"{where}/upload", data={"csrf_token": token, "field": FIELD, "_action": "attach"}
    )
    assert nothing.status_code == 400 and "choose the file to attach" in beside(nothing.text)
    assert kept_files(desk, where) == []
    # the rendering process that refused them goes on serving
    assert "Map of the Easement Area" not in attorney.get(f"{where}/preview").text
