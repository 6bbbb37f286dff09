"""The register as the modules below its face hold it: what they read and write through,
and how the documents one makes from another are issued. docgen.register.store.Register
is both; the modules under it cannot name it (it imports them), so they name these."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Protocol

from sqlalchemy import Engine

from docgen.api import Source
from docgen.register.storage.records import Issued


class Opened(Protocol):
    """An open register: where it is, and its engine."""

    url: str
    engine: Engine


class Issuer(Opened, Protocol):
    """An open register that issues: a document made from another is issued through it."""

    def issue(
        self,
        kind: str,
        source: Source,
        *,
        formats: Iterable[str] = ...,
        out: str | Path | None = ...,
        by: str | None = ...,
        force: bool = ...,
        jurisdiction: str | None = ...,
    ) -> Issued: ...
