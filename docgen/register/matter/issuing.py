"""Issuing a document into the register: one transaction from case to record.

Flow: case -> respondent matched -> offense history from the register -> pure law ->
render (docgen.api) -> record, hashes and bytes stored in one transaction with the
number -> commit -> files written. Files can always be exported again from the record,
so a crash after the commit loses nothing; a crash before it leaves no number used.

The document is rendered outside the write transaction that records it
(docgen.register.matter.rendering): a number is taken only in the transaction that
records its document, gap-free and never twice.

What the register reads of a case (its issue date, party, site, the offense it charges)
is the kind's own description (docgen.documents.kind.Spec): nothing here knows a kind
by its name or a case by its fields.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen import __version__, api
from docgen.cases.labels import capital
from docgen.documents import a_title, get_kind, kind_named
from docgen.documents.kind import Addressee, Bundle, Correction, Kind
from docgen.documents.pipeline import jurisdiction_of, prepare
from docgen.errors import CaseInvalid, DocgenError, Problem
from docgen.faults import checkpoint
from docgen.law.pack import Pack, municipal_today
from docgen.law.packs import load_pack, pack_file
from docgen.law.provisions import cited_problems
from docgen.register.keeping.restores import refuse_until_accounted
from docgen.register.matter import checks
from docgen.register.matter.answers import check_escalation, check_reinspection
from docgen.register.matter.extended import refuse_shortened
from docgen.register.matter.finals import COUNSEL_FILES, FINAL, counsel_files, counsel_targets
from docgen.register.matter.rendering import ISSUING, Job, rendered_for, sealing_of, unmarked_docx
from docgen.register.people.choices import named_as, refuse_keep_name
from docgen.register.people.history import add_offense, current_offense, priors, priors_used
from docgen.register.people.import_runs import history_incomplete
from docgen.register.people.matching import words_of
from docgen.register.people.respondents import parse_id, prefer, ref, resolve
from docgen.register.rules.copies import (
    copy_of,
    offered,
    rendition_of,
)
from docgen.register.rules.numbering import next_number, normalize, typed_ahead, typed_number
from docgen.register.rules.rows import document_row, lifter, line_of, successor
from docgen.register.storage.audit import record
from docgen.register.storage.db import RegisterError
from docgen.register.storage.models import Document, DocumentFile, Respondent, Site, kept_version
from docgen.register.storage.records import Issued
from docgen.register.storage.standing import persons
from docgen.render.output import pending_writes, safe_name, write_files

if TYPE_CHECKING:
    from docgen.documents.exhibits import CaseFiles

PLACEHOLDER = "NUMBER-TO-BE-ASSIGNED"


def pack_version(pack_id: str) -> str:
    """The pack a document was issued under: the SHA-256 of its text (first 16 digits),
    read from the file as it is now (a pack edited while a desk runs is hashed anew)."""
    path = pack_file(pack_id)
    stat = path.stat()
    return _pack_hash(pack_id, str(path), stat.st_mtime_ns, stat.st_size)


_HASHES: dict[tuple[str, str, int, int], str] = {}


def _pack_hash(pack_id: str, path: str, mtime: int, size: int) -> str:
    key = (pack_id, path, mtime, size)
    if key not in _HASHES:
        text = Path(path).read_bytes()
        _HASHES[key] = f"{pack_id}:{hashlib.sha256(text).hexdigest()[:16]}"
    return _HASHES[key]


@dataclass(frozen=True)
class Facts:
    """What the register reads from a validated case before rendering it."""

    spec: Kind | Bundle
    case: Any
    pack: Pack
    issued: date
    party: Addressee | None
    site: tuple[str, str | None, str | None, str | None] | None  # key, address, descr., tax map


def facts(
    spec: Kind | Bundle, data: dict[str, Any], source: str, case_dir: CaseFiles | None = None
) -> Facts:
    """The case validated as the register issues it (before service, its number still to
    be assigned), with what its kind says of it (``case_dir``: the case file's folder, where
    the files it names are read)."""
    probe = dict(data)
    if spec.numbered and not probe.get("number"):
        probe["number"] = PLACEHOLDER
    case, pack = prepare(spec, probe, replace(ISSUING, case_dir=case_dir), source)
    issued = spec.issued(case) or today()
    if issued > municipal_today(pack):
        problem = Problem(
            "issued",
            f"{issued}: after today ({municipal_today(pack)} in the {pack.name.value}); a "
            "document is recorded on the day it is issued, never ahead: date it today, or "
            "issue it on its day",
            "a record states what has happened: LAW.md §§ 3, 10",
        )
        raise CaseInvalid([problem], source, kind=spec.name)
    place = spec.site(case)
    site = None
    if place is not None:
        named = (place.address, place.tax_map if place.by_tax_map else None, place.description)
        key = "|".join(words_of(p or "") for p in named)
        site = (key, place.address, place.description, place.tax_map)
    return Facts(spec, case, pack, issued, spec.party(case), site)


def today() -> date:
    return datetime.now(ZoneInfo("America/New_York")).date()


@dataclass(frozen=True)
class Request:
    """One document to issue, as Register.issue was asked."""

    kind: str
    data: dict[str, Any]
    name: str
    respondent: int | str | None
    formats: tuple[str, ...]
    out: str | Path | None
    who: str
    pdf_variant: str | None = None
    supersedes: str | None = None
    force: bool = False
    about: int | None = None  # the document an affidavit of service proves service of
    sealing: checks.Sealing | None = None  # the signing key, opened before the transaction
    final: bytes | None = (
        None  # counsel's final DOCX of an instrument (docgen.register.matter.finals)
    )
    copies: bool = False  # a copy for each person in copies_to (docgen.register.rules.copies)
    # A courtesy rendition in this language (LAW.md § 13); None: in the language the
    # respondent prefers, if the kind has one (copies.offered); "en": none.
    language: str | None = None
    jurisdiction: str | None = None  # whose ``supersedes`` it is, where two hold the number
    case_dir: CaseFiles | None = None  # the case file's folder (or the files sent with it)
    number_gap: str | None = None  # why a typed number may leave the numbers before it unused
    # With ``respondent`` an id: the document keeps the party's name as typed and the
    # register records it as an alias of that record; otherwise it names the record as
    # the register holds it (LAW.md § 2(a); docgen.register.people.choices.named_as).
    keep_name: bool = False
    # Made by the register's own step from what it holds (a kind ``made_by_register``: the
    # SWPPP's letters from a review, a statement of fees from the services recorded).
    made_by_register: bool = False


def sealing_for(data: dict[str, Any]) -> checks.Sealing | None:
    """The municipality's key opened and checked before anything is numbered (None: the
    case names no valid jurisdiction; its problems are reported with the others)."""
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid:
        return None
    return checks.prepare(pack)


class NotWritten(RegisterError):
    """The document is recorded (its number is used) but its files could not be written."""

    def __init__(self, number: str, cause: str):
        self.number = number
        super().__init__(
            f"{number} was recorded; its files were not written: {cause}; write them with "
            f"`docgen export {number} -o DIR`"
        )


def write_out(issued: Issued, targets: dict[str, Path], force: bool) -> Issued:
    """Write the issued bytes (after the commit): the record always exists first, so a
    failure here says that the number was recorded and how to write its files again."""
    if not targets:
        return issued
    try:
        written = write_files({targets[f]: issued.files[f] for f in targets}, force)
    except (DocgenError, OSError) as err:
        raise NotWritten(issued.number, str(err).removeprefix("error: ")) from None
    return replace(issued, paths=tuple(written))


def refuse_typed_priors(data: dict[str, Any], name: str) -> None:
    if "prior_offenses" not in data:
        return
    problem = Problem(
        "prior_offenses",
        "remove it: under `docgen issue` the offense history comes from the "
        "register (its recorded convictions), so a case cannot also type its "
        "own; import earlier convictions with `docgen register import-history`",
        "@penalties",
    )
    try:
        pack: Pack | None = jurisdiction_of(data)
    except CaseInvalid:
        pack = None  # the case's other problems are reported once this one is gone
    raise CaseInvalid(cited_problems([problem], pack), name)


def _rests_on(request: Request, spec: Kind | Bundle, old: Document | None) -> int | None:
    """The document this one is about: as asked, or for the correction of a step the
    register made (a later date, an appeal's step, a hold, a restoration, a lien), the one
    the step rested on, so that the correction rests there too (what it keeps is checked
    by check_made_here)."""
    if request.about is None and old is not None and spec.made_by_register:
        return old.about_id
    return request.about


def source_hash(request: Request) -> str:
    """The content hash of what was asked: the kind, the case or draft as loaded, and the
    document it corrects or proves service of. The same request is the same document."""
    return asked_hash(request.kind, request.data, request.supersedes, request.about)


def asked_hash(
    kind: str, data: dict[str, Any], supersedes: str | None = None, about: int | None = None
) -> str:
    """:func:`source_hash` of a request to issue ``kind`` from ``data`` (a first issue,
    by default): a batch asks the register by it what its cases were recorded as."""
    asked = {"kind": kind, "case": data, "supersedes": supersedes, "about": about}
    text = json.dumps(asked, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def numbers_asked(session: Session, hashes: list[str]) -> dict[str, str]:
    """The numbers of the documents recorded for these requests (:func:`asked_hash`)."""
    if not hashes:
        return {}
    rows = session.execute(
        select(Document.source_sha256, Document.number).where(Document.source_sha256.in_(hashes))
    )
    return {asked: number for asked, number in rows if asked is not None}


def issued_before(session: Session, source: str) -> Document | None:
    return session.scalar(select(Document).where(Document.source_sha256 == source))


def again(session: Session, row: Document, request: Request) -> tuple[Issued, dict[str, Path]]:
    """The document ``row`` issued before from the same request, as stored: nothing new
    is numbered, rendered or recorded; its files are written again where asked."""
    files = {f.format: f.content for f in row.files if f.format in request.formats}
    stem = safe_name(f"{row.number}-{row.kind}", fallback=row.kind)
    counsel = {}
    if request.final is not None:
        counsel = {f.format: f.content for f in row.files if f.format in COUNSEL_FILES}
    targets = out_targets(request.out, stem, files, counsel)
    if request.copies:
        kept = {
            f.format: f.content
            for f in row.files
            if (found := copy_of(f.format)) and found[1] in request.formats
        }
        if not kept:
            raise RegisterError(
                f"{row.number} was issued from this case without copies; its number "
                "stands as issued: render the copies with `docgen render --copies`"
            )
        files |= kept
        if request.out is not None:
            targets |= copy_targets(request.out, stem, kept)
    if request.final is not None:
        final = next((f for f in row.files if f.format == FINAL), None)
        if final is None or final.content != request.final:
            raise RegisterError(
                f"{row.number} was issued from this case "
                + ("without counsel's final" if final is None else "with another final")
                + "; its number stands as issued: a final text for it is a correction "
                "(`docgen supersede` with --final)"
            )
    files |= counsel
    old = session.get(Document, row.supersedes_id) if row.supersedes_id else None
    issued = Issued(
        id=row.id,
        number=row.number,
        kind=row.kind,
        jurisdiction=row.jurisdiction,
        issued=row.issued,
        respondent=ref(row.respondent) if row.respondent else None,
        priors=(),
        hashes={f.format: f.sha256 for f in row.files},
        files=files,
        stem=stem,
        supersedes=old.number if old is not None else None,
        repeated=True,
    )
    return issued, targets


def out_targets(
    out: str | Path | None, stem: str, files: dict[str, bytes], counsel: dict[str, bytes]
) -> dict[str, Path]:
    """Where ``-o`` writes: the document's files; with counsel's final, counsel's files
    instead (the PDF/A to record, the final DOCX, the redline: docgen.register.matter.finals),
    the draft staying in the register (`docgen export NUMBER -f docx`)."""
    if out is None:
        return {}
    if counsel:
        return counsel_targets(out, stem, counsel)
    return api.output_paths(out, stem, files)


def copy_targets(out: str | Path, stem: str, copies: dict[str, bytes]) -> dict[str, Path]:
    """Where each stored copy file goes: beside the original in the directory ``out``,
    named ``<stem>-copy-N.<format>`` as `docgen render --copies` names them."""
    folder = api.copies_folder(out)
    targets = {}
    for stored in copies:
        if (rendition := rendition_of(stored)) is not None:
            targets[stored] = folder / f"{stem}-{rendition[0]}.{rendition[1]}"
            continue
        index, fmt = copy_of(stored) or (0, stored)
        targets[stored] = folder / f"{stem}-copy-{index + 1}.{fmt}"
    return targets


def as_chosen(
    session: Session, kind: str, data: dict[str, Any], chosen: int | str | None, keep: bool
) -> dict[str, Any]:
    """The case naming its party as the record the clerk chose (``chosen``: an id) is
    held in the register, so the issued document names whom its history and penalty are
    read against (LAW.md § 2(a), § 4); ``keep``: the name as typed stays (and becomes an
    alias of that record: docgen.register.people.respondents.remember). An id no record has is
    refused by the match (docgen.register.people.respondents.resolve)."""
    if keep:
        refuse_keep_name(chosen)
        return data
    number = parse_id(chosen) if chosen is not None else None
    record = session.get(Respondent, number) if number is not None else None
    return named_as(kind, data, record.name) if record is not None else data


def issue_in(session: Session, request: Request) -> tuple[Issued, dict[str, Path]]:
    """Issue inside the caller's write transaction: (the record, where its files go).
    Inside rendering.rendered_outside, the document is rendered outside that transaction
    (which stops at its render the first time: rendering.rendered_for).

    A request issued before (the same case or draft: :func:`source_hash`) returns that
    document; the hash is recorded with the document, in the same transaction."""
    source = source_hash(request)
    first = issued_before(session, source)
    if first is not None:
        return again(session, first, request)
    kind, data, name = request.kind, copy.deepcopy(request.data), request.name
    respondent, formats, out = request.respondent, request.formats, request.out
    who, supersedes = request.who, request.supersedes
    spec = kind_named(kind)
    refuse_typed_priors(data, name)
    data = as_chosen(session, kind, data, respondent, request.keep_name)
    found = facts(spec, data, name, request.case_dir)
    check_reinspection(session, kind, data, found.pack.id)
    check_escalation(session, kind, data, found.pack.id)
    old = document_row(session, supersedes, request.jurisdiction) if supersedes else None
    if old is not None:
        check_supersede(session, old, kind, found.pack.id)
        refuse_shortened(session, old, data)  # LAW.md § 11: never shortened
    if spec.made_by_register and not request.made_by_register:
        check_made_here(spec, found.case, old)
    person, created = None, False
    expected = old.respondent_id if old is not None else None
    if found.party is not None:  # a new respondent is made once the document is rendered
        person, created = resolve(
            session, found.party.name, found.party.address, respondent, who, expected, False
        )
    read: list[tuple[dict[str, Any], str]] = []
    incomplete: list[str] = []
    if spec.reads_history and (person is not None or created):
        # The notice a statement follows must be here, whoever the respondent (reading 11).
        current = current_offense(session, found.case, found.pack)
        if person is not None:  # a new respondent has no history
            skip = old.id if old is not None else None
            read = priors(session, person.id, found.pack.id, found.issued, skip, current)
        data["prior_offenses"] = [p for p, _ in read]
        incomplete = history_incomplete(session)  # an import not finished: said on issue
    refuse_until_accounted(session)  # a restored register: numbers used since its backup
    number = data.get("number") if spec.numbered else None
    if number and old is not None and normalize(number) == old.number:
        number = None  # a correction restating its original's number gets a new one
    if not number:
        number = take_number(session, found, kind)
        if spec.numbered:
            data["number"] = number
    else:
        number = data["number"] = typed_number(found.pack, kind, found.issued.year, number)
        if session.scalar(
            select(Document.id).where(
                Document.jurisdiction == found.pack.id, Document.number == number
            )
        ):
            raise RegisterError(
                f"number: {number} is already issued in this register; a corrected "
                f"document is issued with `docgen supersede {number} CASE`"
            )
        typed_ahead(session, found.pack, kind, number, request.number_gap, who)
    checkpoint("numbered")
    sealing = request.sealing or sealing_of(found.pack)
    officer = checks.signing_officer(sealing, kind, data)
    corrects = correction_of(session, old, found) if old is not None else None
    preferred = found.party.language if found.party is not None else None
    if preferred is None and person is not None:
        preferred = person.language  # as the register keeps it from an earlier case
    language = offered(kind, request.language, preferred)
    job = Job(
        kind,
        copy.deepcopy(data),
        name,
        formats,
        request.pdf_variant,
        request.copies,
        sealing,
        officer,
        corrects,
        number,
        request.case_dir,
        language,
    )
    made = rendered_for(job)
    files, copies, doc, code = dict(made.files), made.copies, made.document, made.code
    checkpoint("rendered")
    if person is None and created and (party := found.party) is not None:  # made now
        person, created = resolve(session, party.name, party.address, respondent, who, expected)
    if person is not None and found.party is not None and found.party.language is not None:
        prefer(session, person, found.party.language, who)  # as this case says
    stem = safe_name(doc.filename or number, fallback=kind)
    counsel = {}
    if request.final is not None:  # made before the write is prepared: it writes these
        counsel = counsel_files(unmarked_docx(job), request.final, who, number)
    if counsel:  # named by the register's number, as `export` names them
        targets = out_targets(out, safe_name(f"{number}-{kind}", fallback=kind), files, counsel)
    else:
        targets = out_targets(out, stem, files, counsel)
    if out is not None and (request.copies or language):
        targets |= copy_targets(out, stem, copies)
    files |= copies | counsel
    pending_writes({targets[f]: files[f] for f in targets}, request.force)
    row = Document(
        jurisdiction=found.pack.id,
        kind=kind,
        number=number,
        issued=found.issued,
        respondent_id=person.id if person else None,
        site_id=site_id(session, found),
        supersedes_id=old.id if old is not None else None,
        about_id=_rests_on(request, spec, old),
        case=json.loads(json.dumps(data, default=str)),  # dates as ISO text
        remedies_due=spec.remedies_due(found.case),
        docgen_version=kept_version(__version__),
        pack_version=pack_version(found.pack.id),
        recorded_at=datetime.now().astimezone(),
        recorded_by=who,
        source_sha256=source,
    )
    session.add(row)
    session.flush()
    hashes = {}
    for fmt, blob in files.items():
        hashes[fmt] = hashlib.sha256(blob).hexdigest()
        session.add(
            DocumentFile(
                document_id=row.id,
                format=fmt,
                sha256=hashes[fmt],
                size=len(blob),
                content=blob,
            )
        )
    signed = sealing.signer is not None and "pdf" in files
    checks.record_code(session, row.id, code, signed)
    charge = spec.charge(found.case) if spec.charge is not None else None
    if charge is not None and person is not None:
        add_offense(session, row, person.id, found.pack.id, charge, old)
    detail: dict[str, Any] = {"number": number, "kind": kind, "sha256": hashes}
    if old is not None:
        detail["supersedes"] = old.number
    record(session, who, "issue", "document", row.id, detail)
    session.flush()
    checkpoint("recorded")
    issued = Issued(
        id=row.id,
        number=number,
        kind=kind,
        jurisdiction=found.pack.id,
        issued=found.issued,
        respondent=ref(person, created) if person else None,
        priors=priors_used(found.case, found.pack, read),
        hashes=hashes,
        files=files,
        stem=stem,
        warnings=(*doc.warnings, *sealing.warnings, *incomplete),
        supersedes=old.number if old is not None else None,
        access_code=code,
        signed=signed,
        language=language,
        preferred=language is not None and request.language is None,
    )
    return issued, targets


def correction_of(session: Session, old: Document, found: Facts) -> Correction:
    """What a correction of ``old`` says it replaces (LAW.md § 2, "Corrections"): ``old``,
    the line back to the first, and the latest document of the line served on the
    landowner, as the register derives service (docgen.register.storage.standing)."""
    line = line_of(session, old)  # oldest first, ending with ``old``
    served = None
    for doc in reversed(line):
        people = persons(doc, load_pack(doc.jurisdiction, doc.issued)) if doc.services else ()
        if people and people[0].complete is not None:
            served = (doc.number, people[0].complete)
            break
    return Correction(
        number=old.number,
        issued=old.issued,
        earlier=tuple((d.number, d.issued) for d in reversed(line[:-1])),
        served=served,
        person=found.party.name if found.party is not None else "",
    )


def check_supersede(session: Session, old: Document, kind: str, jurisdiction: str) -> None:
    if old.kind != kind:
        raise RegisterError(
            f"{old.number} is {a_title(old.kind)}; a correction is {a_title(old.kind)} too, "
            f"not {a_title(kind)}"
        )
    if old.jurisdiction != jurisdiction:
        raise RegisterError(
            f"jurisdiction: {old.number} is {old.jurisdiction}'s; a correction is issued by "
            f"the municipality that issued the original, not {jurisdiction}"
        )
    later = successor(session, old.id)
    if later:
        raise RegisterError(f"{old.number} was already superseded by {later}; supersede {later}")
    lifted = lifter(session, old)
    if lifted:  # its correction would be an order in effect that nobody lifted
        raise RegisterError(
            f"{old.number} was lifted by {lifted}; an order no longer in effect is not "
            f"corrected: issue a new order if one is needed "
            f"({load_pack(old.jurisdiction).require(get_kind(old.kind))})"
        )


def check_made_here(spec: Kind | Bundle, case: Any, old: Document | None) -> None:
    """A kind the register makes from what it holds is never issued from a typed case
    (LAW.md § 15: never an approval with an item open, never a fee for a service the
    register has no record of); a correction of one keeps what the register made of it."""
    if old is None:
        raise RegisterError(
            f"{capital(spec.a_title)} is not issued from a typed case: "
            "the register makes it "
            f"{spec.made_by_register}"
        )
    made = type(case).model_validate(old.case).model_dump(mode="json")
    typed = case.model_dump(mode="json")
    changed = dict.fromkeys(words for key, words in spec.keeps if typed.get(key) != made.get(key))
    if changed:
        raise RegisterError(
            f"{old.number}: a correction keeps what the register made of it; this one changes "
            f"{', '.join(changed)}. It is made again {spec.made_by_register}"
        )


def take_number(session: Session, found: Facts, kind: str) -> str:
    return next_number(session, found.pack, kind, found.issued.year)


def site_id(session: Session, found: Facts) -> int | None:
    if found.site is None:
        return None
    key, line, description, tax_map = found.site
    existing = session.scalar(select(Site).where(Site.site_key == key).limit(1))
    if existing is not None:
        if tax_map and not existing.tax_map:  # a site registered before its tax map was given
            existing.tax_map = tax_map
        return existing.id
    site = Site(site_key=key, address=line, description=description, tax_map=tax_map)
    session.add(site)
    session.flush()
    return site.id
