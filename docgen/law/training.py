"""Law stage: is a trained contractor's training current on a certification date?

§ 228-78A, "trained contractor": "After receiving the initial training, the trained
contractor shall receive four hours of training every three years." Reading chosen
(LAW.md §5): training is current through the same calendar day ``valid_years`` later
(from Feb 29 it lands on Feb 28), and lapsed on any later day. The period comes from the
pack (``certification.training_valid_years``); this module holds no figure of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from docgen.law.calendar import years_from
from docgen.law.pack import Pack


def training_current_through(trained: date, valid_years: int) -> date:
    """The last day training given on ``trained`` is current: ``valid_years`` on, same day."""
    return years_from(trained, valid_years)


def training_expired(trained: date, on: date, valid_years: int) -> bool:
    """True when training given on ``trained`` is more than ``valid_years`` old on ``on``."""
    return on > training_current_through(trained, valid_years)


@dataclass(frozen=True)
class TrainingStatus:
    """A trained contractor's training as of the certification date, with its citation."""

    trained: date
    on: date  # the certification date (signed), or the render date for an unsigned form
    current_through: date
    expired: bool
    valid_years: int
    ref: str


def training_status(trained: date, on: date, pack: Pack) -> TrainingStatus | None:
    """The status of training given on ``trained``, read on ``on`` under ``pack``; None
    where the article sets no training period (as §§ 301-71 to 301-73 set none)."""
    period = pack.part("certification").training_valid_years
    if period is None:
        return None
    years = period.value
    return TrainingStatus(
        trained=trained,
        on=on,
        current_through=training_current_through(trained, years),
        expired=training_expired(trained, on, years),
        valid_years=years,
        ref=period.ref,
    )
