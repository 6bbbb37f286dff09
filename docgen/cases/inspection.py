"""Case parts of an inspection under § 228-79A(1) (LAW.md § 11): the findings, each
practice inspected with what was found and whether it is a deficiency; the photos taken,
each an exhibit with its time; the corrective action each deficiency requires, dated."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from docgen.cases.common import IsoDate, Line, Model, Text, cited

INSPECT = "@inspection.may_inspect"  # the officer's inspection
N = "@inspection.notify"  # the nature of each deficiency and the corrective action
DATES = "@inspection.corrective_dates"  # the date of each corrective action (a reading)
PHOTOS = "photos"  # the case's list of Photo rows, where a kind takes photos (its exhibits)


def _clock(value: Any) -> Any:
    if not isinstance(value, str) or not re.fullmatch(r"([01]\d|2[0-3]):[0-5]\d", value.strip()):
        raise ValueError(f"{value!r} is not a time of day; write it as HH:MM, e.g. 09:30")
    return value.strip()


def _moment(value: Any) -> Any:
    if isinstance(value, datetime):
        return value
    try:
        return datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise ValueError(
            f"{value!r} is not a date and time; write it as YYYY-MM-DDTHH:MM, e.g. 2026-11-30T09:42"
        ) from None


Clock = Annotated[str, BeforeValidator(_clock)]
Moment = Annotated[datetime, BeforeValidator(_moment)]


class Finding(Model):
    """One practice inspected and what the officer found there."""

    practice: Line = cited(
        INSPECT, "the practice or measure inspected, e.g. silt fence, north line"
    )
    location: Text | None = cited(N, "where on the site", default=None)
    found: Text = cited(N, "what was found, as the officer saw it")
    result: Literal["satisfactory", "deficient"] = cited(
        N, "satisfactory, or deficient (a deficiency the notice names)"
    )
    requirement: Text | None = cited(
        N,
        "the provision of the article or the SWPPP requirement it falls short of",
        default=None,
        title="provision or SWPPP requirement",
    )
    corrective_action: Text | None = cited(
        N, "what the applicant or developer must do to correct it", default=None
    )
    due: IsoDate | None = cited(
        DATES, "the date the corrective action must be complete", default=None, title="complete by"
    )
    corrects: int | None = cited(
        N,
        "on a reinspection: the number of the notice's deficiency this finding is about",
        default=None,
        title="deficiency of the notice",
    )

    @property
    def deficient(self) -> bool:
        return self.result == "deficient"


class Photo(Model):
    """A photo taken at the inspection: an exhibit, with the time it was taken."""

    file: Line = cited(INSPECT, "the image file (JPEG or PNG), relative to the case file")
    taken: Moment = cited(
        INSPECT, "when the photo was taken (YYYY-MM-DDTHH:MM)", title="time taken"
    )
    caption: Text | None = cited(INSPECT, "what it shows", default=None)
    finding: int | None = cited(
        INSPECT, "the number of the finding it shows (1 for the first)", default=None
    )
    keep_location: Literal["yes", "no"] = cited(
        INSPECT,
        "yes to keep the location the camera recorded in the file; by default it is removed",
        default="no",
        title="keep location",
    )


class Reinspecting(Model):
    """On a reinspection: the notice of deficiency whose corrective work is inspected."""

    notice: Line = cited(N, "the number of the notice of deficiency")
    issued: IsoDate | None = cited(N, "its issue date", default=None)
