"""Photos taken at an inspection (§ 228-79A(1); LAW.md § 11), as exhibits of its report.

Each file is checked before anything else reads it: its type by its first bytes (JPEG or
PNG, never its name), its size and the number of photos, then its pixels as its header
declares them (at most ``MAX_PIXELS``), before a pixel is decoded. The image the report
embeds is made anew by Pillow: at most ``MAX_SIDE`` pixels on its longer side, turned
upright as the camera recorded, its colours brought to sRGB when the camera recorded
another space, and with nothing else of what the camera or an editor wrote but the time
it was taken (EXIF's DateTimeOriginal) and, when the officer keeps it, the location (the
GPS block): no name, copyright, description, owner, serial number, comment, XMP, ICC
profile or text chunk reaches the draft's folder or an issued document. A photo is
evidence of what was seen, not of who held the camera or where the phone was.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from docgen.documents.exhibits import (
    CaseFiles,
    ExhibitError,
    exhibit_path,
    file_kind,
    read_case_file,
)
from docgen.render.html import Attachment

MAX_BYTES = 15 * 1024 * 1024  # a phone's full-resolution JPEG is 2 to 8 MB
MAX_PHOTOS = 24  # per inspection: more is a survey, not an inspection's exhibits
MAX_SIDE = 1600  # pixels: sharp on a printed half page at 200 dpi
# pixels a photo may have, read from its header before it is decoded: a phone's largest
# sensor takes 48 million; decoded, 50 million RGB pixels take 150 MB (a 670 KB PNG can
# declare 177 million, 2.5 GB)
MAX_PIXELS = 50_000_000
WIDTH_IN = 3.1  # two photos side by side on a letter page with 1-inch margins
GPS_IFD = 0x8825  # EXIF's GPSInfo block
EXIF_IFD = 0x8769  # EXIF's own block, where the camera writes when the photo was taken
TAKEN = 0x9003  # DateTimeOriginal, "YYYY:MM:DD HH:MM:SS"


class PhotoError(ExhibitError):
    """What is wrong with a photo file (an exhibit of the report)."""


@dataclass(frozen=True)
class Prepared:
    attachment: Attachment
    location_kept: bool


def prepare_photo(
    name: str, case_dir: CaseFiles | None, index: int, keep_location: bool
) -> Prepared:
    """The photo ``name`` as the report embeds it; ExhibitError says what is wrong. The
    check and the render both ask for it: it is made once per file as it is on disk."""
    path = exhibit_path(name, case_dir)
    try:
        found = path.stat()
    except OSError:
        found = None
    stamp = (found.st_mtime_ns, found.st_size) if found is not None else None
    return _prepared(name, case_dir, index, keep_location, str(path), stamp)


@lru_cache(maxsize=MAX_PHOTOS)
def _prepared(
    name: str,
    case_dir: CaseFiles | None,
    index: int,
    keep_location: bool,
    _path: str,
    _stamp: tuple[int, int] | None,
) -> Prepared:
    data, kind = read_case_file(name, case_dir, MAX_BYTES, "a photo")
    if kind not in ("jpeg", "png"):
        raise PhotoError(f"{name} is not a JPEG or PNG image (read from its first bytes)")
    return Prepared(_embedded(data, kind, name, index, keep_location), keep_location)


@dataclass(frozen=True)
class Upload:
    """A photo sent from the desk, as it is kept for the report (``data``, ``extension``),
    and the time its camera says it was taken (None: it says none)."""

    data: bytes
    extension: str
    taken: datetime | None


def uploaded(data: bytes, name: str, keep_location: bool) -> Upload:
    """A photo sent from a phone, checked as a case file's is (its size, its type by its
    first bytes, an image Pillow reads) and made anew the same way (at most ``MAX_SIDE``
    pixels, upright, the location removed unless kept): what is kept is what the report
    embeds, so no location the officer did not keep is ever stored. PhotoError says what
    is wrong, naming the file."""
    if not 0 < len(data) <= MAX_BYTES:
        raise PhotoError(
            f"{name} is {len(data):,} bytes; a photo is between 1 byte and "
            f"{MAX_BYTES // (1024 * 1024)} MB"
        )
    kind = file_kind(data[:8])
    if kind not in ("jpeg", "png"):
        raise PhotoError(f"{name} is not a JPEG or PNG image (read from its first bytes)")
    made = _embedded(data, kind, name, 1, keep_location)
    return Upload(made.data, "jpg" if kind == "jpeg" else "png", _taken(made.data))


def _taken(data: bytes) -> datetime | None:
    # PIL takes 12 ms to import: loaded on first use
    from PIL import Image

    written = Image.open(io.BytesIO(data)).getexif().get_ifd(EXIF_IFD).get(TAKEN)
    try:
        return datetime.strptime(str(written).strip(), "%Y:%m:%d %H:%M:%S")
    except ValueError:  # none, or not as EXIF writes it: the officer types the time
        return None


def _embedded(data: bytes, kind: str, name: str, index: int, keep_location: bool) -> Attachment:
    # PIL takes 14 ms to import: loaded on first use
    from PIL import Image, ImageOps

    try:
        image = Image.open(io.BytesIO(data))  # the header only: no pixel decoded yet
        width, height = image.size
    except Exception as err:  # a damaged file: Pillow raises many kinds
        raise PhotoError(f"{name} cannot be read as a {kind.upper()} image ({err})") from None
    if width * height > MAX_PIXELS:
        raise PhotoError(
            f"{name} is {width:,} by {height:,} pixels ({width * height / 1e6:,.0f} "
            f"megapixels); a photo may have at most {MAX_PIXELS // 1_000_000} megapixels. "
            "Send the photo as the phone took it, or a smaller copy"
        )
    try:
        image.load()
    except Exception as err:  # a damaged file: Pillow raises many kinds
        raise PhotoError(f"{name} cannot be read as a {kind.upper()} image ({err})") from None
    exif = image.getexif()
    upright = _in_srgb(ImageOps.exif_transpose(image) or image)
    upright.thumbnail((MAX_SIDE, MAX_SIDE))
    kept = _kept_exif(exif, keep_location)
    # nothing of the file's own metadata is carried (a JPEG comment, XMP, an ICC profile,
    # a PNG's text chunks): only a PNG palette's transparent colour, part of its pixels
    upright.info = {k: v for k, v in upright.info.items() if k == "transparency"}
    out = io.BytesIO()
    if kind == "jpeg":
        upright.convert("RGB").save(out, "JPEG", quality=88, exif=kept.tobytes())
    else:
        upright.save(out, "PNG", exif=kept.tobytes())
    width, height = upright.size
    return Attachment(
        f"photo-{index}",
        f"image/{kind}",
        out.getvalue(),
        WIDTH_IN,
        round(WIDTH_IN * height / width, 3),
    )


def _kept_exif(exif: Any, keep_location: bool) -> Any:
    """Of what the camera wrote, what a photo keeps: the time it was taken, and the
    location when the officer keeps it (the orientation is in the pixels by then)."""
    # PIL takes 14 ms to import: loaded on first use
    from PIL import Image

    kept = Image.Exif()
    taken = exif.get_ifd(EXIF_IFD).get(TAKEN)
    if taken is not None:
        kept.get_ifd(EXIF_IFD)[TAKEN] = taken
    location = exif.get_ifd(GPS_IFD) if keep_location else {}
    if location:
        kept.get_ifd(GPS_IFD).update(location)
    return kept


def _in_srgb(image: Any) -> Any:
    """``image`` with its colours in sRGB when its ICC profile names another space (a
    phone's Display P3): the profile is not kept, so it is applied to the pixels. One that
    cannot be read is dropped, as a browser would ignore it."""
    icc = image.info.get("icc_profile")
    if not icc or image.mode not in ("RGB", "RGBA"):
        return image
    # PIL.ImageCms loads littlecms (+5 ms): loaded on first use
    from PIL import ImageCms

    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        converted = ImageCms.profileToProfile(
            image, source, ImageCms.createProfile("sRGB"), outputMode=image.mode
        )
    except (ImageCms.PyCMSError, OSError, ValueError):
        return image
    return converted if converted is not None else image
