"""What a document kind is: its case model, its checks, its context, its template, and
what the rest of docgen needs to know about it.

A kind module defines one :class:`Kind`. Its ``check`` returns every rule the case
breaks (each a Problem naming field and provision); its ``context`` builds what the
template needs (pure: no I/O, no clock). docgen.documents.pipeline runs them in order and
renders the HTML, the single source of the document's words; docgen.documents.registry
finds a kind by its name.

A kind is also one description (:class:`Spec`): its issue date, the party it is
addressed to, its site, the pack groups it prints, whether it is served, appealable,
charges an offense, reads the offense history or is lifted, and which desk permission
issues it. The register, its filters, service, the desk's roles and ``pack check`` read
that description and probe no case's fields; a module that needs one particular kind (the
affidavit service issues, the reports an inspection's steps read) names it by that kind's
module (``KIND.name``), never by a string. A :class:`Bundle` (the violation packet)
answers the same questions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from datetime import date
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import BaseModel

from docgen.cases.validate import provision_for
from docgen.errors import Problem
from docgen.law.pack import Pack
from docgen.render import language
from docgen.render.formats import Rendition
from docgen.render.html import Attachment
from docgen.signing.codes import IssueMark

if TYPE_CHECKING:
    from docgen.documents.exhibits import CaseFiles


@dataclass(frozen=True)
class Correction:
    """What a correction replaces (LAW.md § 2, "Corrections"): the document it replaces
    and, where that one was itself a correction, the whole line back to the first; and
    which document in the line was served on the person it is addressed to (never an
    unserved one named as served)."""

    number: str  # the document it replaces
    issued: date
    # What that one replaced, back to the first: (number, issue date), newest first.
    earlier: tuple[tuple[str, date], ...] = ()
    served: tuple[str, date] | None = None  # the latest in the line served, and when
    person: str = ""  # on whom (the addressee)


@dataclass(frozen=True)
class Options:
    """How to render, apart from the case: the date, review marks, a layout variant."""

    today: date | None = None  # the render date; defaults to the case's own date
    review: bool = False  # mark every value that came from the case
    layout: str | None = None  # a kind's alternative layout (e.g. "placard")
    templates: str | None = None  # a custom template folder, rendered in a sandbox
    # Issued (the register): the verification line, and who signs (docgen.signing.codes).
    # Drafts and `docgen render` have none.
    mark: IssueMark | None = None
    # Issued as a correction (docgen supersede): what it replaces, and its line.
    corrects: Correction | None = None
    # The folder of the case file: a relative path a case names (a map exhibit) is read
    # from there (or the files sent with the case: exhibits.SentFiles); None: the current
    # directory.
    case_dir: CaseFiles | None = None
    # A copy for the person ``copies_to[copy]`` (LAW.md § 9: each person served gets a
    # copy addressed to them); None: the original, addressed to the recipient.
    copy: int | None = None
    # A courtesy rendition in another language (LAW.md § 13: "es"), kept with the same
    # number; None: the English document, which controls.
    language: str | None = None
    # False: a later part of a bundle served in one envelope with a first part that carries
    # the language-access block (LAW.md § 13: it prints once; docgen.documents.packet).
    taglines: bool = True


# The languages a kind may have a courtesy rendition in (docgen.render.language: code ->
# name, BCP 47 tag, locale), and the original's: a preferred language of "en" asks for no
# courtesy copy, and so does `docgen issue --language en`, over the respondent's preferred
# language.
LANGUAGES = language.LANGUAGES


ENGLISH = language.ENGLISH


# The languages docgen's served kinds are rendered in from their catalogs (docgen/locale):
# Spanish, and Russian, of § 202-a's list, to prove the path for every other.
COURTESY_LANGUAGES = ("es", "ru")


Day = date  # a date, where a field named ``date`` hides the type inside a class


@dataclass(frozen=True)
class DocMeta:
    kind: str
    title: str
    number: str
    running_head: str
    date: date | None  # the file's own date (PDF and DOCX metadata); None: the case has none
    filename: str = ""  # file name stem for outputs; the document number when empty
    lang: str = "en-US"

    @classmethod
    def numbered(
        cls, kind: str, title: str, number: str, pack: Pack, day: Day, suffix: str = ""
    ) -> DocMeta:
        """A document known by its number: "Notice of Violation No. N", file N-kind."""
        return cls(
            kind=kind,
            title=f"{title} No. {number}",
            number=number,
            running_head=f"{pack.name.value} · {title} No. {number}",
            date=day,
            filename=f"{number}-{kind}{suffix}",
        )


@dataclass(frozen=True, kw_only=True)
class Context:
    """What a kind's template receives besides ``pack`` and ``review``: the document's
    metadata and warnings here, and each kind's own typed values in a subclass; the
    template sees every field under its own name (``case``, ``doc``...)."""

    doc: DocMeta
    warnings: tuple[str, ...] = ()
    # A served document's copy for a person other than its addressee (a Party): the
    # window shows that person and the page says "Copy for ..." (None: the original).
    copy_for: Any = None
    attachments: tuple[Attachment, ...] = ()  # images the document embeds (a map exhibit)

    def names(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, kw_only=True)
class CaseContext(Context):
    """The context of a kind whose template reads only its case beside the metadata."""

    case: Any


def numbered_case(case: Any, pack: Pack, kind: str, title: str) -> CaseContext:
    """The context of a document known by its number (``title`` No. N) and dated the day
    its case was issued."""
    return CaseContext(case=case, doc=DocMeta.numbered(kind, title, case.number, pack, case.issued))


@dataclass(frozen=True)
class Addressee:
    """The party a document is addressed to, as the register matches respondents."""

    name: str
    address: Any  # the case's Address (``one_line()``), or None
    language: str | None = None  # the language they prefer (LAW.md § 13), if the case says


@dataclass(frozen=True)
class Place:
    """Where a document's matter is: the register keeps one site per place, and finds it
    by its address, description and tax map number. A property is named by its tax map
    (``by_tax_map``: one site per parcel); a site is its address and description, the tax
    map number its case gives recorded with it (the same site with or without it)."""

    address: str | None
    description: str | None
    tax_map: str | None
    by_tax_map: bool = True


@dataclass(frozen=True)
class Charge:
    """The offense a document charges, as the penalty reads it (§ 228-79C(4) through the
    pack): the earliest day observed, the last day it continued, and its violations."""

    committed: date
    continued_through: date | None
    violations: tuple[dict[str, Any], ...]


def with_article(noun: str) -> str:
    """``noun`` after "a" or "an" as its first letter sounds ("an order", "a SWPPP
    approval"); a noun already definite ("the municipality's year") as it is."""
    if noun.startswith("the "):
        return noun
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _none(case: Any) -> None:
    return None


def _always(case: Any) -> bool:
    return True


def _address_of(party: Any) -> Addressee | None:
    """The case's party (recipient or owner) as an Addressee; None without a name."""
    if party is None or not getattr(party, "name", None):
        return None
    return Addressee(party.name, party.address, getattr(party, "language", None))


def place_of(place: Any, tax_map: Any = None, by_tax_map: bool = True) -> Place | None:
    """A case's site (address and/or description, and its tax map number when given) or
    property (address, tax map)."""
    if place is None:
        return None
    address = place.address.one_line() if place.address is not None else None
    description = getattr(place, "description", None)
    parcel = str(tax_map) if tax_map is not None else None
    return Place(address, description, parcel, by_tax_map)


@dataclass(frozen=True)
class PartyAt:
    """The party a kind is addressed to, read from one field of its case (``recipient``,
    ``owner``): the register matches respondents by it, and the name the clerk chose for
    the issued document (the register's record, or as typed) is written there."""

    field: str

    def __call__(self, case: Any) -> Addressee | None:
        return _address_of(getattr(case, self.field))


recipient_of = PartyAt("recipient")


owner_of = PartyAt("owner")


def party_field(spec: Spec) -> str | None:
    """The case field naming the party ``spec`` is addressed to; None: it has none."""
    return spec.party.field if isinstance(spec.party, PartyAt) else None


def site_of(case: Any) -> Place | None:
    site = case.site
    return place_of(site, getattr(site, "tax_map", None), by_tax_map=False)


def property_of(case: Any) -> Place | None:
    return place_of(case.property, case.property.tax_map)


def issued_on(case: Any) -> date:
    issued: date = case.issued
    return issued


def charged(case: Any) -> Charge | None:
    """A notice's offense: the earliest day any violation was observed and the last day
    any continued (each violation counts on its own, its dates in the case)."""
    violations = case.violations
    if not violations:
        return None
    through = [v.continued_through for v in violations if v.continued_through]
    return Charge(
        committed=min(v.observed for v in violations),
        continued_through=max(through, default=None),
        violations=tuple(v.model_dump(mode="json") for v in violations),
    )


def earliest_remedy(case: Any) -> date | None:
    return min((r.due for r in case.remedies), default=None)


def site_problems(case: Any, pack: Pack, message: str) -> list[Problem]:
    """A site given with neither an address nor a description, cited by the case model's
    ``site`` field (each kind words what its site must identify)."""
    if case.site is None or case.site.given():
        return []
    return [Problem("site", message, provision_for(type(case), ("site",), pack))]


class Spec(Protocol):
    """What docgen knows of a kind or a bundle, apart from how it renders (read-only: each
    is a frozen dataclass; docgen.documents.pipeline renders either, and
    docgen.documents.registry finds them by name)."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def summary(self) -> str: ...
    @property
    def model(self) -> type[BaseModel]: ...
    @property
    def review(self) -> bool: ...
    @property
    def layouts(self) -> dict[str, str]: ...
    @property
    def needs(self) -> tuple[str, ...]: ...
    @property
    def served(self) -> bool: ...
    @property
    def copies(self) -> bool: ...
    @property
    def appealable(self) -> bool: ...
    @property
    def reads_history(self) -> bool: ...
    @property
    def liftable(self) -> bool: ...
    @property
    def lifts(self) -> bool: ...
    @property
    def appeal_step(self) -> str | None: ...
    @property
    def extends(self) -> bool: ...
    @property
    def opens_matter(self) -> bool: ...
    @property
    def new_notice_from(self) -> bool: ...
    @property
    def follows(self) -> tuple[str, ...]: ...
    @property
    def step(self) -> str: ...
    @property
    def permission(self) -> str | None: ...
    @property
    def made_by_register(self) -> str: ...
    @property
    def issued_upon(self) -> tuple[tuple[str, ...], ...]: ...
    @property
    def keeps(self) -> tuple[tuple[str, str], ...]: ...
    @property
    def issued(self) -> Callable[[Any], date | None]: ...
    @property
    def party(self) -> Callable[[Any], Addressee | None]: ...
    @property
    def site(self) -> Callable[[Any], Place | None]: ...
    @property
    def charge(self) -> Callable[[Any], Charge | None] | None: ...
    @property
    def remedies_due(self) -> Callable[[Any], date | None]: ...

    @property
    def parts(self) -> tuple[str, ...]: ...
    @property
    def charges_offense(self) -> bool: ...
    @property
    def lower_title(self) -> str: ...
    @property
    def a_title(self) -> str: ...
    @property
    def delivered(self) -> bool: ...
    @property
    def numbered(self) -> bool: ...
    @property
    def split(self) -> Any: ...
    @property
    def blank(self) -> Any: ...
    def provided_by(self, pack: Pack) -> bool: ...


class _Described:
    """What a kind and a bundle answer alike, from their declared fields."""

    name: str
    title: str
    model: type[BaseModel]
    served: bool
    copies: bool
    charge: Callable[[Any], Charge | None] | None

    @property
    def lower_title(self) -> str:
        """The title inside a sentence: "notice of violation", "SWPPP approval" (an
        acronym kept), never the kind's code name."""
        title = self.title
        return title if title[1:2].isupper() else title[:1].lower() + title[1:]

    @property
    def a_title(self) -> str:
        """The title with its article, as a refusal names a document: "a notice of
        violation", "an order preventing occupancy"; a title already definite ("The
        municipality's year in figures") as it is."""
        return with_article(self.lower_title)

    @property
    def charges_offense(self) -> bool:
        """It charges an offense: the register records one, dispositions are recorded on it."""
        return self.charge is not None

    @property
    def delivered(self) -> bool:
        """It is delivered to persons (served on them, or a copy to each person named):
        it carries the language-access block in the languages the municipality chooses
        (LAW.md § 13), whatever its own template says."""
        return self.served or self.copies

    @property
    def numbered(self) -> bool:
        """The register gives it a number (its case carries ``number``)."""
        return "number" in self.model.model_fields

    def provided_by(self, pack: Pack) -> bool:
        """Whether ``pack`` provides it (a bundle: every part it requires)."""
        return all(pack.provides(part) for part in self.parts)

    @property
    def parts(self) -> tuple[str, ...]:
        return (self.name,)


@dataclass(frozen=True)
class Kind(_Described):
    name: str
    title: str
    model: type[BaseModel]
    template: str
    context: Callable[[Any, Pack, Options], Context]
    check: Callable[[Any, Pack, Options], list[Problem]] = lambda case, pack, options: []
    # Whether the template marks the case's values in review mode (`--review`).
    review: bool = False
    # With `--review`, the review file written beside the document (its own template).
    review_template: str | None = None
    # What `docgen check` warns about without building the whole context.
    warnings: Callable[[Any, Pack, Options], list[str]] = lambda case, pack, options: []
    stylesheets: tuple[str, ...] = ("base/print.css",)
    layouts: dict[str, str] = field(default_factory=dict)  # layout name -> template
    # The languages of its courtesy renditions (LAW.md § 13), each from the kind's one
    # template and that language's catalog (docgen.render.language), every layout alike.
    renditions: tuple[str, ...] = ()
    # Layouts posted at the site, not delivered to a person (the placard): read from a
    # distance, every line at least 14 pt (LAW.md § 3), the language-access block too.
    posted: tuple[str, ...] = ()
    summary: str = ""
    # The title as documents print it when they name this one ("Notice of Violation No. ..."
    # in an affidavit of service); empty for a kind no other document names.
    heading: str = ""
    # An empty form with no case (`render --blank`): the context for a pack, or None.
    blank: Callable[[Pack, Options], Context] | None = None
    # One document per part (`render --split`): (name, case data) from valid case data.
    split: Callable[[dict[str, Any]], list[tuple[str, dict[str, Any]]]] | None = None
    # -- the description the register, the desk and `pack check` read -------------------
    needs: tuple[str, ...] = ()  # the pack groups it prints (a pack providing it gives them)
    served: bool = False  # served on persons: service is recorded and sworn to
    copies: bool = False  # one copy per person in copies_to (`render --copies`)
    appealable: bool = False  # its service starts an appeal period (LAW.md § 2)
    reads_history: bool = False  # its penalty reads the offense history (the register's)
    liftable: bool = False  # in effect from service until lifted in writing
    lifts: bool = False  # the written notice lifting a liftable document
    # A step of the appeal of an appealable document (LAW.md § 14): "received" (the
    # acknowledgment issued when a notice of appeal is recorded), "hearing", "decision".
    appeal_step: str | None = None
    # The letter granting a later date for a corrective action or a remedial measure of the
    # document it is about (LAW.md § 11): the calendar and escalation read the later date.
    extends: bool = False
    # The notice a matter opens with: the desk's "Start a notice" for a respondent or at a
    # site drafts one of this kind (LAW.md § 2: the notice of violation).
    opens_matter: bool = False
    # A notice or order to the persons responsible at a site: a new notice starts from its
    # recipient, copies and site (never an affidavit, an annex or a mailing list, which
    # name one person or none and no site).
    new_notice_from: bool = False
    # The kinds it may be started from on an issued document's page, that document's
    # number going in its case's field that names it (``notice``, ``notices``), or its
    # draft filled by the register (docgen.register.matter.inspections.started_by_register:
    # a reinspection from a notice of deficiency's open deficiencies, or the violations it
    # escalates to).
    follows: tuple[str, ...] = ()
    # The kinds an issued document of which this kind is made from by the register, whole,
    # with nothing typed (a notice of deficiency from an inspection report's deficiencies):
    # the issued document's page offers it (docgen.register.matter.inspections.MADE).
    made_from: tuple[str, ...] = ()
    # Whether the register makes it from an issued document of a kind in ``made_from``,
    # read from that document's stored case (an approval of corrected work only from a
    # report that reinspects a notice): the page offers it only then.
    made_when: Callable[[dict[str, Any]], bool] = _always
    # Its service halts land development activities at the site, except correcting the
    # deficiencies, until the work is approved (§ 228-79A(1); LAW.md § 11): the register's
    # halts and the calendar read the documents of this kind.
    halts: bool = False
    # The return receipt of a certified mailing, annexed to that mailing's affidavit when the
    # receipt is recorded (LAW.md § 2 "What comes back after mailing").
    annexes_receipt: bool = False
    # The firm mailing list of a day's certified pieces, for the post office (PS Form 3877):
    # `docgen mailing-list` and the desk's mailing page render it from the recorded mailings.
    lists_mailings: bool = False
    # Signed by each contractor itself before any land development activity (§ 228-78B(4);
    # LAW.md § 5): issued on the firm's own signature, by the register's invitations.
    contractor_signs: bool = False
    # Its step after the notice (§ 228-79C(5), (6); LAW.md § 14): "withholds" (occupancy),
    # "releases-hold", "requires-restoration", "states-cost", "liens", "releases-lien"; ""
    # for the others.
    # The register's after-notice events find their kinds by it.
    step: str = ""
    # What a document of it is issued upon, each entry the kinds one of which it needs (a
    # lien upon a statement of cost; the statement upon a notice requiring restoration and
    # an inspection report): a pack that provides it without one of each could never issue
    # it, and `pack check` says so (LAW.md § 14: each step after the one before it).
    issued_upon: tuple[tuple[str, ...], ...] = ()
    permission: str | None = None  # the desk permission that drafts and issues it
    # Made by the register from what it holds, never from a typed case (LAW.md § 15: the
    # SWPPP's letters from a review, a statement of fees from the services recorded): how
    # it is made instead ("" for the others); ``keeps``: what a correction of it keeps as
    # the register made it (the case's fields, each with its words).
    made_by_register: str = ""
    keeps: tuple[tuple[str, str], ...] = ()
    # The document's issue date: it prints the law in force that day (None: the latest).
    issued: Callable[[Any], date | None] = _none
    party: Callable[[Any], Addressee | None] = _none  # to whom it is addressed
    site: Callable[[Any], Place | None] = _none
    charge: Callable[[Any], Charge | None] | None = None  # the offense it charges, if any
    remedies_due: Callable[[Any], date | None] = _none  # the earliest remedy's due date


@dataclass(frozen=True)
class Bundle(_Described):
    """Documents of several kinds served together in one file (the violation packet).

    It is used like a kind (`kinds`, `schema`, `check`, `render`, `batch`): ``build``
    validates the bundle's case as a whole and renders each part with its own kind.
    """

    name: str
    title: str
    model: type[BaseModel]
    required: tuple[str, ...]  # the kinds a jurisdiction must provide for the bundle
    build: Callable[[dict[str, Any], Options, str], Rendition]
    validate: Callable[[dict[str, Any], Options, str], Any]  # the bundle's case, checked
    summary: str = ""
    review: bool = False
    layouts: dict[str, str] = field(default_factory=dict)
    split: None = None
    blank: None = None
    needs: tuple[str, ...] = ()
    served: bool = False
    copies: bool = False
    appealable: bool = False
    reads_history: bool = False
    liftable: bool = False
    lifts: bool = False
    appeal_step: str | None = None
    extends: bool = False
    opens_matter: bool = False
    new_notice_from: bool = False
    follows: tuple[str, ...] = ()
    step: str = ""
    permission: str | None = None
    made_by_register: str = ""
    issued_upon: tuple[tuple[str, ...], ...] = ()  # a bundle is issued as its parts
    keeps: tuple[tuple[str, str], ...] = ()
    issued: Callable[[Any], date | None] = _none
    party: Callable[[Any], Addressee | None] = _none
    site: Callable[[Any], Place | None] = _none
    charge: Callable[[Any], Charge | None] | None = None
    remedies_due: Callable[[Any], date | None] = _none

    @property
    def parts(self) -> tuple[str, ...]:
        return self.required
