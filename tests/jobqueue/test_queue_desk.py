"""The desk on the queue: Issue answers at once with the rendering page; the page asks
(htmx) until a worker has issued the draft, then opens its document. A second press is
the same job."""

from __future__ import annotations

import html
import io
import random
import re
from pathlib import Path

from desk_server import start_desk, start_draft, stop_desk, typed_sample
from PIL import Image

from docgen.desk.base.forms import input_id
from tests.helpers import hostile, readback
from tests.helpers.inspection_cases import CHOSEN, TODAY, TYPED, images_of, phone_photo
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.respondent_choice import (
    RECORD,
    answers,
    convicted_record,
    drafted,
    notice,
    stated,
)
from tests.helpers.respondent_choice import TYPED as NEAR
from tests.jobqueue.conftest import sql, stored_formats, wait_for


def test_the_desk_issues_through_the_queue(queue_url, machines, tmp_path, monkeypatch):
    monkeypatch.setenv("DOCGEN_DESK_QUEUE", "docgen")
    (tmp_path / "desk").mkdir()
    desk = start_desk(tmp_path / "desk", queue_url)
    try:
        clerk = desk.signed_in("ann")
        where, token = start_draft(clerk, "notice-of-violation")
        _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
        clerk.post(where, data={**typed, "csrf_token": token})
        for _ in range(2):  # pressed twice: one job
            pressed = clerk.post(f"{where}/issue", data={"csrf_token": token})
            assert pressed.status_code == 303
            assert pressed.headers["location"] == f"{where}/issuing"
        waiting = clerk.get(f"{where}/issuing")
        assert waiting.status_code == 200
        assert "Rendering" in waiting.text and 'hx-trigger="every 1s"' in waiting.text
        assert clerk.get(f"{where}/issuing", headers={"HX-Request": "true"}).status_code == 204
        assert sql(queue_url, "SELECT count(*) FROM procrastinate_jobs") == [(1,)]
        machines(queue_url, "renderer")
        wait_for(
            lambda: (
                clerk.get(f"{where}/issuing", headers={"HX-Request": "true"}).headers.get(
                    "HX-Redirect"
                )
                == f"{where}/issuing"
            ),
            what="the document issued",
        )
        answer = clerk.get(f"{where}/issuing")
        assert answer.status_code == 303
        document = answer.headers["location"]
        assert document.startswith("/documents/NOV-")
        pdf = clerk.get(f"{document}/file.pdf")
        assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
        assert clerk.get(f"{where}/issuing").headers["location"] == document  # issued once
        numbers = sql(queue_url, "SELECT number FROM public.documents")
        assert numbers == [(document.rsplit("/", 1)[1],)]
    finally:
        stop_desk(desk)


def issued_through_the_queue(client, where: str, data: dict, files: dict | None = None) -> str:
    """Issue the draft at ``where`` (the queue's worker running): its document's number."""
    pressed = client.post(f"{where}/issue", data=data, files=files)
    assert pressed.status_code == 303 and pressed.headers["location"] == f"{where}/issuing"
    wait_for(
        lambda: client.get(f"{where}/issuing", headers={"HX-Request": "true"}).headers.get(
            "HX-Redirect"
        ),
        what="the document issued",
    )
    answer = client.get(f"{where}/issuing")
    assert answer.status_code == 303, answer.text
    assert answer.headers["location"].startswith("/documents/")
    again = client.get(f"{where}/issuing")  # the draft records its issue: closed
    assert again.headers["location"] == answer.headers["location"]
    return answer.headers["location"].rsplit("/", 1)[1]


def test_the_queue_issues_what_the_desk_issues(queue_url, machines, tmp_path, monkeypatch):
    """A correction through the queue supersedes its original; an attorney's easement
    with counsel's final and a PDF map exhibit uploaded to its draft (carried in the job)
    closes its draft and opens the issued document, the final kept, the map on its exhibit
    page;
    an inspection report's photos travel in its job (:func:`photos_through_the_queue`)."""
    import docx

    monkeypatch.delenv("DOCGEN_DESK_QUEUE", raising=False)
    (tmp_path / "direct").mkdir()
    direct = start_desk(tmp_path / "direct")  # the desk's own issue, on its SQLite register
    monkeypatch.setenv("DOCGEN_DESK_QUEUE", "docgen")
    monkeypatch.setenv("DOCGEN_QUEUE_PHOTOS_MB", "0.5")
    (tmp_path / "desk").mkdir()
    desk = start_desk(tmp_path / "desk", queue_url)
    try:
        machines(queue_url, "renderer")
        clerk = desk.signed_in("ann")
        where, token = start_draft(clerk, "notice-of-violation")
        _, typed = typed_sample("notice-of-violation", "homer-deadline-thanksgiving")
        clerk.post(where, data={**typed, "csrf_token": token})
        original = issued_through_the_queue(clerk, where, {"csrf_token": token})

        draft = clerk.post(f"/documents/{original}/correct", data={"csrf_token": token})
        where = draft.headers["location"]
        fixed = {**typed, "_supersedes": original, "site.description": "Lot 4, corrected"}
        clerk.post(where, data={**fixed, "csrf_token": token})
        correction = issued_through_the_queue(clerk, where, {"csrf_token": token})
        assert correction in clerk.get(f"/documents/{original}").text
        rows = sql(
            queue_url,
            "SELECT c.number FROM public.documents c JOIN public.documents o "
            "ON c.supersedes_id = o.id WHERE o.number = %s",
            original,
        )
        assert rows == [(correction,)]

        attorney = desk.signed_in("ada")
        where, token = start_draft(attorney, "maintenance-easement")
        _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
        attorney.post(where, data={**typed, "csrf_token": token})
        sent = attorney.post(  # the map exhibit, uploaded to the draft: it travels in the job
            f"{where}/upload",
            data={"csrf_token": token, "field": "easement.exhibit", "_action": "attach"},
            files={"file": ("map.pdf", hostile.map_pdf(), "application/pdf")},
        )
        assert sent.status_code == 303, sent.text[-2000:]
        word = attorney.get(f"{where}/word")
        edited = docx.Document(io.BytesIO(word.content))
        edited.add_paragraph("Counsel adds this sentence before signing.")
        final = io.BytesIO()
        edited.save(final)
        files = {"final": ("final.docx", final.getvalue(), "application/octet-stream")}
        easement = issued_through_the_queue(attorney, where, {"csrf_token": token}, files)
        page = attorney.get(f"/documents/{easement}")
        assert page.status_code == 200
        pdf = attorney.get(f"/documents/{easement}/file.pdf").content
        pages = readback.pdf_pages(pdf)
        (exhibit,) = [p for p in pages if "Exhibit 1: Map of the Easement Area" in p]
        assert len(images_of_page(pdf, pages.index(exhibit))) == 1  # drawn by the worker
        assert {"final", "redline"} <= stored_formats(queue_url, easement)

        photos_through_the_queue(desk, direct, queue_url, tmp_path)
    finally:
        stop_desk(desk)
        stop_desk(direct)


def drafted_inspection(client, photos: list[Path]) -> tuple[str, str]:
    """An inspection report drafted on the desk as an officer types it, with ``photos``
    sent as the phone sends them: (its address, the CSRF token)."""
    where, token = start_draft(client, "inspection-report")
    client.post(where, data={**TYPED, **CHOSEN, "csrf_token": token})
    sent = [("photos", (p.name, p.read_bytes(), "image/jpeg")) for p in photos]
    added = client.post(f"{where}/photos", data={"csrf_token": token}, files=sent)
    assert added.status_code == 303, added.text
    return where, token


def images_of_page(pdf: bytes, index: int) -> list[bytes]:
    from pypdf import PdfReader

    return [image.data for image in PdfReader(io.BytesIO(pdf)).pages[index].images]


def photos_through_the_queue(desk, direct, queue_url: str, tmp_path: Path) -> None:
    """The photos sent from the phone travel in the job (§ 228-79A(1), LAW.md § 11): the
    report the queue issues shows the very images the desk's own issue (``direct``, no
    queue) shows; the photos leave the job once it is issued; a draft whose photos pass
    the job's limit (DOCGEN_QUEUE_PHOTOS_MB, 0.5 MB here) is refused, naming the field
    and the limit, and nothing is queued."""
    camera = f"{TODAY:%Y:%m:%d} 09:4"
    photos = [
        phone_photo(tmp_path / "fence.jpg", "green", taken=f"{camera}1:05"),
        phone_photo(tmp_path / "inlet.jpg", "brown", taken=f"{camera}3:40"),
    ]
    officer = direct.signed_in("otto")
    where, token = drafted_inspection(officer, photos)
    pressed = officer.post(f"{where}/issue", data={"csrf_token": token})
    assert pressed.status_code == 303, pressed.text
    assert pressed.headers["location"].startswith("/documents/INS-")
    shown = images_of(officer.get(f"{pressed.headers['location']}/file.pdf").content)
    assert len(set(shown)) == 2

    officer = desk.signed_in("otto")
    jobs = sql(queue_url, "SELECT count(*) FROM procrastinate_jobs")[0][0]
    where, token = drafted_inspection(officer, photos)
    number = issued_through_the_queue(officer, where, {"csrf_token": token})
    assert number.startswith("INS-")
    pdf = officer.get(f"/documents/{number}/file.pdf")
    assert pdf.status_code == 200
    assert images_of(pdf.content) == shown  # the same two images, byte for byte
    held = sql(queue_url, "SELECT args ? 'photos' FROM procrastinate_jobs ORDER BY id DESC")
    assert held[0] == (False,)  # the issued job keeps no photos

    noise = Image.frombytes("RGB", (1200, 900), random.Random(32).randbytes(1200 * 900 * 3))
    with Image.open(photos[0]) as taken:  # the time its camera recorded
        noise.save(tmp_path / "noise.jpg", "JPEG", exif=taken.getexif())
    where, token = drafted_inspection(officer, [photos[0], tmp_path / "noise.jpg"])
    refused = officer.post(f"{where}/issue", data={"csrf_token": token})
    assert refused.status_code == 200
    beside = re.search(
        rf'id="{input_id("photos")}-error">(.*?)</span></span>', refused.text, re.DOTALL
    )
    assert beside is not None, refused.text
    said = " ".join(html.unescape(beside.group(1)).split())
    assert re.search(
        r"the files sent with this case are 0\.\d\d MB together; a job for the queue's "
        r"workers carries at most 0\.5 MB of files \(DOCGEN_QUEUE_PHOTOS_MB\)",
        said,
    ), said
    assert "Photos taken at the inspection" in html.unescape(refused.text)  # its label
    assert sql(queue_url, "SELECT count(*) FROM procrastinate_jobs") == [(jobs + 1,)]


def test_the_queues_desk_asks_which_respondent_before_queuing(
    queue_url, machines, tmp_path, monkeypatch
):
    """A near name on the queue's desk (issue 28 item 6; LAW.md § 2(a), § 4): Issue asks
    "Which respondent is this?" with each answer's penalty and queues nothing (the match
    is a register read the desk does itself); the answer travels in the job, and the
    worker issues under the record's name with the penalty the page showed, or, with
    "keep the name as typed", the name as typed, recorded as another name of the record."""
    from docgen.register import Register

    monkeypatch.setenv("DOCGEN_DESK_QUEUE", "docgen")
    (tmp_path / "desk").mkdir()
    desk = start_desk(tmp_path / "desk", queue_url)
    try:
        with Register.open(queue_url) as register:
            record = convicted_record(register, tmp_path)
        clerk = desk.signed_in("ann")
        where, token = drafted(clerk, notice("2026-11-28", "2026-11-30", NEAR))
        asked = clerk.post(f"{where}/issue", data={"csrf_token": token})
        assert asked.status_code == 200 and "Which respondent is this?" in asked.text
        shown = answers(asked.text)
        assert shown == {str(record): (2, "350.00", "700.00"), "new": (1, "0.00", "350.00")}
        assert sql(queue_url, "SELECT count(*) FROM procrastinate_jobs") == [(0,)]

        machines(queue_url, "renderer")
        chosen = {"csrf_token": token, "_choosing": "1", "respondent": str(record)}
        number = issued_through_the_queue(clerk, where, chosen)
        held = sql(
            queue_url, "SELECT args->'respondent', args->'keep_name' FROM procrastinate_jobs"
        )
        assert held == [(str(record), False)]
        for fmt, read in (("pdf", pdf_text), ("docx", docx_text)):
            text = read(clerk.get(f"/documents/{number}/file.{fmt}").content)
            assert RECORD in text and NEAR not in text, fmt
            assert stated(text) == shown[str(record)], fmt

        where, token = drafted(clerk, notice("2026-11-29", "2026-12-01", NEAR))
        assert (
            "Which respondent is this?"
            in clerk.post(f"{where}/issue", data={"csrf_token": token}).text
        )
        kept = issued_through_the_queue(
            clerk, where, {**chosen, "csrf_token": token, "keep_name": "1"}
        )
        text = pdf_text(clerk.get(f"/documents/{kept}/file.pdf").content)
        assert NEAR in text and stated(text) == shown[str(record)]
        with Register.open(queue_url) as register:
            assert register.document(number).respondent.id == record
            assert register.document(kept).respondent.id == record
            assert register.respondent(record).aliases == (NEAR,)
    finally:
        stop_desk(desk)
