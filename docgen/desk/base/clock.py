"""Moments as the municipality's clock shows them: every time the desk prints is in the
zone its pack names (the certification's ``time_zone``), with the zone's abbreviation,
never the server's zone, never UTC unmarked."""

from __future__ import annotations

from datetime import date, datetime, time
from zoneinfo import ZoneInfo

from docgen.law.deadlines import local_time

__all__ = ["local_time", "wall_time", "zone"]  # local_time: docgen.law.deadlines, for the desk


def zone(jurisdiction: str | None = None) -> ZoneInfo:
    """The zone of ``jurisdiction``'s pack; without one (the audit, the drafts list), the
    zone every installed pack names, or UTC when they name different zones."""
    # law.packs loads yaml (+42 ms): loaded on first use
    from docgen.law.packs import load_pack, pack_names

    names = [jurisdiction] if jurisdiction else pack_names()
    packs = [load_pack(name) for name in names]
    zones = {p.certification.time_zone.value for p in packs if p.certification is not None}
    return ZoneInfo(zones.pop() if len(zones) == 1 else "UTC")


def wall_time(day: date, hhmm: str, here: ZoneInfo) -> str:
    """A time of day typed on the municipality's clock ("10:45", personal delivery) with
    the zone's abbreviation that day: "10:45 EST"."""
    try:
        return f"{datetime.combine(day, time.fromisoformat(hhmm), here):%H:%M %Z}"
    except ValueError:
        return hhmm
