"""Photos taken at an inspection (§ 228-79A(1); LAW.md § 11), as exhibits of its report.

Each file is checked before anything else reads it: its type by its first bytes (JPEG or
PNG, never its name), its size and the number of photos. The image the report embeds is
made anew by Pillow: at most ``MAX_SIDE`` pixels on its longer side, turned upright as
the camera recorded, and without the camera's location (the EXIF GPS block) unless the
officer keeps it. A photo is evidence of what was seen, not of where the phone was.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache

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
WIDTH_IN = 3.1  # two photos side by side on a letter page with 1-inch margins
GPS_IFD = 0x8825  # EXIF's GPSInfo block
EXIF_IFD = 0x8769  # EXIF's own block, where the camera writes when the photo was taken
TAKEN = 0x9003  # DateTimeOriginal, "YYYY:MM:DD HH:MM:SS"
ORIENTATION = 0x0112


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
        image = Image.open(io.BytesIO(data))
        image.load()
    except Exception as err:  # a damaged file: Pillow raises many kinds
        raise PhotoError(f"{name} cannot be read as a {kind.upper()} image ({err})") from None
    exif = image.getexif()
    upright = ImageOps.exif_transpose(image) or image
    upright.thumbnail((MAX_SIDE, MAX_SIDE))
    if ORIENTATION in exif:
        del exif[ORIENTATION]  # the pixels are upright now
    if not keep_location and GPS_IFD in exif:
        del exif[GPS_IFD]
    out = io.BytesIO()
    if kind == "jpeg":
        upright.convert("RGB").save(out, "JPEG", quality=88, exif=exif.tobytes())
    else:
        upright.save(out, "PNG", exif=exif.tobytes())
    width, height = upright.size
    return Attachment(
        f"photo-{index}",
        f"image/{kind}",
        out.getvalue(),
        WIDTH_IN,
        round(WIDTH_IN * height / width, 3),
    )
