"""The register as a library: ``Register.open()`` and the verbs the CLI and the desk call.

    from docgen.register import Issue, Register, Service
    reg = Register.open()                      # DOCGEN_DATABASE_URL, or the SQLite file
    issued = reg.issue("notice-of-violation", "case.yaml", out="out/")
    again = reg.issue("notice-of-violation", "other.yaml", Issue(respondent=issued.respondent.id))
    reg.record_service(issued.number, Service("certified-mail", date(2026, 11, 4), article=...))
    reg.record_disposition(issued.number, "convicted", date(2026, 11, 30), court="Village Court")
    reg.history(issued.respondent.id)

Each verb is one transaction over the register's jobs: issuing
(docgen.register.matter.issuing), the offense history (docgen.register.people.history),
service (docgen.register.matter.service) and reading (docgen.register.reading.queries). A
verb that issues a document renders it outside its write transaction
(docgen.register.matter.rendering.rendered_outside).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from docgen import api
from docgen.faults import checkpoint
from docgen.register.after_notice.appeals import (
    appeal_state,
    decide_appeal,
    record_appeal,
    schedule_hearing,
)
from docgen.register.after_notice.liens import record_lien, record_payment, release_lien
from docgen.register.after_notice.occupancy import release, withhold
from docgen.register.after_notice.restoration import require, state_cost
from docgen.register.matter import issuing, receipts, rendering
from docgen.register.matter.asked import Issue
from docgen.register.matter.extensions import extend, schedule
from docgen.register.matter.finals import COUNSEL_FILES, counsel_targets, refuse_final
from docgen.register.matter.lifting import lift
from docgen.register.matter.lost import recording
from docgen.register.people import history, import_runs, respondents
from docgen.register.people.matching import name_key
from docgen.register.people.respondents import candidates, ref
from docgen.register.plans.swppp_letters import decide
from docgen.register.reading import queries
from docgen.register.rules import rows
from docgen.register.rules.copies import copy_of, refuse_copies, refuse_language
from docgen.register.storage import db
from docgen.register.storage.audit import actor
from docgen.register.storage.db import RegisterError, guarded
from docgen.register.storage.records import (
    Candidate,
    DocumentRecord,
    History,
    Issued,
    OffenseRecord,
    RespondentRef,
    Served,
    Verified,
    VerifiedSet,
)
from docgen.render.output import safe_name, write_files

if TYPE_CHECKING:
    from docgen.documents.exhibits import CaseFiles
    from docgen.register.matter.service_event import Service


class Register:
    """One register (a database); every method is one transaction."""

    def __init__(self, engine: Engine, url: str):
        self.engine = engine
        self.url = url

    # -- opening -------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        url: str | None = None,
        migrate: bool = True,
        timeout: float | None = None,
        readonly: bool = False,
    ) -> Register:
        """The register at ``url`` (default: DOCGEN_DATABASE_URL, or the SQLite file in
        DOCGEN_HOME), migrated to the newest schema on first use unless ``migrate`` is off.
        ``readonly``: for reading only (verify, history, export): nothing is created or
        migrated, and a register without write access opens."""
        url = url or db.default_url()
        engine = db.make_engine(url, timeout, readonly=readonly)
        reg = cls(engine, url)
        try:
            with guarded(url):
                db.check_revision(engine, url, migrate and not readonly, readonly)
        except BaseException:
            engine.dispose()
            raise
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
        asked: Issue | None = None,
        *,
        formats: Iterable[str] = api.FORMATS,
        out: str | Path | None = None,
        by: str | None = None,
        pdf_variant: str | None = None,
        force: bool = False,
        case_dir: CaseFiles | None = None,
    ) -> Issued:
        """Number, render, record and (with ``out``) write a document of ``kind`` from
        ``source``, as ``asked`` (whom it is to, what it corrects, its copies...: Issue).

        A case may not list ``prior_offenses``: the register is the history the penalty
        reads. ``case_dir``: the folder the files a case names are read from, when its
        source is data, not a file (a desk draft's photos), or the files sent with it
        (docgen.documents.exhibits.SentFiles: a queued draft's photos). With ``out``, the
        files are written after the record is committed; a different file already at a path
        stops the issue before anything is recorded (unless ``force``).
        """
        asked = asked or Issue()
        data, name = api.load(source)
        if asked.final is not None:
            refuse_final(kind, asked.final, tuple(formats))
        if asked.copies:
            refuse_copies(kind, data)
        if asked.language is not None:
            refuse_language(kind, asked.language)
        request = issuing.Request(
            kind,
            data,
            name,
            asked.respondent,
            tuple(formats),
            out,
            actor(by),
            pdf_variant,
            asked.supersedes,
            force,
            sealing=issuing.sealing_for(data),
            jurisdiction=asked.jurisdiction,
            final=asked.final,
            copies=asked.copies,
            language=asked.language,
            case_dir=case_dir or api.case_dir_of(source),
            number_gap=asked.number_gap,
            keep_name=asked.keep_name,
        )
        issued, targets = rendering.rendered_outside(lambda: self._issue(request))
        checkpoint("committed")
        return issuing.write_out(issued, targets, force)

    def _issue(self, request: issuing.Request) -> tuple[Issued, dict[str, Path]]:
        safe = "if {number} was recorded it is given back, never numbered twice"
        with recording(self, "issue it again", safe) as (session, held):
            issued, targets = issuing.issue_in(session, request)
            held.issuing(request, issued.number)
        return issued, targets

    def supersede(
        self, number: str, source: api.Source, asked: Issue | None = None, **kwargs: Any
    ) -> Issued:
        """Issue a corrected document under a new number, pointing to ``number`` (of
        ``asked.jurisdiction``); the original stays in the register as issued (its record
        and files never change)."""
        asked = replace(asked or Issue(), supersedes=number)
        with guarded(self.url), db.read_session(self.engine) as session:
            kind = rows.document_row(session, number, asked.jurisdiction).kind
        return self.issue(kind, source, asked, **kwargs)

    # -- files ---------------------------------------------------------------------------
    def export(
        self,
        number: str,
        out: str | Path,
        formats: Iterable[str] = api.FORMATS,
        force: bool = False,
        jurisdiction: str | None = None,
    ) -> list[Path]:
        """Write the stored bytes of ``number`` (of ``jurisdiction``) again (exactly as
        served) to ``out``, with the copies kept with it (each person's copy, named as
        when issued) and counsel's files asked for (docgen.register.matter.finals.export_formats:
        NUMBER-kind-to-record.pdf, -final.docx, -redline.docx)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            row = rows.document_row(session, number, jurisdiction)
            formats = tuple(formats)
            blobs = queries.stored_files(row, set(formats))
            counsel = {f: blobs.pop(f) for f in COUNSEL_FILES if f in blobs}
            wanted = {f.format for f in row.files if (c := copy_of(f.format)) and c[1] in formats}
            copies = queries.stored_files(row, wanted) if wanted else {}
            stem = safe_name(f"{row.number}-{row.kind}", fallback=row.kind)
            if not blobs and not counsel:
                stored = ", ".join(f.format for f in row.files) or "none"
                raise RegisterError(
                    f"{row.number}: no {', '.join(formats)} stored (stored: {stored})"
                )
        paths = api.output_paths(out, stem, blobs) if blobs else {}
        paths |= counsel_targets(out, stem, counsel)
        files = {paths[fmt]: blob for fmt, blob in (blobs | counsel).items()}
        if copies:  # beside the original, as issued (docgen.register.rules.copies)
            targets = issuing.copy_targets(out, stem, copies)
            files |= {path: copies[stored] for stored, path in targets.items()}
        return write_files(files, force)

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
        jurisdiction: str | None = None,
    ) -> OffenseRecord:
        """The outcome of the offense a notice charged (convicted needs its date), the
        notice ``number`` of ``jurisdiction`` when two municipalities hold that number."""
        who = actor(by)
        with guarded(self.url), db.write_session(self.engine) as session:
            return history.record_disposition(
                session, number, disposition, on, court, docket, who, jurisdiction
            )

    def record_appeal(self, number: str, received: date, **kwargs: Any) -> Issued:
        """Record a notice of appeal of ``number``; see
        docgen.register.after_notice.appeals.record_appeal."""
        return record_appeal(self, number, received, **kwargs)

    def appeal(self, number: str, jurisdiction: str | None = None) -> Any:
        """The appeal recorded of ``number``
        (docgen.register.after_notice.appeals.AppealState), or None."""
        return appeal_state(self, number, jurisdiction)

    def schedule_hearing(self, number: str, day: date, time: str, **kwargs: Any) -> Issued:
        """The notice of hearing; see docgen.register.after_notice.appeals.schedule_hearing."""
        return schedule_hearing(self, number, day, time, **kwargs)

    def decide_appeal(self, number: str, outcome: str, reasons: list[str], **kwargs: Any) -> Issued:
        """The decision on an appeal; see docgen.register.after_notice.appeals.decide_appeal."""
        return decide_appeal(self, number, outcome, reasons, **kwargs)

    def schedule(self, number: str, jurisdiction: str | None = None) -> Any:
        """Each dated item of ``number`` and its date as extended; see
        docgen.register.matter.extensions.schedule."""
        return schedule(self, number, jurisdiction)

    def extend(self, number: str, item: int, until: date, **kwargs: Any) -> Issued:
        """A later date for a corrective action or remedial measure; see
        docgen.register.matter.extensions.extend."""
        return extend(self, number, item, until, **kwargs)

    def lift(self, number: str, on: date, **kwargs: Any) -> Issued:
        """Lift the stop-work order ``number`` on ``on``; see
        docgen.register.matter.lifting.lift."""
        return rendering.rendered_outside(lambda: lift(self, number, on, **kwargs))

    def withhold_occupancy(self, number: str, premises: str, on: date, **kwargs: Any) -> Issued:
        """Prevent the occupancy of ``premises``, resting on ``number`` (§ 228-79C(5)); see
        docgen.register.after_notice.occupancy.withhold."""
        return rendering.rendered_outside(lambda: withhold(self, number, premises, on, **kwargs))

    def release_occupancy(self, number: str, on: date, **kwargs: Any) -> Issued:
        """Release the order preventing occupancy ``number``; see
        docgen.register.after_notice.occupancy.release."""
        return rendering.rendered_outside(lambda: release(self, number, on, **kwargs))

    def require_restoration(
        self, number: str, restore: str, restore_by: date, on: date, **kwargs: Any
    ) -> Issued:
        """Require restoration (§ 228-79C(6)); see
        docgen.register.after_notice.restoration.require."""
        return rendering.rendered_outside(
            lambda: require(self, number, restore, restore_by, on, **kwargs)
        )

    def state_restoration_cost(
        self, number: str, inspection: str, items: list[Any], on: date, **kwargs: Any
    ) -> Issued:
        """The statement of the cost of corrective action; see
        docgen.register.after_notice.restoration.state_cost."""
        return rendering.rendered_outside(
            lambda: state_cost(self, number, inspection, items, on, **kwargs)
        )

    def record_lien(self, number: str, on: date, **kwargs: Any) -> Issued:
        """The notice of lien; see docgen.register.after_notice.liens.record_lien."""
        return rendering.rendered_outside(lambda: record_lien(self, number, on, **kwargs))

    def record_lien_payment(
        self, number: str, amount: Decimal, on: date, paid_by: str, **kwargs: Any
    ) -> Decimal:
        """A payment on a lien; the balance after it (docgen.register.after_notice.liens)."""
        return record_payment(self, number, amount, on, paid_by, **kwargs)

    def release_lien(self, number: str, on: date, **kwargs: Any) -> Issued:
        """The release of a lien paid in full; see
        docgen.register.after_notice.liens.release_lien."""
        return rendering.rendered_outside(lambda: release_lien(self, number, on, **kwargs))

    def swppp_decide(self, plan_id: int, outcome: str, on: date, **kwargs: Any) -> Issued:
        """Approve (``approved``) or return (``returned``) the SWPPP ``plan_id`` on its last
        review; see docgen.register.plans.swppp_letters.decide."""
        return rendering.rendered_outside(lambda: decide(self, plan_id, outcome, on, **kwargs))

    def record_service(self, number: str, event: Service, **kwargs: Any) -> Served:
        """Record the service ``event`` of ``number``; see
        docgen.register.matter.service.record_service."""
        # register.matter.service takes 15 ms to import (docgen modules): loaded on first use
        from docgen.register.matter.service import record_service

        return rendering.rendered_outside(lambda: record_service(self, number, event, **kwargs))

    def record_receipt(
        self, number: str, received: date, signed_by: str, **kwargs: Any
    ) -> receipts.CameBack:
        """Record a mailing's return receipt; see docgen.register.matter.receipts.record_receipt."""
        return rendering.rendered_outside(
            lambda: receipts.record_receipt(self, number, received, signed_by, **kwargs)
        )

    def record_return(self, number: str, on: date, reason: str, **kwargs: Any) -> receipts.CameBack:
        """Record a mailing returned undelivered; see
        docgen.register.matter.receipts.record_return."""
        return receipts.record_return(self, number, on, reason, **kwargs)

    def prefer_language(
        self, respondent: int, language: str | None, by: str | None = None
    ) -> RespondentRef:
        """Keep the language respondent ``respondent`` prefers (LAW.md § 13; None: none),
        as the clerk chose it; see docgen.register.people.respondents.choose_language."""
        who = actor(by)
        with guarded(self.url), db.write_session(self.engine) as session:
            return respondents.choose_language(session, respondent, language, who)

    # -- reading -------------------------------------------------------------------------
    def document(self, number: str, jurisdiction: str | None = None) -> DocumentRecord:
        """One issued document, with its service events and what supersedes it."""
        with guarded(self.url), db.read_session(self.engine) as session:
            row = rows.document_row(session, number, jurisdiction)
            return queries.document_record(session, row)

    def files(self, number: str, jurisdiction: str | None = None) -> dict[str, bytes]:
        """The stored bytes of each format of ``number``, exactly as issued."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.stored_files(rows.document_row(session, number, jurisdiction))

    def holders(self, number: str) -> list[DocumentRecord]:
        """Each municipality's document numbered ``number`` (one, or several when
        municipalities share the number), by jurisdiction; none when there is none."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return [queries.document_record(session, d) for d in rows.holders(session, number)]

    def shared_numbers(self) -> frozenset[str]:
        """The numbers more than one municipality of this register holds."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return rows.shared(session)

    def verify(self, blob: bytes) -> Verified | VerifiedSet | None:
        """The issued document whose file has these exact bytes, the set of certifications
        assembled as that file, or None (not issued here, or altered)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.verify(session, blob)

    def find_respondents(self, name: str, address: Any | None = None) -> list[Candidate]:
        """Respondents that are, or may be, ``name`` (at ``address``): exact and near
        matches, each with its id and why it was listed."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return candidates(session, name, address)

    def match(
        self, name: str, address: Any | None = None
    ) -> tuple[Candidate | None, list[Candidate]]:
        """(the respondent an issue would take without asking, or None; every candidate):
        an issue takes the one record of the same name and address, and asks otherwise. A
        name with no letter or digit matches nothing (an issue refuses it)."""
        if not name_key(name):
            return None, []
        found = self.find_respondents(name, address)
        exact = [c for c in found if c.why == "same name and address"]
        return (exact[0] if len(exact) == 1 else None), found

    def respondent(self, who: int | str) -> RespondentRef:
        """The record of respondent ``who`` (an id, or "#id"): its name, addresses, aliases."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return ref(queries.respondent_row(session, who))

    def priors(self, respondent: int, jurisdiction: str, as_of: date) -> list[dict[str, Any]]:
        """The ``prior_offenses`` an issue for ``respondent`` dated ``as_of`` reads (the
        penalty's history, § 228-79C(4)), without issuing anything."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return [p for p, _ in history.priors(session, respondent, jurisdiction, as_of, None)]

    def history_incomplete(self) -> list[str]:
        """What an issue reading the offense history would say of it now: that its priors
        may be incomplete while a history import has not finished (import_runs)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return import_runs.history_incomplete(session)

    def charged(self, document: DocumentRecord) -> list[OffenseRecord]:
        """The offense ``document`` charges, with its disposition (as ``history`` has it)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.charged(session, document.id, document.number)

    def history(self, who: int | str) -> History:
        """A respondent's offenses and documents, newest first. ``who`` is an id (or
        "#id"), or a name matching exactly one respondent (else the candidates are listed)."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.history(session, who)

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
        (docgen.register.reading.filters.FILTERS: awaiting-service, appeal-running,
        appeal-passed, remedies-overdue, stop-work-in-effect) as of ``today``."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.documents(session, filter, kind, respondent, today or _today(), limit)

    def audit(self, limit: int = 200) -> list[dict[str, Any]]:
        """The newest changes first: who, what, when."""
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.audit(session, limit)

    def count(self) -> int:
        with guarded(self.url), db.read_session(self.engine) as session:
            return queries.count(session)


def _today() -> date:
    return issuing.today()
