"""The register as a library: ``Register.open()`` and the verbs the CLI and the desk call.

    from docgen.register import Register
    reg = Register.open()                      # DOCGEN_DATABASE_URL, or the SQLite file
    issued = reg.issue("notice-of-violation", "case.yaml", out="out/")
    reg.record_service(issued.number, "certified-mail", date(2026, 11, 4), article="9407...")
    reg.record_disposition(issued.number, "convicted", date(2027, 1, 12), court="Village Court")
    reg.history(issued.respondent.id)

Flow of an issue: case -> respondent matched -> offense history from the register ->
pure law -> render (docgen.api) -> record, hashes and bytes stored in one transaction
with the number -> commit -> files written. Files can always be exported again from the
record, so a crash after the commit loses nothing; a crash before it leaves no number used.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, exists, func, or_, select
from sqlalchemy.orm import Session, aliased

from docgen import __version__, api
from docgen.cases.validate import cited_problems
from docgen.documents import get_kind
from docgen.documents.base import Kind, Options, jurisdiction_of, prepare
from docgen.errors import CaseInvalid, Problem
from docgen.law.pack import Pack
from docgen.law.packs import load_pack
from docgen.law.penalties import disposition_problem, is_current_offense
from docgen.register import checks, db
from docgen.register.audit import actor, record
from docgen.register.db import RegisterError, guarded
from docgen.register.faults import checkpoint
from docgen.register.models import (
    DISPOSITIONS,
    Document,
    DocumentFile,
    Offense,
    Respondent,
    Site,
)
from docgen.register.records import (
    DocumentRecord,
    History,
    Issued,
    OffenseRecord,
    PriorUsed,
    Verified,
)
from docgen.register.respondents import candidates, ref, resolve
from docgen.render.output import pending_writes, safe_name, write_files

PLACEHOLDER = "NUMBER-TO-BE-ASSIGNED"
# The register may issue a notice before it is served: `record-service` then records the
# service and issues the affidavit of service that states the last day to appeal.
ISSUING = Options(before_service=True)


@cache
def pack_version(pack_id: str) -> str:
    """The pack a document was issued under: the SHA-256 of its text (first 16 digits)."""
    from docgen.law.packs import pack_file

    text = pack_file(pack_id).read_bytes()
    return f"{pack_id}:{hashlib.sha256(text).hexdigest()[:16]}"


@dataclass(frozen=True)
class _Facts:
    """What the register reads from a validated case before rendering it."""

    case: Any
    pack: Pack
    issued: date
    party: Any | None  # .name, .address
    site: tuple[str, str | None, str | None, str | None] | None  # key, address, descr., tax map


def _facts(spec: Kind, data: dict[str, Any], source: str) -> _Facts:
    probe = dict(data)
    if "number" in spec.model.model_fields and not probe.get("number"):
        probe["number"] = PLACEHOLDER
    case, pack = prepare(spec, probe, ISSUING, source)
    issued = getattr(case, "issued", None)
    if issued is None and getattr(case, "agreement", None) is not None:
        issued = case.agreement.date
    if issued is None and getattr(case, "service", None) is not None:
        issued = case.service.date  # an affidavit of service: the day of service
    if issued is None:
        from zoneinfo import ZoneInfo

        issued = datetime.now(ZoneInfo("America/New_York")).date()
    party = getattr(case, "recipient", None) or getattr(case, "owner", None)
    place = getattr(case, "site", None) or getattr(case, "property", None)
    site = None
    if place is not None:
        address = getattr(place, "address", None)
        line = address.one_line() if hasattr(address, "one_line") else address
        description = getattr(place, "description", None)
        tax_map = getattr(place, "tax_map", None)
        tax_map = str(tax_map) if tax_map is not None else None
        from docgen.register.matching import _words

        key = _words(line or "") + "|" + _words(tax_map or "") + "|" + _words(description or "")
        site = (key, line, description, tax_map)
    return _Facts(case, pack, issued, party, site)


def _committed(case: Any) -> tuple[date, date | None] | None:
    """The current offense's dates as the penalty reads them (§ 228-79C(4)): the earliest
    day observed (or the case's ``offense``), and the last day any violation continued."""
    offense = getattr(case, "offense", None)
    if offense is not None:
        return offense.committed, offense.continued_through
    violations = getattr(case, "violations", [])
    if not violations:
        return None
    through = [v.continued_through for v in violations if getattr(v, "continued_through", None)]
    return min(v.observed for v in violations), max(through, default=None)


@dataclass(frozen=True)
class _Request:
    """One document to issue, as Register.issue was asked."""

    kind: str
    data: dict[str, Any]
    name: str
    respondent: int | str | None
    formats: tuple[str, ...]
    out: str | Path | None
    who: str
    pdf_variant: str | None
    supersedes: str | None
    force: bool
    about: int | None = None  # the document an affidavit of service proves service of
    sealing: checks.Sealing | None = None  # the signing key, opened before the transaction


def _sealing(data: dict[str, Any]) -> checks.Sealing | None:
    """The municipality's key opened and checked before anything is numbered (None: the
    case names no valid jurisdiction; its problems are reported with the others)."""
    try:
        pack = jurisdiction_of(data)
    except CaseInvalid:
        return None
    return checks.prepare(pack)


def _write_out(issued: Issued, targets: dict[str, Path], force: bool) -> Issued:
    """Write the issued bytes (after the commit): the record always exists first."""
    if not targets:
        return issued
    written = write_files({targets[f]: issued.files[f] for f in targets}, force)
    return replace(issued, paths=tuple(written))


class Register:
    """One register (a database); every method is one transaction."""

    def __init__(self, engine: Engine, url: str):
        self.engine = engine
        self.url = url

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(cls, url: str | None = None, migrate: bool = True, timeout: float = 30.0):
        """The register at ``url`` (default: DOCGEN_DATABASE_URL, or the SQLite file in
        DOCGEN_HOME), migrated to the newest schema on first use unless ``migrate`` is off."""
        url = url or db.default_url()
        engine = db.make_engine(url, timeout)
        reg = cls(engine, url)
        with guarded(url):
            if migrate and db.current_revision(engine) != db.HEAD:
                db.upgrade(engine)
        return reg

    def upgrade(self) -> tuple[str | None, str]:
        """Run the migrations (``docgen register upgrade``): (revision before, after)."""
        with guarded(self.url):
            return db.upgrade(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> Register:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- issuing -------------------------------------------------------------------------
    def issue(
        self,
        kind: str,
        source: api.Source,
        *,
        respondent: int | str | None = None,
        formats: Iterable[str] = api.FORMATS,
        out: str | Path | None = None,
        by: str | None = None,
        pdf_variant: str | None = None,
        supersedes: str | None = None,
        force: bool = False,
    ) -> Issued:
        """Number, render, record and (with ``out``) write a document.

        ``respondent``: an id to take (its name and address are added to the record as
        an alias and an address when new), ``"new"`` to make a new respondent, or None to
        match on the case's name and address (several or near matches raise
        AmbiguousRespondent listing the candidates). A case may not list
        ``prior_offenses``: the register is the history the penalty reads. With ``out``,
        the files are written after the record is committed; a different file already at
        a path stops the issue before anything is recorded (unless ``force``).
        """
        data, name = api.load(source)
        request = _Request(
            kind,
            data,
            name,
            respondent,
            tuple(formats),
            out,
            actor(by),
            pdf_variant,
            supersedes,
            force,
            sealing=_sealing(data),
        )
        with guarded(self.url), db.write_session(self.engine) as session:
            issued, targets = self._issue_in(session, request)
        checkpoint("committed")
        return _write_out(issued, targets, force)

    def _issue_in(self, session: Session, request: _Request) -> tuple[Issued, dict[str, Path]]:
        """Issue inside the caller's write transaction: (the record, where its files go)."""
        kind, data, name = request.kind, request.data, request.name
        respondent, formats, out = request.respondent, request.formats, request.out
        who, supersedes = request.who, request.supersedes
        spec = get_kind(kind)
        if "prior_offenses" in data:
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
        facts = _facts(spec, data, name)
        old = self._document(session, supersedes) if supersedes else None
        if old is not None:
            self._check_supersede(session, old, kind)
            if respondent is None and old.respondent_id is not None:
                respondent = old.respondent_id
        person, created = None, False
        if facts.party is not None and facts.party.name:
            person, created = resolve(
                session, facts.party.name, facts.party.address, respondent, who
            )
        priors: list[dict[str, Any]] = []
        if "prior_offenses" in spec.model.model_fields and person is not None:
            skip = old.id if old is not None else None
            current = self._current_offense(session, facts)
            priors = self._priors(session, person.id, facts.pack.id, facts.issued, skip, current)
            data["prior_offenses"] = [p for p, _ in priors]
        number = data.get("number") if "number" in spec.model.model_fields else None
        if not number or (old is not None and number == old.number):
            number = self._take_number(session, facts, kind)
            if "number" in spec.model.model_fields:
                data["number"] = number
        elif session.scalar(
            select(Document.id).where(
                Document.jurisdiction == facts.pack.id, Document.number == number
            )
        ):
            raise RegisterError(
                f"number: {number} is already issued in this register; a corrected "
                f"document is issued with `docgen supersede {number} CASE`"
            )
        checkpoint("numbered")
        sealing = request.sealing or checks.prepare(facts.pack)
        officer = checks.signing_officer(sealing, kind, data)
        options, code = checks.mark_for(sealing, ISSUING, number, officer)
        rendered, files = api.render_bytes(
            kind, data, formats, options, pdf_variant=request.pdf_variant
        )
        doc = rendered.document
        files = checks.seal(files, sealing, officer, doc.title)  # signed before it is hashed
        checkpoint("rendered")
        stem = safe_name(doc.filename or number, fallback=kind)
        targets = api.output_paths(out, stem, files) if out is not None else {}
        pending_writes({targets[f]: files[f] for f in targets}, request.force)
        row = Document(
            jurisdiction=facts.pack.id,
            kind=kind,
            number=number,
            issued=facts.issued,
            respondent_id=person.id if person else None,
            site_id=self._site(session, facts),
            supersedes_id=old.id if old is not None else None,
            about_id=request.about,
            case=json.loads(json.dumps(data, default=str)),  # dates as ISO text
            remedies_due=min((r.due for r in getattr(facts.case, "remedies", [])), default=None),
            docgen_version=__version__,
            pack_version=pack_version(facts.pack.id),
            recorded_at=datetime.now().astimezone(),
            recorded_by=who,
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
        if kind == "notice-of-violation" and person is not None:
            self._add_offense(session, row, person.id, facts, old)
        detail = {"number": number, "kind": kind, "sha256": hashes}
        if old is not None:
            detail["supersedes"] = old.number
        record(session, who, "issue", "document", row.id, detail)
        session.flush()
        checkpoint("recorded")
        respondent_ref = ref(person, created) if person else None
        used = self._priors_used(facts, priors)
        issued = Issued(
            id=row.id,
            number=number,
            kind=kind,
            jurisdiction=facts.pack.id,
            issued=facts.issued,
            respondent=respondent_ref,
            priors=used,
            hashes=hashes,
            files=files,
            stem=stem,
            warnings=(*doc.warnings, *sealing.warnings),
            supersedes=old.number if old is not None else None,
            access_code=code,
            signed=signed,
        )
        return issued, targets

    def supersede(self, number: str, source: api.Source, **kwargs: Any) -> Issued:
        """Issue a corrected document under a new number, pointing to ``number``; the
        original stays in the register as issued (its record and files never change)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            kind = self._document(session, number).kind
        return self.issue(kind, source, supersedes=number, **kwargs)

    def _check_supersede(self, session: Session, old: Document, kind: str) -> None:
        if old.kind != kind:
            raise RegisterError(f"{old.number} is a {old.kind}; a correction is the same kind")
        successor = session.scalar(select(Document.number).where(Document.supersedes_id == old.id))
        if successor:
            raise RegisterError(
                f"{old.number} was already superseded by {successor}; supersede {successor}"
            )

    def _take_number(self, session: Session, facts: _Facts, kind: str) -> str:
        from docgen.register.numbering import next_number

        return next_number(session, facts.pack, kind, facts.issued.year)

    def _site(self, session: Session, facts: _Facts) -> int | None:
        if facts.site is None:
            return None
        key, line, description, tax_map = facts.site
        found = session.scalar(select(Site.id).where(Site.site_key == key).limit(1))
        if found is not None:
            return found
        site = Site(site_key=key, address=line, description=description, tax_map=tax_map)
        session.add(site)
        session.flush()
        return site.id

    def _add_offense(
        self, session: Session, row: Document, respondent_id: int, facts: _Facts, old: Any
    ) -> None:
        dates = _committed(facts.case)
        if dates is None:
            return
        previous = (
            session.scalar(select(Offense).where(Offense.document_id == old.id)) if old else None
        )
        # A correction does not undo what a court decided on the offense it restates.
        carried = {}
        if previous is not None:
            carried = {
                k: getattr(previous, k)
                for k in ("disposition", "disposition_date", "convicted", "court", "docket")
            }
        session.add(
            Offense(
                respondent_id=respondent_id,
                document_id=row.id,
                jurisdiction=facts.pack.id,
                committed=dates[0],
                continued_through=dates[1],
                violations=[v.model_dump(mode="json") for v in facts.case.violations],
                **({"disposition": "pending"} | carried),
            )
        )

    # -- the history the penalty reads ---------------------------------------------------
    def _current_offense(
        self, session: Session, facts: _Facts
    ) -> Callable[[Any, str | None], bool]:
        """Reading 11: which recorded offense is the one the case is about (never a prior);
        a notice the case names as the one it follows must have charged an offense here."""
        from docgen.documents.penalty_statement import current_offense

        notice, charged = current_offense(facts.case)
        if notice is not None and not session.scalar(
            select(Offense.id)
            .join(Document, Offense.document_id == Document.id)
            .where(Document.jurisdiction == facts.pack.id, Document.number == notice)
        ):
            raise RegisterError(
                f"notice: {notice} is not a notice of violation issued in this register; "
                "name the notice whose offense the statement is about "
                f"({facts.pack.part('penalties').ref}; LAW.md § 4, reading 11)"
            )
        return lambda offense, number: is_current_offense(
            number, offense.violations or (), notice, charged
        )

    def _priors(
        self,
        session: Session,
        respondent_id: int,
        jurisdiction: str,
        as_of: date,
        skip_document: int | None,
        current: Callable[[Any, str | None], bool] = lambda offense, number: False,
    ) -> list[tuple[dict[str, Any], str]]:
        """Prior offenses as ``prior_offenses`` entries, as they stood on ``as_of``.

        Offenses of a superseded document live on in its successor (counted once); an
        offense committed after ``as_of`` is not a prior; a conviction or other
        disposition after ``as_of`` had not happened yet, so it reads as pending;
        withdrawn notices are no offense at all; the ``current`` offense, the one the
        document is about, is never its own prior.
        """
        successor = aliased(Document)
        rows = session.execute(
            select(Offense, Document.number)
            .outerjoin(Document, Offense.document_id == Document.id)
            .where(
                Offense.respondent_id == respondent_id,
                Offense.jurisdiction == jurisdiction,
                Offense.committed <= as_of,
                Offense.disposition != "withdrawn",
                or_(Offense.document_id.is_(None), Offense.document_id != (skip_document or -1)),
                ~exists().where(successor.supersedes_id == Offense.document_id),
            )
            .order_by(Offense.committed, Offense.id)
        ).all()
        out = []
        for offense, number in rows:
            if current(offense, number):
                continue
            decided = offense.convicted or offense.disposition_date
            disposition = offense.disposition
            if decided is not None and decided > as_of:
                disposition = "pending"
            label = _reference(offense, number)
            entry: dict[str, Any] = {
                "committed": offense.committed.isoformat(),
                "disposition": disposition,
                "reference": label[:500],
            }
            if disposition == "convicted":
                entry["convicted"] = offense.convicted.isoformat()
            out.append((entry, label))
        return out

    def _priors_used(
        self, facts: _Facts, priors: list[tuple[dict[str, Any], str]]
    ) -> tuple[PriorUsed, ...]:
        """The priors read, each with the penalty engine's finding (counted, or why not)."""
        if not priors:
            return ()
        from docgen.cases.penalty import PriorOffense
        from docgen.documents.penalty_statement import penalty_assessment

        typed = [PriorOffense(**p) for p, _ in priors]
        case = facts.case.model_copy(update={"prior_offenses": typed})
        reasons = {f.index: f.reason for f in penalty_assessment(case, facts.pack).findings}
        return tuple(
            PriorUsed(
                reference=label,
                committed=date.fromisoformat(p["committed"]),
                disposition=p["disposition"],
                convicted=date.fromisoformat(p["convicted"]) if p.get("convicted") else None,
                reason=reasons.get(i, ""),
            )
            for i, (p, label) in enumerate(priors)
        )

    # -- files ---------------------------------------------------------------------------
    def export(
        self,
        number: str,
        out: str | Path,
        formats: Iterable[str] = api.FORMATS,
        force: bool = False,
    ) -> list[Path]:
        """Write the stored bytes of ``number`` again (exactly as served) to ``out``."""
        with guarded(self.url), db.read_session(self.engine) as session:
            row = self._document(session, number)
            wanted = set(formats)
            blobs = {f.format: f.content for f in row.files if f.format in wanted}
            stem = safe_name(f"{row.number}-{row.kind}", fallback=row.kind)
        paths = api.output_paths(out, stem, blobs)
        return write_files({paths[fmt]: blob for fmt, blob in blobs.items()}, force)

    # -- service and dispositions --------------------------------------------------------
    def record_disposition(
        self,
        number: str,
        disposition: str,
        on: date | None = None,
        *,
        court: str | None = None,
        docket: str | None = None,
        by: str | None = None,
    ) -> OffenseRecord:
        """The outcome of the offense a notice charged (convicted needs its date)."""
        if disposition not in DISPOSITIONS:
            raise RegisterError(
                f"--disposition {disposition!r}: choose one of {', '.join(DISPOSITIONS)}"
            )
        who = actor(by)
        with guarded(self.url), db.write_session(self.engine) as session:
            doc = self._document(session, number)
            successor = session.scalar(
                select(Document.number).where(Document.supersedes_id == doc.id)
            )
            if successor:
                raise RegisterError(
                    f"{number} was superseded by {successor}; record the disposition on {successor}"
                )
            offense = session.scalar(select(Offense).where(Offense.document_id == doc.id))
            if offense is None:
                raise RegisterError(
                    f"{number} is a {doc.kind}; dispositions are recorded on the notice of "
                    "violation that charged the offense"
                )
            if disposition == "convicted" and on is None:
                section = load_pack(doc.jurisdiction).part("penalties").ref
                raise RegisterError(f"--date: a conviction needs its date ({section})")
            today = _today()
            wrong = on and disposition_problem(on, offense.committed, today, f"today ({today})")
            if wrong:
                section = load_pack(doc.jurisdiction).part("penalties").ref
                raise RegisterError(f"--date {on}: {wrong} ({section}; LAW.md § 4, reading 13)")
            before = {
                "disposition": offense.disposition,
                "date": _iso(offense.disposition_date),
                "court": offense.court,
                "docket": offense.docket,
            }
            offense.disposition = disposition
            offense.disposition_date = on
            offense.convicted = on if disposition == "convicted" else None
            offense.court = court or offense.court
            offense.docket = docket or offense.docket
            after = {
                "disposition": disposition,
                "date": _iso(on),
                "court": offense.court,
                "docket": offense.docket,
            }
            record(
                session,
                who,
                "disposition",
                "offense",
                offense.id,
                {"number": number, "before": before, "after": after},
            )
            session.flush()
            return _offense_record(offense, number)

    def record_service(self, number: str, method: str, on: date, **kwargs: Any):
        """Record service of ``number``; see docgen.register.service.record_service."""
        from docgen.register.service import record_service

        return record_service(self, number, method, on, **kwargs)

    # -- reading -------------------------------------------------------------------------
    def document(self, number: str) -> DocumentRecord:
        """One issued document, with its service events and what supersedes it."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return self._document_record(session, self._document(session, number))

    def files(self, number: str) -> dict[str, bytes]:
        """The stored bytes of each format of ``number``, exactly as issued."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return {f.format: f.content for f in self._document(session, number).files}

    def verify(self, blob: bytes) -> Verified | None:
        """The issued document whose file has these exact bytes, or None (not issued here,
        or altered)."""
        digest = hashlib.sha256(blob).hexdigest()
        with guarded(self.url), db.read_session(self.engine) as session:
            hit = session.execute(
                select(DocumentFile.format, Document)
                .join(Document, DocumentFile.document_id == Document.id)
                .where(DocumentFile.sha256 == digest)
                .limit(1)
            ).first()
            if hit is None:
                return None
            fmt, doc = hit
            return Verified(
                number=doc.number,
                kind=doc.kind,
                jurisdiction=doc.jurisdiction,
                issued=doc.issued,
                respondent=doc.respondent.name if doc.respondent else None,
                format=fmt,
                superseded_by=self._successor(session, doc.id),
            )

    def find_respondents(self, name: str, address: Any | None = None) -> list:
        """Respondents that are, or may be, ``name`` (at ``address``): exact and near
        matches, each with its id and why it was listed."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return candidates(session, name, address)

    def match(self, name: str, address: Any | None = None) -> tuple[Any, list]:
        """(the respondent an issue would take without asking, or None; every candidate):
        an issue takes the one record of the same name and address, and asks otherwise."""
        found = self.find_respondents(name, address)
        exact = [c for c in found if c.why == "same name and address"]
        return (exact[0] if len(exact) == 1 else None), found

    def priors(self, respondent: int, jurisdiction: str, as_of: date) -> list[dict[str, Any]]:
        """The ``prior_offenses`` an issue for ``respondent`` dated ``as_of`` reads (the
        penalty's history, § 228-79C(4)), without issuing anything."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return [p for p, _ in self._priors(session, respondent, jurisdiction, as_of, None)]

    def history(self, who: int | str) -> History:
        """A respondent's offenses and documents, newest first. ``who`` is an id (or
        "#id"), or a name matching exactly one respondent (else the candidates are listed)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            person = self._respondent(session, who)
            offenses = session.execute(
                select(Offense, Document.number)
                .outerjoin(Document, Offense.document_id == Document.id)
                .where(Offense.respondent_id == person.id)
                .order_by(Offense.committed.desc(), Offense.id.desc())
            ).all()
            docs = session.scalars(
                select(Document)
                .where(Document.respondent_id == person.id)
                .order_by(Document.issued.desc(), Document.id.desc())
            ).all()
            return History(
                respondent=ref(person),
                offenses=tuple(_offense_record(o, n) for o, n in offenses),
                documents=tuple(self._document_record(session, d) for d in docs),
            )

    def documents(
        self,
        filter: str | None = None,
        *,
        kind: str | None = None,
        respondent: int | None = None,
        today: date | None = None,
        limit: int = 500,
    ) -> list[DocumentRecord]:
        """Issued documents, newest first, optionally narrowed by a named ``filter``
        (docgen.register.filters.FILTERS: awaiting-service, appeal-running,
        appeal-passed, remedies-overdue, stop-work-in-effect) as of ``today``."""
        from docgen.register.filters import apply

        with guarded(self.url), db.read_session(self.engine) as session:
            query = select(Document).order_by(Document.issued.desc(), Document.id.desc())
            if kind:
                query = query.where(Document.kind == kind)
            if respondent is not None:
                query = query.where(Document.respondent_id == respondent)
            query = apply(query, filter, today or _today())
            rows = session.scalars(query.limit(limit)).all()
            return [self._document_record(session, d) for d in rows]

    def audit(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest changes first: who, what, when."""
        from docgen.register.models import AuditEntry

        with guarded(self.url), db.read_session(self.engine) as session:
            rows = session.scalars(
                select(AuditEntry).order_by(AuditEntry.id.desc()).limit(limit)
            ).all()
            return [
                {
                    "at": r.at.isoformat() if r.at else None,
                    "actor": r.actor,
                    "action": r.action,
                    "entity": r.entity,
                    "entity_id": r.entity_id,
                    "detail": r.detail,
                }
                for r in rows
            ]

    # -- helpers -------------------------------------------------------------------------
    def _document(self, session: Session, number: str) -> Document:
        found = session.scalars(select(Document).where(Document.number == number)).all()
        if not found:
            raise RegisterError(f"{number}: no document with that number in this register")
        if len(found) > 1:
            where = ", ".join(d.jurisdiction for d in found)
            raise RegisterError(f"{number} exists in several jurisdictions ({where})")
        return found[0]

    def _respondent(self, session: Session, who: int | str) -> Respondent:
        text = str(who).strip()
        if text.lstrip("#").isdigit():
            found = session.get(Respondent, int(text.lstrip("#")))
            if found is None:
                raise RegisterError(f"respondent {text}: no respondent with that id")
            return found
        listed = candidates(session, text, None)
        exact = [c for c in listed if c.why.startswith("same name")]
        if len(exact) == 1:
            return session.get(Respondent, exact[0].id)
        if not listed:
            raise RegisterError(f"respondent {text!r}: no respondent of that name")
        lines = "\n  ".join(str(c) for c in listed)
        raise RegisterError(f"respondent {text!r} is not one record; candidates:\n  {lines}")

    def _successor(self, session: Session, document_id: int) -> str | None:
        return session.scalar(select(Document.number).where(Document.supersedes_id == document_id))

    def _document_record(self, session: Session, doc: Document) -> DocumentRecord:
        from docgen.register.service import service_record

        site = session.get(Site, doc.site_id) if doc.site_id else None
        number_of = {}
        for other in (doc.supersedes_id, doc.about_id):
            if other:
                number_of[other] = session.scalar(
                    select(Document.number).where(Document.id == other)
                )
        return DocumentRecord(
            id=doc.id,
            number=doc.number,
            kind=doc.kind,
            jurisdiction=doc.jurisdiction,
            issued=doc.issued,
            respondent=ref(doc.respondent) if doc.respondent else None,
            site=(site.address or site.description) if site else None,
            hashes={f.format: f.sha256 for f in doc.files},
            services=tuple(service_record(s) for s in doc.services),
            supersedes=number_of.get(doc.supersedes_id),
            superseded_by=self._successor(session, doc.id),
            about=number_of.get(doc.about_id),
            recorded_by=doc.recorded_by,
            docgen_version=doc.docgen_version,
            pack_version=doc.pack_version,
            case=doc.case,
        )

    def count(self) -> int:
        with guarded(self.url), db.read_session(self.engine) as session:
            return session.scalar(select(func.count(Document.id))) or 0


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


def _today() -> date:
    from zoneinfo import ZoneInfo

    return datetime.now(ZoneInfo("America/New_York")).date()


def _reference(offense: Offense, number: str | None) -> str:
    parts = [number or offense.reference or "history imported from before the register"]
    if offense.court:
        parts.append(offense.court)
    if offense.docket:
        parts.append(f"docket {offense.docket}")
    return ", ".join(parts)


def _offense_record(offense: Offense, number: str | None) -> OffenseRecord:
    return OffenseRecord(
        id=offense.id,
        number=number,
        jurisdiction=offense.jurisdiction,
        committed=offense.committed,
        continued_through=offense.continued_through,
        violations=tuple(offense.violations or ()),
        disposition=offense.disposition,
        disposition_date=offense.disposition_date,
        convicted=offense.convicted,
        court=offense.court,
        docket=offense.docket,
        reference=offense.reference,
    )
