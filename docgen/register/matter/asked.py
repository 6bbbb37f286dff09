"""What an issue is asked of a document, and the register as the modules under its face
issue through it (docgen.register.store.Register answers both; the modules that make a
document from another, in matter/ and sites/, cannot name it: it imports them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from docgen.api import Source
from docgen.register.storage.opened import Opened
from docgen.register.storage.records import Issued


@dataclass(frozen=True)
class Issue:
    """What Register.issue is asked of a document besides its kind, its case and where its
    files go (as docgen.register.matter.service_event.Service is what record_service records).

    ``respondent``: an id to take (the document names that record as the register holds
    it, and a new address is added to it; with ``keep_name`` the case's name is kept and
    added to the record as an alias), ``"new"`` to make a new respondent, or None to match
    on the case's name and address (several or near matches raise AmbiguousRespondent
    listing the candidates: docgen.register.people.choices.asked says what each would make
    the penalty). ``supersedes``: the number a correction replaces, ``jurisdiction`` whose
    it is when two municipalities sharing the register both issued that number.
    ``number_gap``: why the numbers before a typed number above its series' next were
    never issued here (docgen.register.rules.numbering); without it such a number is
    refused. ``final``: counsel's edited DOCX of an instrument, kept with the draft, its
    redline and its PDF/A-2b (docgen.register.matter.finals). ``copies``: a copy for each
    person in copies_to, kept with the document (docgen.register.rules.copies).
    ``language``: a courtesy rendition in that language (LAW.md § 13), kept with the same
    number as its own file; None: the one in the language the respondent prefers, if any
    (docgen.register.rules.copies.offered); "en": none.
    """

    respondent: int | str | None = None
    keep_name: bool = False
    supersedes: str | None = None
    jurisdiction: str | None = None
    number_gap: str | None = None
    final: bytes | None = None
    copies: bool = False
    language: str | None = None


class Issuer(Opened, Protocol):
    """An open register that issues: a document made from another is issued through it."""

    def issue(
        self,
        kind: str,
        source: Source,
        asked: Issue | None = ...,
        *,
        formats: Iterable[str] = ...,
        out: str | Path | None = ...,
        by: str | None = ...,
        force: bool = ...,
    ) -> Issued: ...
