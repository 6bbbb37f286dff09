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
from pathlib import Path

from docgen.documents.exhibits import exhibit_path, file_kind
from docgen.render.html import Attachment

MAX_BYTES = 15 * 1024 * 1024  # a phone's full-resolution JPEG is 2 to 8 MB
MAX_PHOTOS = 24  # per inspection: more is a survey, not an inspection's exhibits
MAX_SIDE = 1600  # pixels: sharp on a printed half page at 200 dpi
WIDTH_IN = 3.1  # two photos side by side on a letter page with 1-inch margins
GPS_IFD = 0x8825  # EXIF's GPSInfo block
ORIENTATION = 0x0112


class PhotoError(ValueError):
    """What is wrong with a photo file."""


@dataclass(frozen=True)
class Prepared:
    attachment: Attachment
    location_kept: bool


def prepare_photo(name: str, case_dir: Path | None, index: int, keep_location: bool) -> Prepared:
    """The photo ``name`` as the report embeds it; PhotoError says what is wrong."""
    path = exhibit_path(name, case_dir)
    if not path.is_file():
        raise PhotoError(f"{name}: no such file")
    size = path.stat().st_size
    if size == 0 or size > MAX_BYTES:
        raise PhotoError(
            f"{name} is {size:,} bytes; a photo is at most {MAX_BYTES // (1024 * 1024)} MB"
        )
    data = path.read_bytes()
    kind = file_kind(data[:8])
    if kind not in ("jpeg", "png"):
        raise PhotoError(f"{name} is not a JPEG or PNG image (read from its first bytes)")
    return Prepared(_embedded(data, kind, name, index, keep_location), keep_location)


def _embedded(data: bytes, kind: str, name: str, index: int, keep_location: bool) -> Attachment:
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
