"""Jurisdiction packs: the law of one municipality as typed, cited data.

A pack is one YAML file (docgen/law/*.yaml, or any *.yaml in the folder named by
``DOCGEN_PACKS``; its id is the file's stem). Every value is a mapping with ``value`` and
``ref``, the provision it comes from (:class:`Cited`); groups of values carry their own
``ref``. The file is validated against :class:`Pack` when it is loaded, so a typo in a
key is an error naming the file and the key path, not a surprise when some document
renders. Loading, versions and the registry of packs are in docgen.law.packs.

A pack provides a kind of document by listing it under ``provisions`` (``value: true``)
and giving the groups that kind prints (the kind's ``needs``, in docgen.documents: `pack
check` and every use refuse a kind provided without them); a kind it does not provide
is refused with the pack's own reason (``note``).
"""

from __future__ import annotations

import re
from datetime import date as Day
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any, Generic, Literal, Protocol, TypeVar
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from docgen.errors import UnsupportedKind
from docgen.kinds import MODULES
from docgen.law.year import CATEGORY_IDS, month_day

T = TypeVar("T")
Ref = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=False)


class Cited(Strict, Generic[T]):
    """One value of the law and the provision it comes from."""

    value: T
    ref: Ref
    note: str | None = None


class CitedText(Cited[Text]):
    """Words of the law (or a reading of it). A courtesy copy (LAW.md § 13) takes their
    rendering from the language's translation catalog (docgen.render.language); an
    adopter's pack may give its own Spanish rendering beside the words (``es``), reviewed
    and edited together with them, which then comes first."""

    es: Text | None = None


# One model per kind of value (a parametrized model is built once, not at each use).
CitedCount = Cited[Annotated[int, Field(gt=0)]]


class Group(Strict):
    """Values that share a provision (each still carries its own ``ref``)."""

    ref: Ref
    note: str | None = None


# The model law's sections and subsections, by heading (the DEC model local law that each
# adopter took up, numbering it its own way): the keys of a pack's
# ``code.section_map``, through which `docgen pack check` renumbers the samples of one pack
# into another's sections.
MODEL_SECTIONS = (
    "general_provisions", "findings", "purpose", "authority", "applicability", "exemptions",
    "stormwater_management", "definitions", "swppp", "contractor_certification",
    "performance_criteria", "maintenance", "maintenance_during_construction",
    "site_inspections", "maintenance_easement", "maintenance_after_construction",
    "maintenance_agreement", "administration_and_enforcement", "construction_inspection",
    "performance_guarantee", "enforcement", "notice_of_violation", "stop_work_order",
    "violations", "penalties", "certificate_of_occupancy", "restoration", "fees",
)  # fmt: skip


# The model section whose text each group or value of a pack holds, for the message naming
# the section a missing value needs (the longest key that begins its path applies).
SECTION_OF = {
    "certification": "contractor_certification",
    "enforcement": "enforcement",
    "enforcement.elements": "notice_of_violation",
    "enforcement.addressed_to": "notice_of_violation",
    "enforcement.appeal_days": "notice_of_violation",
    "enforcement.appeal_statement": "notice_of_violation",
    "enforcement.stop_work": "stop_work_order",
    "enforcement.stop_work_duration": "stop_work_order",
    "enforcement.stop_work_failure": "stop_work_order",
    "enforcement.stabilization": "construction_inspection",
    "enforcement.injunction": "violations",
    "enforcement.certificate_of_occupancy": "certificate_of_occupancy",
    "enforcement.restoration": "restoration",
    "enforcement.fees": "fees",
    "appeals": "notice_of_violation",
    "extensions": "construction_inspection",
    "penalties": "penalties",
    "inspection": "construction_inspection",
    "logbook": "site_inspections",
    "easement": "maintenance_easement",
    "recording": "maintenance_easement",
    "agreement": "maintenance_agreement",
    "agreement.after_construction": "maintenance_after_construction",
}


def section_needed(path: str, section_map: dict[str, str]) -> str:
    """' (the model law's stop_work_order section, this pack's § 17-22C(2))' for a value at
    ``path``: where the law's text for it is to be found ('' when no section is known)."""
    keys = [k for k in SECTION_OF if path == k or path.startswith(k + ".")]
    if not keys:
        return ""
    model = SECTION_OF[max(keys, key=len)]
    held = section_map.get(model)
    where = f"this pack's § {held}" if held else "not in code.section_map: map it"
    return f" (the text of the model law's {model} section; {where})"


class Code(Strict):
    chapter: CitedText
    article: CitedText | None = None  # none where the law is a chapter of its own
    title: CitedText
    sections: CitedText
    # Each section of the article -> its subsections as the adopted text numbers them
    # ("228-78": ["A", "B", "B(1)", "B(1)(a)", ...]): what a violation may cite.
    provisions: Cited[dict[Text, list[Text]]]
    # The provisions a violation may cite as the provision violated (each a section or a
    # subsection of ``provisions``, with everything under it), and the parts of the article
    # that find, declare, define or empower rather than bind, each named for the refusal
    # ("228-78A": definitions). docgen.law.provisions reads both.
    violable: Cited[list[Text]]
    not_violable: dict[Text, CitedText] = Field(default_factory=dict)
    # The model law's sections (MODEL_SECTIONS) -> this law's provisions that hold them
    # ("contractor_certification": "228-78B(4)"): one provision each, none given twice.
    section_map: Cited[dict[Text, Text]] | None = None

    @model_validator(mode="after")
    def _listed(self) -> Code:
        listed = self.provisions.value
        mapped = self.section_map.value if self.section_map else {}
        for where, keys in (
            ("violable", self.violable.value),
            ("not_violable", self.not_violable),
            ("section_map", mapped.values()),
        ):
            for key in keys:
                found = re.fullmatch(r"(\d+-\d+)(.*)", key)
                if not found or found[1] not in listed or found[2] not in ("", *listed[found[1]]):
                    raise ValueError(f"{where}: {key!r} is not one of code.provisions")
        unknown = [key for key in mapped if key not in MODEL_SECTIONS]
        if unknown:
            raise ValueError(
                f"section_map: {', '.join(map(repr, unknown))} is not a section of the model "
                f"law (its sections: {', '.join(MODEL_SECTIONS)})"
            )
        seen: dict[str, str] = {}
        for key, provision in mapped.items():
            if provision in seen:
                raise ValueError(
                    f"section_map: {seen[provision]} and {key} are both {provision!r}; each "
                    "section of the model law is held by a provision of its own"
                )
            seen[provision] = key
        return self

    @property
    def unit(self) -> str:
        """How documents name the law: 'the article' of a chapter, or 'the chapter'."""
        return "article" if self.article else "chapter"

    def part_of_code(self) -> str:
        """'Article XII of Chapter 228', or 'Chapter 170' for a law that is a chapter."""
        chapter = f"Chapter {self.chapter.value}"
        return f"Article {self.article.value} of {chapter}" if self.article else chapter


class Offices(Group):
    """The municipality's offices: the letterhead's address and telephone."""

    name: CitedText
    street: CitedText
    city: CitedText
    phone: Cited[Annotated[str, StringConstraints(pattern=r"^\d{10}$")]]
    hours: CitedText | None = None  # when the offices are open (a municipality's setting)


class MailService(Group):
    days_added: Cited[Annotated[int, Field(ge=0)]]
    received: CitedText
    not_received: CitedText


class Service(Group):
    """When service is complete for the appeal period, by each means (sentences with
    {date}, {received}, {mailed} and {start} filled in by docgen.law.deadlines)."""

    personal: CitedText
    mail: MailService
    posting: CitedText
    # Printed before service: when service is complete for each means, in plain words.
    complete: CitedText | None = None
    # A stop-work order printed before service: when it takes effect (LAW.md § 3).
    order_effect: CitedText | None = None


class Certification(Strict):
    """The contractor certification: the statement is the law's own words."""

    statement: CitedText
    who_signs: CitedText
    required_fields: CitedText
    part_of_swppp: CitedText
    # The DEC construction general permit: where the trained contractor and the SWPPP
    # elements a firm is responsible for come from (not the local article).
    permit: CitedText
    # The municipality's own date for an unsigned form ("today" where the form is used).
    time_zone: CitedText
    # Only where the article defines a trained contractor (as § 228-78A does); where it
    # has no such definition (§§ 301-71 to 301-73), forms print no period and flag nothing.
    training_valid_years: CitedCount | None = None


class AppealDeadline(Group):
    """GCL § 25-a: a period set by law that ends on a weekend or public holiday."""

    roll_forward: CitedText
    weekend_days: Cited[list[Text]]
    public_holidays: Cited[list[Text]]
    # the statute's history: a holiday added by an amendment is one from that day on
    holidays_added: Cited[dict[Text, Day]]
    sunday_moves_to_monday: Cited[bool]
    sunday_rule_excepts: Cited[list[Text]]


# The elements of the model law's notice of violation, in its order. An adopter's law lists
# any of them (six, (a) to (f); or five, with no appeal, as some adopters did).
ELEMENTS = ("addressee", "site", "nature", "remedies", "penalty", "appeal")
_LETTER = re.compile(r"(?:\(([a-z]|\d+)\)|(?<=[\d)])([A-Z]))\s*$")


class NoticeElements(Group):
    """What a notice of violation shall contain, in the law's words, order and lettering:
    the elements its law lists, each cited to its own letter (a ref ending "(f)" is "(f)").
    An element the law does not list is absent: never printed as if required, never asked
    for."""

    addressee: CitedText | None = None
    site: CitedText | None = None
    nature: CitedText | None = None
    remedies: CitedText | None = None
    penalty: CitedText | None = None
    appeal: CitedText | None = None

    @model_validator(mode="before")
    @classmethod
    def _in_order(cls, data: Any) -> Any:
        if isinstance(data, dict):
            given = [key for key in data if key in ELEMENTS]
            if given != sorted(given, key=ELEMENTS.index):
                raise ValueError(
                    f"the elements are listed {', '.join(given)}; list them in the law's order: "
                    f"{', '.join(k for k in ELEMENTS if k in given)}"
                )
        return data

    @model_validator(mode="after")
    def _lettered(self) -> NoticeElements:
        listed = self.listed()
        if not listed:
            raise ValueError(f"list the elements the law requires (any of {', '.join(ELEMENTS)})")
        previous: tuple[str, int] | None = None
        for key, letter, element in listed:
            if letter is None:
                raise ValueError(
                    f"{key}: ref {element.ref!r} does not end in the element's letter "
                    "(a subsection such as '(f)' or 'E', as the law letters its elements)"
                )
            rank = _rank(letter)
            if previous is not None and rank <= previous[1]:
                raise ValueError(
                    f"{key}: lettered {letter} after {previous[0]}; the elements follow the "
                    "law's lettering in order"
                )
            previous = (letter, rank)
        return self

    def listed(self) -> list[tuple[str, str | None, CitedText]]:
        """(key, letter, element) of each element the law lists, in its order."""
        out = []
        for key in ELEMENTS:
            element = getattr(self, key)
            if element is not None:
                found = _LETTER.search(element.ref)
                letter = None if found is None else (f"({found[1]})" if found[1] else found[2])
                out.append((key, letter, element))
        return out

    def letter(self, key: str) -> str:
        """'(f)' or 'E': the element's letter as its law writes it ('' if not listed)."""
        return next((letter or "" for k, letter, _ in self.listed() if k == key), "")


def _rank(letter: str) -> int:
    inner = letter.strip("()")
    return int(inner) if inner.isdigit() else ord(inner.lower())


class AppealProcedure(Group):
    """The appeal as a landowner needs it, printed beside element (f): who hears it, how
    it is filed in person and by mail, when a mailed appeal counts, whether filing stays
    the remedies. The article says only "appealed to the municipality by filing a written
    notice of appeal": each value beyond that is a reading for counsel (its ``note``)."""

    heard_by: CitedText
    in_person: CitedText
    by_mail: CitedText
    mailed_filing: CitedText  # filed when received, or when mailed: a reading
    stay: CitedText  # whether filing an appeal stays the remedies: a reading


class AddressedTo(Cited[list[Literal["landowner", "developer", "applicant"]]]):
    """To whom the law issues a notice of violation: "to the landowner" (§ 228-79C(1)); or,
    in another adopter's words, "to the landowner, applicant and/or developer"."""

    @model_validator(mode="after")
    def _some(self) -> AddressedTo:
        if not self.value or len(set(self.value)) != len(self.value):
            raise ValueError("list each person the notice may be issued to, once")
        return self


# What a notice needs when its law lets it be appealed, and nothing of it when not.
APPEAL_KEYS = ("appeal_days", "appeal_to", "appeal_office", "appeal_procedure", "appeal_statement")


class Enforcement(Strict):
    # To whom a notice is issued (§ 228-79C(1): "to the landowner"); the others are named
    # beside it and sent copies.
    addressed_to: AddressedTo | None = None
    appeal_days: CitedCount | None = None
    appeal_to: CitedText | None = None
    appeal_office: CitedText | None = None
    appeal_procedure: AppealProcedure | None = None
    service: Service
    appeal_statement: CitedText | None = None
    # A correction (docgen supersede): the document it replaces ({old}, {issued}), and that
    # its own service starts its own appeal period (a reading for counsel).
    correction: CitedText | None = None
    correction_appeal: CitedText | None = None
    # Where the replaced one was itself a correction: the line back to the first
    # ({earlier}), and which one was served on the person ({served}, {person}, {date}).
    correction_line: CitedText | None = None
    correction_served: CitedText | None = None
    correction_unserved: CitedText | None = None
    appeal_deadline: AppealDeadline
    stop_work_duration: CitedText
    stop_work_failure: CitedText
    stop_work: CitedText
    stabilization: CitedText
    injunction: CitedText
    certificate_of_occupancy: CitedText
    restoration: CitedText
    fees: CitedText
    # After the notice (LAW.md § 14): the office sent a copy of an order preventing
    # occupancy (§ 228-79C(5): the certificate of occupancy is withheld), and how such an
    # order ends; both the municipality's practice, the article saying neither.
    building_department: CitedText | None = None
    occupancy_ends: CitedText | None = None
    # Remedies the adopter's law adds to the model's (appearance tickets): named on the
    # notice with their section, never issued by docgen.
    remedies_added: dict[Text, CitedText] = Field(default_factory=dict)
    elements: NoticeElements

    @model_validator(mode="after")
    def _appeal(self) -> Enforcement:
        given = [key for key in APPEAL_KEYS if getattr(self, key) is not None]
        if self.elements.appeal is not None:
            missing = [key for key in APPEAL_KEYS if key != "appeal_to" and key not in given]
            if missing:
                raise ValueError(
                    f"elements.appeal is listed ({self.elements.appeal.ref}), so the notice "
                    f"states the appeal: give {', '.join(missing)}"
                )
        elif given:
            raise ValueError(
                f"{', '.join(given)} given, but elements lists no appeal: the law gives no "
                "appeal of a notice of violation, and a notice never states one"
            )
        return self

    @property
    def appealable(self) -> bool:
        """Whether the law lets a notice of violation be appealed (an appeal period)."""
        return self.elements.appeal is not None

    def addressees(self) -> list[str]:
        return list(self.addressed_to.value) if self.addressed_to else ["landowner"]


class Appeals(Group):
    """Who hears an appeal of a notice of violation, and where (LAW.md § 14). The article
    says only that the determination "may be appealed to the municipality" (§ 228-79C(1)(f))
    and names no board or officer: each value is the municipality's own choice, and the
    documents say so (``chosen``), never as if the article named it."""

    heard_by: CitedText  # the board or officer that hears and decides appeals
    place: CitedText  # where hearings are held, unless the notice of hearing names another
    chosen: CitedText  # the sentence saying the article names no one: the municipality chose


class Extensions(Group):
    """A later date for a corrective action or a remedial measure (LAW.md § 11): granted by
    the officer, recorded, and told to the person it binds in a short letter."""

    rule: CitedText  # extended, never shortened: the municipality's practice


class Inspection(Group):
    """The officer's inspection and the written notice of deficiencies (§ 228-79A(1);
    LAW.md § 11): the law's words, and the readings chosen beside them."""

    may_inspect: CitedText
    notify: CitedText
    halt: CitedText  # verbatim: "No further work shall be conducted except for ..."
    halt_effect: CitedText  # from service of the notice (a reading)
    right_of_entry: CitedText
    corrective_dates: CitedText  # each corrective action has a date (a reading)
    reinspection: CitedText  # how to ask for the reinspection
    approval: CitedText
    resume: CitedText
    partial: CitedText


class Logbook(Group):
    """The site's own inspections and its log book (§ 228-78D(2); § 301-73A(2)): the
    interval, how many inspections it must hold, the exemptions and the storm rule."""

    daily: CitedText | None = None  # the trained contractor's daily inspection
    qualified: CitedText
    interval_days: CitedCount
    inspections_per_interval: CitedCount
    acre: CitedText | None = None  # D(2)(d): an authorization to disturb an acre or more
    acre_inspections_per_interval: CitedCount | None = None
    exemptions: Cited[dict[Text, Text]] | None = None  # D(2)(c): no seven-day inspections
    storm_inches: Cited[Decimal] | None = None  # a storm of 0.5 inch or more (§ 301-73A(2))
    storm_hours: CitedCount | None = None  # ... calls for an inspection within 24 hours
    require_reports: CitedText | None = None  # § 228-79A(4): the officer may require them
    records: CitedText | None = None  # § 228-79B(3)


class PenaltyTier(Strict):
    """One bracket of the penalty section: the offense number it applies from, the fines."""

    offense: Annotated[int, Field(gt=0)]
    fine_min: Decimal | None
    fine_max: Decimal
    imprisonment_max_months: Annotated[int, Field(ge=0)]
    ref: Ref

    @model_validator(mode="after")
    def _ordered(self) -> PenaltyTier:
        if self.fine_min is not None and self.fine_min > self.fine_max:
            raise ValueError(f"fine_min {self.fine_min} is above fine_max {self.fine_max}")
        return self


class Penalties(Group):
    lookback_years: CitedCount
    continued_violation_days: CitedCount
    misdemeanor_clause: CitedText
    additional: CitedText
    # What a served document says of the matters it does not print (LAW.md § 4, reading 10).
    sealed: CitedText
    tiers: list[PenaltyTier] = Field(min_length=1)

    @model_validator(mode="after")
    def _numbered(self) -> Penalties:
        numbers = [t.offense for t in self.tiers]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"tiers must be offenses 1, 2, 3... in order; found {numbers}")
        return self


class Easement(Group):
    access: CitedText
    approved_by: CitedText
    purpose: CitedText


class Resolution(Strict):
    """A board resolution: the body that adopted it, when, and its number."""

    body: Text
    date: Day
    resolution: Text


class Recording(Group):
    tax_map_label: CitedText  # as the county labels its parcel numbers
    signatory: CitedText
    return_to: Cited[list[Text]]
    # A standing resolution authorizing the signatory to sign every such instrument; a
    # case's own `authorization` (one resolution for one instrument) takes precedence.
    authorization: Cited[Resolution] | None = None
    # The standing officer who signs, by name (the office is ``signatory``); a case's own
    # `signatory` takes precedence.
    signatory_name: CitedText | None = None


class AgreementTerms(Group):
    inspection_years: CitedCount
    report_days: CitedCount
    security_days: CitedCount


class AfterConstruction(Group):
    duty: CitedText
    program: CitedText
    procedures: CitedText
    discharges: CitedText


class Agreement(Group):
    model: CitedText
    dedication: CitedText
    terms: AgreementTerms
    after_construction: AfterConstruction


class Numbering(Group):
    """The register's number format per kind (``{year}``, ``{seq:04d}``): local practice."""

    formats: dict[str, CitedText]

    @model_validator(mode="after")
    def _one_series_per_format(self) -> Numbering:
        """Two kinds numbered in one format would give two documents the same number."""
        seen: dict[str, str] = {}
        for kind, entry in self.formats.items():
            if entry.value in seen:
                raise ValueError(
                    f"formats.{seen[entry.value]} and formats.{kind} are both "
                    f"{entry.value!r}: two kinds would be given the same numbers; give each "
                    "kind a format of its own"
                )
            seen[entry.value] = kind
        return self

    def format_for(self, kind: str) -> str | None:
        entry = self.formats.get(kind)
        return entry.value if entry else None


class ServiceProof(Group):
    """Who may serve and how service is sworn to (the affidavit of service)."""

    server_age: CitedText
    methods: CitedText
    notary: CitedText
    affirmation: CitedText


class Acknowledgment(Group):
    """The certificate of acknowledgment of a recorded instrument (RPL §§ 309-a, 309-b;
    Executive Law § 137): state law, from the state pack."""

    certificate: CitedText
    outside_certificate: CitedText
    notary: CitedText


SWPPP_PARTS = ("contents", "where-it-applies", "post-construction")


class SwpppItem(Strict):
    """One item of the law's list of what a SWPPP contains (§ 228-78B(2); § 301-71B): a
    short id, a faithful short label, the law's words verbatim, and its citation. ``part``:
    ``contents`` (every SWPPP), ``where-it-applies`` (the water quantity and quality
    controls, required of the activities the law lists) or ``post-construction`` (required
    of a SWPPP that includes post-construction controls)."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9-]*$")]
    label: Text
    words: Text
    ref: Ref
    part: Literal["contents", "where-it-applies", "post-construction"]

    @property
    def may_not_apply(self) -> bool:
        """Whether a reviewer may find that the item does not apply to the activity."""
        return self.part != "contents"


class Swppp(Group):
    """The SWPPP and its review (LAW.md § 15): who receives it, the law's words on review
    and approval, and the list of what it contains, item by item."""

    received_by: CitedText  # the officer or board that receives and reviews the SWPPP
    before_review: CitedText  # "No application ... shall be reviewed until ..."
    approve: CitedText | None = None  # § 228-77D(4): "shall approve the SWPPP if it complies"
    amend: CitedText | None = None  # § 228-78B(2)(c)[12]: amendments reviewed and accepted
    items: list[SwpppItem] = Field(min_length=1)

    @model_validator(mode="after")
    def _ids_unique(self) -> Swppp:
        seen: set[str] = set()
        for item in self.items:
            if item.id in seen:
                raise ValueError(
                    f"items: two items have the id {item.id!r}; give each item an id of its own"
                )
            seen.add(item.id)
        return self

    def item(self, item_id: str) -> SwpppItem | None:
        return next((i for i in self.items if i.id == item_id), None)


class Year(Group):
    """The municipality's year (LAW.md § 15, a reading chosen): the first day of its
    reporting period (MM-DD; the period runs twelve months from it, named by the year it
    ends in) and, optionally, the State form's item number for each category of the
    report (docgen.law.year.CATEGORIES), which the seeds do not give."""

    starts: CitedText
    form_items: dict[str, CitedText] = {}

    @model_validator(mode="after")
    def _known(self) -> Year:
        try:
            month_day(self.starts.value)
        except ValueError as err:
            raise ValueError(f"starts: {err}") from err
        for category in self.form_items:
            if category not in CATEGORY_IDS:
                raise ValueError(
                    f"form_items: {category!r} is not a category of the report "
                    f"({', '.join(CATEGORY_IDS)})"
                )
        return self


class Titled(Protocol):
    """A kind as a pack's refusal names it (docgen.documents.kind.Spec): by its title with
    its article ("a notice of hearing of an appeal"), its name only looked up."""

    @property
    def name(self) -> str: ...
    @property
    def a_title(self) -> str: ...


class Pack(Strict):
    """One municipality's law. ``id`` is the pack file's stem."""

    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_-]*$")]
    name: CitedText
    short_name: CitedText
    county: CitedText
    code: Code
    offices: Offices | None = None
    counsel: CitedText
    officer: CitedText | None = None  # the officer the article designates (enforcement)
    provisions: dict[str, Cited[bool]]
    certification: Certification | None = None
    enforcement: Enforcement | None = None
    penalties: Penalties | None = None
    inspection: Inspection | None = None
    logbook: Logbook | None = None
    easement: Easement | None = None
    recording: Recording | None = None
    agreement: Agreement | None = None
    numbering: Numbering | None = None
    service_proof: ServiceProof | None = None
    acknowledgment: Acknowledgment | None = None
    appeals: Appeals | None = None
    extensions: Extensions | None = None
    swppp: Swppp | None = None
    year: Year | None = None

    @model_validator(mode="after")
    def _provisions_are_kinds(self) -> Pack:
        # What each kind prints is the kind's own description (docgen.documents): a kind
        # provided without its groups is refused by `pack check` and wherever it is used.
        for kind in self.provisions:
            if kind not in MODULES:
                raise ValueError(
                    f"provisions: {kind!r} is not a document kind ({', '.join(MODULES)})"
                )
        return self

    def provides(self, kind: str) -> bool:
        entry = self.provisions.get(kind)
        return bool(entry and entry.value)

    def require(self, kind: Titled) -> str:
        """The citation behind ``kind`` (a kind's description: its name and its title), or
        UnsupportedKind naming the document by its title and what the article lacks."""
        entry = self.provisions.get(kind.name)
        if entry and entry.value:
            return entry.ref
        why = entry.note if entry and entry.note else f"no provision for {kind.a_title}"
        raise UnsupportedKind(
            f"{self.name.value} cannot issue {kind.a_title}: the {self.code.title.value} "
            f"({self.code.sections.value}) has {why}. docgen does not borrow another "
            "municipality's provisions."
        )

    def part(self, name: str) -> Any:
        """The group ``name`` (``enforcement``, ``penalties``...), or UnsupportedKind naming it.

        A pack that provides a kind gives the groups it prints (checked at load), so this
        fails only for a kind the pack does not provide.
        """
        group = getattr(self, name)
        if group is None:
            raise UnsupportedKind(f"{self.name.value}: the pack gives no {name} provisions")
        return group

    def cite(self, path: str) -> str:
        """The ``ref`` of the value at ``path`` (a case model's ``@certification.who_signs``)."""
        node: Any = self
        ref = ""
        for part in path.split("."):
            node = node.get(part) if isinstance(node, dict) else getattr(node, part)
            if node is None:  # a value this pack's law does not give: its group's citation
                return ref
            ref = getattr(node, "ref", ref)
        return str(node.ref)

    def kinds(self) -> list[str]:
        return [kind for kind in MODULES if self.provides(kind)]


def municipal_today(pack: Pack) -> Day:
    """Today in the municipality (the pack's time zone), never the server's date: the
    date of an unsigned form, and the last day a service or a disposition may be dated."""
    return datetime.now(ZoneInfo(pack.part("certification").time_zone.value)).date()
