"""The register as the modules below its face hold it: what they read and write through
(docgen.register.store.Register is one; the modules under it cannot name it, since it
imports them). How they issue through it is docgen.register.matter.asked.Issuer."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Engine


class Opened(Protocol):
    """An open register: where it is, and its engine."""

    url: str
    engine: Engine
