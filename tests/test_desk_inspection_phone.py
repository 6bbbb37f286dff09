"""The officer's phone flow (§ 228-79A(1); LAW.md § 11) in Chromium at 390 px against a real
`docgen serve`: an inspection drafted on the desk with two photos chosen through the
browser's file input (one carrying the camera's GPS location), issued as the inspection
report, then the notice of deficiency issued from it with nothing typed. Every page the
flow visits fits the screen and passes axe; the photos kept (the draft's folder, and the
report's stored PDF, DOCX and HTML) carry no location unless the officer kept it.

Over HTTP: photos that are not images, too many, or kept with their location; a photo
whose camera and editor wrote names, a description and a serial number keeps only the time
it was taken, in the draft and in the served report's DOCX, HTML and PDF; a PNG declaring
177 megapixels refused from its header, the server's memory unchanged; the reinspection
started from a notice, and its approval's refusal shown on the page."""

from __future__ import annotations

import base64
import copy
import html
import io
import re
import zipfile
from datetime import date

import pytest
from desk_browser import axe_violations, sign_in
from desk_server import csrf_of, database, start_draft, typed_sample
from playwright.sync_api import expect

from docgen.desk.base.forms import input_id
from docgen.documents.photos import MAX_PHOTOS
from docgen.register import Register
from docgen.register.matter.inspections import notify_deficiency
from docgen.register.storage.db import RegisterError
from tests.helpers.inspection_cases import (
    CHOSEN,
    GPS_IFD,
    INSPECTION,
    TODAY,
    TYPED,
    phone_photo,
)
from tests.helpers.served import HAND, service_of

PHONE = {"width": 390, "height": 844}
CAMERA = f"{TODAY:%Y:%m:%d} 09:4"  # + the minute: when the camera says it took each photo
MAKE = 0x010F  # EXIF's camera make: removed, as all but the time taken
ISSUE = re.compile("^Issue: number, record")  # a draft's issue button


@pytest.fixture(scope="module")
def desk(shared_desk):
    return shared_desk


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


def test_an_inspection_with_two_photos_then_its_notice_then_the_approval_on_a_phone(
    desk, browser, tmp_path
):
    photos = [
        phone_photo(tmp_path / "fence.jpg", "green", gps=True, taken=f"{CAMERA}1:05"),
        phone_photo(tmp_path / "inlet.jpg", "brown", gps=False, taken=f"{CAMERA}3:40"),
    ]
    fixed = phone_photo(tmp_path / "fixed.jpg", "gray", gps=True, taken=f"{CAMERA}8:20")
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
    typed: list[str] = []  # each field the officer types or chooses, in order

    def press(name: str | re.Pattern, to: str) -> str:
        """Press the button, land on a page whose address ends with ``to``, look at it;
        the page's number or id."""
        page.get_by_role("button", name=name).last.click()
        expect(page).to_have_url(re.compile(f"{to}$"))
        looked_at()
        return page.url.rsplit("/", 1)[1]

    def photographed(files: list) -> None:
        """The photos chosen through the browser's file input, added to the draft."""
        page.get_by_label("Photos taken at the inspection").set_input_files(files)
        page.get_by_role("button", name="Add the photos").click()
        last = f"photos[{len(files) - 1}].file"
        expect(page.locator(f"#{input_id(last)}")).to_have_value(f"photo-{len(files)}.jpg")

    def captioned(caption: str, draft: str) -> None:
        """The first photo captioned as showing the first finding; the draft saved."""
        fill("photos[0].caption", caption)
        fill("photos[0].finding", "1")
        press("Save and check", f"/drafts/{draft}")

    def fill(path: str, value: str) -> None:
        typed.append(path)
        page.locator(f"#{input_id(path)}").fill(value)

    def choose(path: str, value: str) -> None:
        typed.append(path)
        page.locator(f"#{input_id(path)}").select_option(value)

    for path, value in TYPED.items():
        fill(path, value)
    for path, value in CHOSEN.items():
        choose(path, value)
    draft = press("Save and check", r"/drafts/\d+")

    photographed(photos)
    # The time each was taken, from the camera's own record; the location not kept.
    expect(page.locator(f"#{input_id('photos[0].taken')}")).to_have_value(f"{TODAY}T09:41")
    expect(page.locator(f"#{input_id('photos[1].taken')}")).to_have_value(f"{TODAY}T09:43")
    expect(page.locator(f"#{input_id('photos[0].keep_location')}")).to_have_value("no")
    captioned("Silt fence down", draft)

    report = press(ISSUE, r"/documents/INS-\d{4}-\d{4}")
    notice = press(
        "Issue the notice of deficiency from this inspection report", r"/documents/NOD-\d{4}-\d{4}"
    )
    expect(page.locator("h1")).to_contain_text("Notice of deficiency")
    assert len(visited) == 6  # drafts, the new draft, saved, with photos, report, notice
    typed_to_notice = len(typed)

    # Served by hand the same day: recorded on the notice's page, as the officer would.
    typed.append("method")
    page.locator("#s-method").select_option("personal-delivery")
    typed.append("date")
    page.locator("#s-date").fill(str(TODAY))
    typed.append("served_by")
    page.locator("#s-by").fill("Dana R. Whitcomb")
    # What the affidavit states of a delivery by hand (LAW.md § 10): nothing is filled in.
    for field, value in HAND.items():
        typed.append(field)
        page.locator(f"#s-{field}").fill(value)
    page.get_by_role("button", name="Record service").click()
    expect(page.locator("body")).to_contain_text("service complete")
    looked_at()

    # The reinspection, started from the notice: its site, persons, number and the open
    # deficiency are there; the officer types what was found, and adds a photo.
    again = press("Inspection report from this notice of deficiency", r"/drafts/\d+")
    expect(page.locator(f"#{input_id('reinspects.notice')}")).to_have_value(notice)
    expect(page.locator(f"#{input_id('findings[0].practice')}")).to_have_value("Silt fence")
    expect(page.locator(f"#{input_id('findings[0].corrects')}")).to_have_value("1")
    expect(page.locator(f"#{input_id('site.address.street')}")).to_have_value("120 Cayuga Street")
    for path in ("issued", "inspected"):
        fill(path, str(TODAY))
    fill("time", "09:45")
    for path in ("officer.name", "officer.title"):
        if not page.locator(f"#{input_id(path)}").input_value():
            fill(path, TYPED[path])
    fill("weather", "Clear, 41 °F")
    fill("findings[0].found", "Silt fence reinstalled and staked; inlet cleaned")
    choose("findings[0].result", "satisfactory")
    press("Save and check", f"/drafts/{again}")
    photographed([fixed])
    captioned("Silt fence reinstalled", again)
    reinspection = press(ISSUE, r"/documents/INS-\d{4}-\d{4}")

    # The approval made from the reinspection, nothing typed.
    approval = press(
        "Issue the approval of corrected work from this inspection report",
        r"/documents/[A-Z]+-\d{4}-\d{4}",
    )
    expect(page.locator("h1")).to_contain_text("Approval of corrected work")
    context.close()
    assert found == []
    print(
        f"\nthe officer's flow at 390 px: {len(visited)} pages visited, {len(typed)} fields "
        f"typed or chosen ({typed_to_notice} to the notice of deficiency)"
    )
    assert len(visited) == 12  # + served, reinspection draft, saved, with photo, report, approval

    # The draft's photos as kept, and the report's stored files: no location anywhere,
    # nor the rest of what the camera wrote (its make).
    kept = sorted((desk.home / "desk-photos" / f"draft-{draft}").iterdir())
    assert [p.name for p in kept] == ["photo-1.jpg", "photo-2.jpg"]
    assert exif_of(photos[0].read_bytes()).get_ifd(GPS_IFD)  # it had one
    for photo in kept:
        assert not exif_of(photo.read_bytes()).get_ifd(GPS_IFD)
        assert MAKE not in exif_of(photo.read_bytes())
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

    # The approval: the deficiency found corrected on the reinspection, work may resume.
    text = " ".join(
        p.extract_text() for p in PdfReader(io.BytesIO(stored(desk, approval)["pdf"])).pages
    )
    words = " ".join(text.split())
    assert "Silt fence reinstalled and staked; inlet cleaned" in words
    assert "the deficiencies named below as corrected are corrected" in words
    # work may resume unless a stop-work order at the same address stands: the shared
    # desk's register may hold one from another module, and the approval then names it
    assert "All deficiencies of the notice are corrected and the work previously" in words
    resumes = "work previously completed is approved: work may resume" in words
    assert resumes or re.search(r"Work may not resume yet: Stop-Work Order No\. SWO-", words)
    assert notice in words and reinspection in words
    assert "still open are not corrected" not in words


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


def test_a_reinspection_after_service_and_its_approval_offered_to_the_officer(desk):
    """A reinspection answers a served notice (LAW.md § 11): refused before its service;
    the approval is offered on a reinspection only, to the officer; the notice's page starts
    the next reinspection with each open deficiency a finding to re-check."""
    # inspected today, each corrective date the same days after it as in the sample (fixed
    # dates failed the day after the sample's first one)
    findings = copy.deepcopy(INSPECTION["findings"])
    for finding in findings:
        if "due" in finding:
            late = date.fromisoformat(finding["due"]) - date.fromisoformat(INSPECTION["inspected"])
            finding["due"] = str(TODAY + late)
    first = {**INSPECTION, "issued": str(TODAY), "inspected": str(TODAY), "findings": findings}
    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as reg:
        report = reg.issue("inspection-report", first, formats=("html",), by="otto").number
        notice = notify_deficiency(reg, report, formats=("html",), by="otto").number
        found = {"found": "Fence reinstalled", "result": "satisfactory", "corrects": 2}
        again = {
            **first,
            "reinspects": {"notice": notice},
            "findings": [{"practice": "Concrete washout", **found}],
        }
        with pytest.raises(RegisterError, match="is not served yet: a reinspection answers"):
            reg.issue("inspection-report", again, formats=("html",), by="otto")
        reg.record_service(notice, service_of("personal-delivery", TODAY), formats=("html",))
        reinspection = reg.issue("inspection-report", again, formats=("html",), by="otto").number
    officer, attorney = desk.signed_in("otto"), desk.signed_in("ada")  # no enforce
    approve = "Issue the approval of corrected work from this inspection report"
    assert approve not in officer.get(f"/documents/{report}").text
    page = officer.get(f"/documents/{reinspection}").text
    assert approve in page
    assert approve not in attorney.get(f"/documents/{reinspection}").text
    denied = attorney.post(
        f"/documents/{reinspection}/make/approval-of-corrected-work",
        data={"csrf_token": csrf_of(attorney.get(f"/documents/{reinspection}").text)},
    )
    assert denied.status_code == 403

    page = officer.get(f"/documents/{notice}").text
    draft = officer.post(
        f"/documents/{notice}/follow/inspection-report", data={"csrf_token": csrf_of(page)}
    )
    assert draft.status_code == 303
    form = html.unescape(officer.get(draft.headers["location"]).text)
    for path, value in {
        "reinspects.notice": notice,
        "site.address.street": "120 Cayuga Street",
        "persons[0].name": "Tioughnioga Ridge Development LLC",
        "findings[0].practice": "Silt fence",
        "findings[0].corrects": "1",
        "findings[1].practice": "Concrete washout",
        "findings[1].corrects": "2",
    }.items():
        assert re.search(rf'id="{input_id(path)}"[^>]*value="{re.escape(value)}"', form), path
    assert f'id="{input_id("findings[0].found")}"' in form
    assert f'id="{input_id("findings[2].practice")}"' not in form  # the satisfactory one


def test_a_notice_of_deficiency_past_its_dates_escalates_from_its_page(desk):
    """Escalation without retyping (§ 228-79A(1); LAW.md § 11): the notice's page starts a
    notice of violation to the landowner, each deficiency open past its date a violation
    naming the notice and the inspection; the officer sets only the remedies' dates."""
    from datetime import timedelta

    from docgen.desk.base import forms
    from docgen.register.matter.inspections import started_by_register
    from tests.helpers.readback import pdf_text
    from tests.helpers.served import service_of

    day = TODAY - timedelta(days=20)
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"] = str(TODAY - timedelta(days=10))  # past: escalated
    findings[2]["due"] = str(TODAY + timedelta(days=10))  # not yet: left out
    first = {**INSPECTION, "issued": str(day), "inspected": str(day), "findings": findings}
    with Register.open(f"sqlite:///{desk.home / 'docgen.sqlite'}") as reg:
        report = reg.issue("inspection-report", first, formats=("html",), by="otto").number
        notice = notify_deficiency(reg, report, day, formats=("html",), by="otto").number
        reg.record_service(notice, service_of("personal-delivery", day), formats=("html",))
        # The reinspection that saw the silt fence still open (LAW.md § 11): what it states.
        seen = str(TODAY - timedelta(days=5))
        again = {
            **INSPECTION,
            "issued": seen,
            "inspected": seen,
            "reinspects": {"notice": notice},
            "findings": [
                {
                    "practice": "Silt fence",
                    "found": "Still down",
                    "result": "deficient",
                    "requirement": "§ 228-78D(1)",
                    "corrective_action": "Reinstall it",
                    "due": seen,
                    "corrects": 1,
                }
            ],
        }
        rechecked = reg.issue("inspection-report", again, formats=("html",), by="otto").number
        started = started_by_register("notice-of-deficiency", "notice-of-violation")(reg, notice)
    officer = desk.signed_in("otto")
    page = html.unescape(officer.get(f"/documents/{notice}").text)
    assert "Notice of violation from this notice of deficiency" in page
    assert "Stop-work order from this notice of deficiency" in page
    draft = officer.post(
        f"/documents/{notice}/follow/notice-of-violation", data={"csrf_token": csrf_of(page)}
    )
    assert draft.status_code == 303
    where = draft.headers["location"]
    form = html.unescape(officer.get(where).text)
    for path, value in {
        "recipient.name": "Cayuga Street Holdings LLC",  # to the landowner
        "violations[0].provision": "§ 228-78D(1)",
        "violations[0].observed": str(day),
        "violations[0].continued_through": seen,  # what the reinspection saw
        "remedies[0].due": "",  # the officer's to set
    }.items():
        assert re.search(rf'id="{input_id(path)}"[^>]*value="{re.escape(value)}"', form), path
    assert f"deficiency 1 of Notice of Deficiency No. {notice}" in form
    assert f'id="{input_id("violations[1].provision")}"' not in form  # the washout: not late
    # The officer sets the remedy's date (one field) and issues.
    due = str(TODAY + timedelta(days=7))
    typed = dict(forms.pairs_of(started)) | {"remedies[0].due": due}
    token = csrf_of(form)
    assert officer.post(where, data={**typed, "csrf_token": token}).status_code == 303
    issued = officer.post(f"{where}/issue", data={"csrf_token": token})
    assert issued.status_code == 303, issued.text
    number = issued.headers["location"].rsplit("/", 1)[1]
    assert re.fullmatch(r"NOV-\d{4}-\d{4}", number)
    words = " ".join(pdf_text(stored(desk, number)["pdf"]).split())
    assert "Cayuga Street Holdings LLC" in words and "§ 228-78D(1)" in words
    assert f"Notice of Deficiency No. {notice}, found at Inspection Report No. {report}" in words
    assert f"as found at Inspection Report No. {rechecked} of that day" in words


# What a probe's photo carried besides GPS, each reaching the served report before the
# allow-list: the photographer, the copyright, the description (a complainant's name),
# the camera's owner and its serial number, in EXIF, XMP, a JPEG comment and PNG text.
SECRETS = ("Jane Photographer", "Copyright Jane", "Complainant Carol Ames", "Owner Al", "SN-4471")


def probe_photo(kind: str) -> bytes:
    """A photo (``kind`` JPEG or PNG) whose camera and editor wrote every SECRET, the time
    it was taken, and an orientation (turned a quarter: 300 x 200 stored, 200 x 300 seen)."""
    from PIL import Image, PngImagePlugin

    exif = Image.Exif()
    exif[0x013B], exif[0x8298], exif[0x010E] = SECRETS[:3]  # Artist, Copyright, Description
    exif[0x0112] = 6  # Orientation: turn 90 degrees clockwise to view
    inner = exif.get_ifd(0x8769)
    inner[0xA430], inner[0xA431] = SECRETS[3:]  # CameraOwnerName, BodySerialNumber
    inner[0x9003] = "2026:11:30 10:15:00"  # the sample inspection's day
    xmp = f"<x:xmpmeta><dc:creator>{SECRETS[0]}</dc:creator></x:xmpmeta>".encode()
    out = io.BytesIO()
    image = Image.new("RGB", (300, 200), "olive")
    if kind == "jpeg":
        image.save(out, "JPEG", exif=exif.tobytes(), xmp=xmp, comment=SECRETS[2].encode())
    else:
        text = PngImagePlugin.PngInfo()
        text.add_text("Author", SECRETS[0])
        text.add_itxt("XML:com.adobe.xmp", xmp.decode())
        text.add_text("Description", SECRETS[2], zip=True)
        image.save(out, "PNG", exif=exif.tobytes(), pnginfo=text)
    return out.getvalue()


def images_in(files: dict[str, bytes]) -> list[bytes]:
    """Every image the stored DOCX, HTML and PDF of a document hold."""
    from pypdf import PdfReader

    with zipfile.ZipFile(io.BytesIO(files["docx"])) as docx:
        found = [docx.read(n) for n in docx.namelist() if n.startswith("word/media/")]
    found += [
        base64.b64decode(b)
        for b in re.findall(rb"data:image/[a-z]+;base64,([A-Za-z0-9+/=]+)", files["html"])
    ]
    found += [i.data for p in PdfReader(io.BytesIO(files["pdf"])).pages for i in p.images]
    return [b for b in found if b[:3] == b"\xff\xd8\xff" or b[:8] == b"\x89PNG\r\n\x1a\n"]


def assert_only_the_time(photo: bytes, where: str) -> None:
    """``photo`` carries none of SECRETS, no metadata but the time taken, and is upright."""
    from PIL import Image

    for secret in SECRETS:
        assert secret.encode() not in photo, (where, secret)
    image = Image.open(io.BytesIO(photo))
    exif = image.getexif()
    assert set(exif) <= {0x8769}, (where, dict(exif))
    assert set(exif.get_ifd(0x8769)) <= {0x9003}, where
    meta = set(image.info) - {"jfif", "jfif_version", "jfif_unit", "jfif_density", "dpi"}
    assert meta <= {"exif"}, (where, meta)
    assert image.height > image.width, where  # the orientation applied to the pixels


def test_a_photo_keeps_only_the_time_it_was_taken_in_the_draft_and_the_served_report(desk):
    officer = desk.signed_in("otto")
    place, token = start_draft(officer, "inspection-report")
    draft = place.rsplit("/", 1)[1]
    _, typed = typed_sample("inspection-report", "homer-silt-fence-washout")
    officer.post(place, data={**typed, "csrf_token": token})
    sent = [
        ("photos", ("probe.jpg", probe_photo("jpeg"), "image/jpeg")),
        ("photos", ("probe.png", probe_photo("png"), "image/png")),
    ]
    kept = officer.post(f"{place}/photos", data={"csrf_token": token}, files=sent)
    assert kept.status_code == 303, html.unescape(kept.text)
    folder = desk.home / "desk-photos" / f"draft-{draft}"
    for photo in sorted(folder.iterdir()):
        assert_only_the_time(photo.read_bytes(), photo.name)
    assert 'value="2026-11-30T10:15"' in officer.get(place).text  # the time kept
    issued = officer.post(f"{place}/issue", data={"csrf_token": token})
    assert issued.status_code == 303, html.unescape(officer.get(place).text)
    files = stored(desk, issued.headers["location"].rsplit("/", 1)[1])
    images = images_in(files)
    assert len(images) >= 4  # two photos in the DOCX and the HTML (and the PDF's)
    for n, photo in enumerate(images):
        assert_only_the_time(photo, f"image {n}")
    with zipfile.ZipFile(io.BytesIO(files["docx"])) as docx:
        for member in docx.namelist():
            for secret in SECRETS:
                assert secret.encode() not in docx.read(member), (member, secret)


def pixel_bomb(side: int = 13_300) -> bytes:
    """A PNG of a few hundred KB whose header declares ``side`` x ``side`` RGB pixels
    (13,300: 177 megapixels, 2.5 GB resident when Pillow decodes and shrinks it)."""
    import struct
    import zlib

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    packer = zlib.compressobj(9)
    row = bytes(1 + 3 * side)  # filter 0, then black pixels
    data = b"".join(packer.compress(row) for _ in range(side)) + packer.flush()
    head = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", data) + chunk(b"IEND", b"")


def peak_mb(pid: int) -> float:
    """The most memory process ``pid`` has held resident (VmHWM), in MB."""
    with open(f"/proc/{pid}/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def test_a_pixel_bomb_is_refused_from_its_header_and_never_decoded_by_the_server(desk):
    officer = desk.signed_in("otto")
    place, token = start_draft(officer, "inspection-report")
    bomb = pixel_bomb()
    before = peak_mb(desk.process.pid)
    refused = officer.post(
        f"{place}/photos",
        data={"csrf_token": token},
        files=[("photos", ("site.png", bomb, "image/png"))],
    )
    after = peak_mb(desk.process.pid)
    print(f"\nthe desk's peak memory: {before:.0f} MB before a {len(bomb) >> 10} KB pixel bomb,")
    print(f"{after:.0f} MB after")
    assert refused.status_code == 400
    said = " ".join(html.unescape(refused.text).split())
    assert (
        "site.png is 13,300 by 13,300 pixels (177 megapixels); a photo may have at most 50 "
        "megapixels. Send the photo as the phone took it, or a smaller copy"
    ) in said
    assert after - before < 100
    assert not (desk.home / "desk-photos" / f"draft-{place.rsplit('/', 1)[1]}").exists()
