"""Inspection cases and phone-like photos for the tests of § 228-79A(1) (LAW.md § 11)."""

from __future__ import annotations

import copy
import io
from datetime import timedelta
from pathlib import Path

import yaml

from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack

GPS_IFD = 0x8825
TODAY = municipal_today(load_pack("homer"))
DUE = TODAY + timedelta(days=4)
# What the officer types on the desk, field by field (the form's inputs by their case
# path), and chooses.
TYPED = {
    "issued": str(TODAY),
    "inspected": str(TODAY),
    "time": "09:30",
    "officer.name": "Dana R. Whitcomb",
    "officer.title": "Code Enforcement Officer",
    "site.address.street": "120 Cayuga Street",
    "site.address.city": "Homer",
    "site.address.state": "NY",
    "site.address.zip": "13077",
    "persons[0].name": "Tioughnioga Ridge Development LLC",
    "persons[0].address.street": "41 Route 281",
    "persons[0].address.city": "Homer",
    "persons[0].address.state": "NY",
    "persons[0].address.zip": "13077",
    "weather": "Overcast, 38 °F",
    "findings[0].practice": "Silt fence",
    "findings[0].location": "north property line",
    "findings[0].found": "Fence down over 40 feet; sediment in the drain inlet",
    "findings[0].requirement": "§ 228-78D(1)",
    "findings[0].corrective_action": "Reinstall the silt fence and clean the inlet",
    "findings[0].due": str(DUE),
}
CHOSEN = {"persons[0].role": "developer", "findings[0].result": "deficient"}

LANDOWNER = {
    "name": "Cayuga Street Holdings LLC",
    "role": "landowner",
    "address": {"street": "77 South Main Street", "city": "Homer", "state": "NY", "zip": "13077"},
}
DEVELOPER = {
    "name": "Tioughnioga Ridge Development LLC",
    "role": "developer",
    "address": {"street": "41 Route 281", "city": "Homer", "state": "NY", "zip": "13077"},
}
APPLICANT = {
    "name": "Marguerite Okafor",
    "role": "applicant",
    "address": {"street": "9 Clinton Street", "city": "Homer", "state": "NY", "zip": "13077"},
}

INSPECTION = {
    "jurisdiction": "homer",
    "issued": "2026-11-30",
    "inspected": "2026-11-30",
    "time": "09:30",
    "officer": {"name": "Dana R. Whitcomb", "title": "Code Enforcement Officer"},
    "site": {
        "address": {"street": "120 Cayuga Street", "city": "Homer", "state": "NY", "zip": "13077"},
        "tax_map": "87.17-01-12.000",
    },
    "persons": [LANDOWNER, DEVELOPER, APPLICANT],
    "present": ["Sam Keller, site superintendent"],
    "weather": "Overcast, 38 °F, 0.3 inch of rain overnight",
    "findings": [
        {
            "practice": "Silt fence",
            "location": "north property line",
            "found": "Fence down over 40 feet; sediment in the Cayuga Street drain inlet",
            "result": "deficient",
            "requirement": "§ 228-78D(1)",
            "corrective_action": (
                "Reinstall the silt fence along the north line and clean the inlet"
            ),
            "due": "2026-12-04",
        },
        {
            "practice": "Stabilized construction entrance",
            "found": "Stone in place; no tracking onto the street",
            "result": "satisfactory",
        },
        {
            "practice": "Concrete washout",
            "location": "east of the foundation",
            "found": "No washout; wash water running to the swale",
            "result": "deficient",
            "requirement": "SWPPP § 4.3, concrete washout area",
            "corrective_action": "Install the lined concrete washout the SWPPP shows",
            "due": "2026-12-07",
        },
    ],
}


def phone_photo(
    path: Path, color: str = "green", gps: bool = True, taken: str | None = None
) -> Path:
    """A JPEG as a phone writes it: the camera's make, with ``gps`` a location, and with
    ``taken`` ("YYYY:MM:DD HH:MM:SS") the time the camera says it was taken."""
    from PIL import Image

    image = Image.new("RGB", (1200, 900), color)
    exif = Image.Exif()
    exif[0x010F] = "PhoneCam"
    if taken:
        exif.get_ifd(0x8769)[0x9003] = taken
    if gps:
        block = exif.get_ifd(GPS_IFD)
        block[1], block[2] = "N", (42.0, 38.0, 10.0)
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", exif=exif.tobytes())
    path.write_bytes(buffer.getvalue())
    return path


def inspection(tmp_path: Path, photos: int = 2, **changes) -> Path:
    """An inspection case file in ``tmp_path`` with ``photos`` phone photos beside it."""
    data = copy.deepcopy(INSPECTION)
    data["photos"] = [
        {
            "file": phone_photo(tmp_path / f"photo-{n}.jpg", ("green", "brown")[n % 2]).name,
            "taken": f"2026-11-30T09:{40 + n}",
            "caption": ("Silt fence down", "Washout missing")[n % 2],
            "finding": (1, 3)[n % 2],
        }
        for n in range(photos)
    ]
    data.update(changes)
    path = tmp_path / f"inspection-{len(list(tmp_path.glob('inspection-*.yaml')))}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def reinspection(tmp_path: Path, notice: str, on: str, findings: list[dict], photos=0) -> Path:
    """A reinspection of ``notice`` on ``on`` with ``findings`` (each names ``corrects``)."""
    data = copy.deepcopy(INSPECTION)
    data.update(issued=on, inspected=on, findings=findings, reinspects={"notice": notice})
    data["photos"] = [
        {
            "file": phone_photo(tmp_path / f"re-{on}-{n}.jpg", gps=False).name,
            "taken": f"{on}T10:0{n}",
            "finding": 1,
        }
        for n in range(photos)
    ]
    path = tmp_path / f"reinspection-{on}-{len(findings)}.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def images_of(pdf: bytes) -> list[bytes]:
    """The images a PDF shows, page by page, as it holds them."""
    from pypdf import PdfReader

    return [image.data for page in PdfReader(io.BytesIO(pdf)).pages for image in page.images]
