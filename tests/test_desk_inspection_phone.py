"""The officer's phone flow (§ 228-79A(1); LAW.md § 11) in Chromium at 390 px against a real
`docgen serve`: an inspection drafted on the desk with two photos chosen through the
browser's file input (one carrying the camera's GPS location), issued as the inspection
report, then the notice of deficiency issued from it with nothing typed. Every page the
flow visits fits the screen and passes axe; the photos kept (the draft's folder, and the
report's stored PDF, DOCX and HTML) carry no location unless the officer kept it.

Over HTTP: photos that are not images, too many, or kept with their location."""

from __future__ import annotations

import base64
import html
import io
import re
import zipfile

import pytest
from desk_browser import axe_violations, chromium, sign_in
from desk_server import csrf_of, database, serving, start_draft
from playwright.sync_api import expect

from docgen.desk.forms import input_id
from docgen.documents.photos import MAX_PHOTOS
from tests.helpers.inspection_cases import CHOSEN, GPS_IFD, TODAY, TYPED, phone_photo

PHONE = {"width": 390, "height": 844}
CAMERA = f"{TODAY:%Y:%m:%d} 09:4"  # + the minute: when the camera says it took each photo
MAKE = 0x010F  # EXIF's camera make: kept, to show the rest of the EXIF survives


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    yield from serving(tmp_path_factory)


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def exif_of(jpeg: bytes):
    from PIL import Image

    return Image.open(io.BytesIO(jpeg)).getexif()


def stored(desk, number: str) -> dict[str, bytes]:
    with database(desk) as db:
        rows = db.execute(
            "select f.format, f.content from document_files f join documents d"
            " on d.id = f.document_id where d.number = ?",
            (number,),
        ).fetchall()
    return dict(rows)


def jpegs_in(files: dict[str, bytes]) -> dict[str, list[bytes]]:
    """The JPEG images each stored format of a document holds."""
    from pypdf import PdfReader

    with zipfile.ZipFile(io.BytesIO(files["docx"])) as docx:
        in_docx = [docx.read(n) for n in docx.namelist() if n.startswith("word/media/")]
    in_html = [
        base64.b64decode(b)
        for b in re.findall(rb"data:image/jpeg;base64,([A-Za-z0-9+/=]+)", files["html"])
    ]
    in_pdf = [i.data for p in PdfReader(io.BytesIO(files["pdf"])).pages for i in p.images]
    return {
        "docx": [b for b in in_docx if b[:3] == b"\xff\xd8\xff"],
        "html": in_html,
        "pdf": [b for b in in_pdf if b[:3] == b"\xff\xd8\xff"],
    }


def test_an_inspection_with_two_photos_then_its_notice_of_deficiency_on_a_phone(
    desk, browser, tmp_path
):
    photos = [
        phone_photo(tmp_path / "fence.jpg", "green", gps=True, taken=f"{CAMERA}1:05"),
        phone_photo(tmp_path / "inlet.jpg", "brown", gps=False, taken=f"{CAMERA}3:40"),
    ]
    context = browser.new_context(base_url=desk.url, viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(120_000)  # an issue renders a PDF and a DOCX on a busy machine
    sign_in(page, "otto")
    visited, found = [], []

    def looked_at() -> None:
        path = page.url.removeprefix(desk.url)
        visited.append(path)
        if page.evaluate("document.scrollingElement.scrollWidth > window.innerWidth"):
            found.append((path, "scrolls sideways"))
        found.extend((path, v) for v in axe_violations(page))

    page.goto("/drafts")
    looked_at()
    page.select_option("#new-kind", "inspection-report")
    page.select_option("#new-jurisdiction", "homer")
    page.get_by_role("button", name="Start").click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+$"))
    looked_at()
    for path, value in TYPED.items():
        page.locator(f"#{input_id(path)}").fill(value)
    for path, value in CHOSEN.items():
        page.locator(f"#{input_id(path)}").select_option(value)
    page.get_by_role("button", name="Save and check").last.click()
    expect(page).to_have_url(re.compile(r"/drafts/\d+$"))
    looked_at()
    draft = page.url.rsplit("/", 1)[1]

    page.get_by_label("Photos taken at the inspection").set_input_files(photos)
    page.get_by_role("button", name="Add the photos").click()
    expect(page.locator(f"#{input_id('photos[1].file')}")).to_have_value("photo-2.jpg")
    # The time each was taken, from the camera's own record; the location not kept.
    expect(page.locator(f"#{input_id('photos[0].taken')}")).to_have_value(f"{TODAY}T09:41")
    expect(page.locator(f"#{input_id('photos[1].taken')}")).to_have_value(f"{TODAY}T09:43")
    expect(page.locator(f"#{input_id('photos[0].keep_location')}")).to_have_value("no")
    page.locator(f"#{input_id('photos[0].caption')}").fill("Silt fence down")
    page.locator(f"#{input_id('photos[0].finding')}").fill("1")
    page.get_by_role("button", name="Save and check").last.click()
    looked_at()

    page.get_by_role("button", name=re.compile("^Issue: number, record")).click()
    expect(page).to_have_url(re.compile(r"/documents/INS-\d{4}-\d{4}$"))
    report = page.url.rsplit("/", 1)[1]
    looked_at()
    page.get_by_role(
        "button", name="Issue the notice of deficiency from this inspection report"
    ).click()
    expect(page).to_have_url(re.compile(r"/documents/NOD-\d{4}-\d{4}$"))
    notice = page.url.rsplit("/", 1)[1]
    expect(page.locator("h1")).to_contain_text("Notice of deficiency")
    looked_at()
    context.close()
    assert found == []
    assert len(visited) == 6  # drafts, the new draft, saved, with photos, report, notice

    # The draft's photos as kept, and the report's stored files: no location anywhere,
    # the rest of what the camera wrote (its make) kept.
    kept = sorted((desk.home / "desk-photos" / f"draft-{draft}").iterdir())
    assert [p.name for p in kept] == ["photo-1.jpg", "photo-2.jpg"]
    assert exif_of(photos[0].read_bytes()).get_ifd(GPS_IFD)  # it had one
    for photo in kept:
        assert not exif_of(photo.read_bytes()).get_ifd(GPS_IFD)
        assert exif_of(photo.read_bytes())[MAKE] == "PhoneCam"
    images = jpegs_in(stored(desk, report))
    assert {fmt: len(set(found)) for fmt, found in images.items()} == dict.fromkeys(images, 2)
    for fmt, found in images.items():
        for jpeg in found:
            assert GPS_IFD not in exif_of(jpeg), fmt

    # The notice made from the report: the deficiency as recorded, nothing retyped.
    from pypdf import PdfReader

    text = " ".join(
        p.extract_text() for p in PdfReader(io.BytesIO(stored(desk, notice)["pdf"])).pages
    )
    words = " ".join(text.split())
    assert "Tioughnioga Ridge Development LLC" in words
    assert "Reinstall the silt fence and clean the inlet" in words
    assert report in words


def test_photos_not_images_too_many_or_kept_with_their_location(desk, tmp_path):
    officer = desk.signed_in("otto")
    place, token = start_draft(officer, "inspection-report")
    draft = place.rsplit("/", 1)[1]
    folder = desk.home / "desk-photos" / f"draft-{draft}"
    fake = ("site.jpg", b"%PDF-1.7 not a photo", "image/jpeg")
    refused = officer.post(f"{place}/photos", data={"csrf_token": token}, files=[("photos", fake)])
    assert refused.status_code == 400
    said = html.unescape(refused.text)
    assert "site.jpg is not a JPEG or PNG image (read from its first bytes)" in said
    assert not folder.exists()

    photo = phone_photo(tmp_path / "p.jpg", gps=True).read_bytes()
    many = [("photos", (f"p{n}.jpg", photo, "image/jpeg")) for n in range(MAX_PHOTOS + 1)]
    refused = officer.post(f"{place}/photos", data={"csrf_token": token}, files=many)
    assert refused.status_code == 400
    assert f"an inspection keeps at most {MAX_PHOTOS} photos" in html.unescape(refused.text)
    assert not folder.exists()

    kept = officer.post(
        f"{place}/photos",
        data={"csrf_token": token, "keep_location": "yes"},
        files=[("photos", ("p.jpg", photo, "image/jpeg"))],
    )
    assert kept.status_code == 303
    assert exif_of((folder / "photo-1.jpg").read_bytes()).get_ifd(GPS_IFD)[1] == "N"
    page = officer.get(place).text
    assert f'id="{input_id("photos[0].keep_location")}"' in page
    assert re.search(r'<option value="yes" selected>', page)
    assert csrf_of(page)
