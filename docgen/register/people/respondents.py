"""Finding the respondent a case is about, or making one; aliases and addresses on record.

A respondent is taken without asking only when exactly one record has the case's name
key (its name or an alias) *and* its address key. Anything else that comes close (the
same name at another address; the same words in another order, look-alike letters or
another accent: the loose key; a similar name anywhere) stops the issue with the
candidates and their ids; the clerk then names one with ``--respondent ID`` (the
document names the record as the register holds it, and a new address is kept on it;
with ``--keep-typed-name`` the name as typed is kept and becomes an alias of that record:
the clerk said so) or ``--respondent new``. A name without a letter or digit is
refused: it has no key.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from docgen.documents.kind import ENGLISH
from docgen.errors import Problem
from docgen.law.taglines import language_name
from docgen.register.people.matching import (
    address_key,
    is_near,
    looks_like_firm,
    loose_key,
    loose_keys,
    name_key,
)
from docgen.register.rules.copies import rendition_languages
from docgen.register.storage.audit import record
from docgen.register.storage.db import Refused, RegisterError
from docgen.register.storage.models import Alias, Respondent, RespondentAddress
from docgen.register.storage.records import Candidate, RespondentRef

NEW = "new"


class AmbiguousRespondent(RegisterError):
    """Several or near matches: the clerk must choose (``--respondent ID`` or ``new``)."""

    def __init__(self, name: str, candidates: list[Candidate]):
        self.name = name
        self.candidates = candidates
        lines = "\n  ".join(str(c) for c in candidates)
        super().__init__(
            f"respondent {name!r} is not matched with certainty; candidates:\n  {lines}\n"
            "name one with --respondent ID, or --respondent new for a different person or firm"
        )


def ref(respondent: Respondent, created: bool = False) -> RespondentRef:
    return RespondentRef(
        id=respondent.id,
        name=respondent.name,
        kind=respondent.kind,
        addresses=tuple(a.one_line() for a in respondent.addresses),
        aliases=tuple(a.name for a in respondent.aliases),
        created=created,
        language=respondent.language,
    )


def _address_fields(address: Any) -> dict[str, str]:
    return {
        "street": address.street,
        "city": address.city,
        "state": address.state,
        "zip": address.zip,
    }


def key_of(name: str, field: str = "recipient.name") -> str:
    """The name's key; a name with no letter or digit in any script is refused."""
    key = name_key(name)
    if not key:
        raise RegisterError(
            f"{field}: {name!r} has no letter or digit; a respondent is found by name, so "
            "the name must be written out"
        )
    return key


def _ids_named(session: Session, key: str) -> set[int]:
    direct = session.scalars(select(Respondent.id).where(Respondent.name_key == key))
    aliased = session.scalars(select(Alias.respondent_id).where(Alias.name_key == key))
    return set(direct) | set(aliased)


def _ids_loosely_named(session: Session, loose: frozenset[str]) -> dict[int, str]:
    """Respondents whose name or an alias has one of the loose keys ``loose``."""
    direct = session.execute(
        select(Respondent.id, Respondent.name).where(Respondent.loose_key.in_(loose))
    ).all()
    aliased = session.execute(
        select(Alias.respondent_id, Alias.name).where(Alias.loose_key.in_(loose))
    ).all()
    return {rid: name for rid, name in [*direct, *aliased]}


def _ids_at(session: Session, key: str) -> set[int]:
    return set(
        session.scalars(
            select(RespondentAddress.respondent_id).where(RespondentAddress.address_key == key)
        )
    )


def near_names(session: Session, key: str) -> dict[int, str]:
    """Respondents whose name or an alias is near ``key`` (but not equal): id -> that name."""
    found: dict[int, str] = {}
    rows = [
        *session.execute(select(Respondent.id, Respondent.name_key, Respondent.name)),
        *session.execute(select(Alias.respondent_id, Alias.name_key, Alias.name)),
    ]
    for rid, other, name in rows:
        if other != key and rid not in found and is_near(key, other):
            found[rid] = name
    return found


def candidates(session: Session, name: str, address: Any | None) -> list[Candidate]:
    """Every record that is, or may be, the respondent called ``name`` at ``address``."""
    key = key_of(name)
    named = _ids_named(session, key)
    at = _ids_at(session, address_key(**_address_fields(address))) if address else set()
    found: dict[int, str] = {}
    for rid in named:
        found[rid] = "same name and address" if rid in at else "same name, another address"
    for rid, other in _ids_loosely_named(session, loose_keys(name)).items():
        found.setdefault(
            rid, f"near name ({other}: the same words in another order, or look-alike letters)"
        )
    for rid, other in near_names(session, key).items():
        found.setdefault(rid, f"similar name ({other})")
    out = []
    for rid, why in sorted(found.items()):
        r = session.get_one(Respondent, rid)
        where = tuple(a.one_line() for a in r.addresses)
        out.append(Candidate(rid, r.name, where, why, r.language))
    return out


MAX_ID = 2**31 - 1  # the largest id a register column holds (SQL INTEGER)


def parse_id(text: int | str, field: str = "--respondent") -> int | None:
    """``"12"`` or ``"#12"`` -> 12; None for anything that cannot be an id in the register."""
    digits = str(text).strip().lstrip("#")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 10:
        return None
    number = int(digits)
    return number if 0 < number <= MAX_ID else None


def resolve(
    session: Session,
    name: str,
    address: Any | None,
    chosen: int | str | None,
    actor: str,
    expected: int | None = None,
    make: bool = True,
) -> tuple[Respondent | None, bool]:
    """The respondent for a case (and whether it was created now); see the module's rules.

    ``expected``: the respondent the case should be about (a superseded document's): it
    is taken only when the name and address match it exactly, and the clerk is asked
    otherwise, never told that someone else is that respondent. ``make=False``: a new
    respondent is not made yet, ``(None, True)`` says one would be (an issue makes it
    once its document is rendered: no id is spent on a transaction rolled back).
    """
    if chosen is not None and str(chosen).strip().lower() != NEW:
        number = parse_id(chosen)
        respondent = session.get(Respondent, number) if number is not None else None
        if respondent is None:
            raise RegisterError(f"--respondent {chosen}: no respondent with that id")
        remember(session, respondent, name, address, actor)
        return respondent, False
    if chosen is None:
        found = candidates(session, name, address)
        exact = [c for c in found if c.why == "same name and address"]
        if len(exact) == 1 and expected in (None, exact[0].id):
            return session.get_one(Respondent, exact[0].id), False
        if expected is not None and expected not in {c.id for c in found}:
            r = session.get_one(Respondent, expected)
            where = tuple(a.one_line() for a in r.addresses)
            found.append(Candidate(r.id, r.name, where, "the superseded document's respondent"))
        if found:
            raise AmbiguousRespondent(name, found)
    if not make:
        key_of(name)  # a name that cannot be a respondent is refused now, not later
        return None, True
    respondent = Respondent(
        name=name,
        kind="firm" if looks_like_firm(name) else "person",
        name_key=key_of(name),
        loose_key=loose_key(name),
        created_at=datetime.now().astimezone(),
    )
    session.add(respondent)
    session.flush()
    if address is not None:
        remember(session, respondent, name, address, actor)
    record(session, actor, "create", "respondent", respondent.id, {"name": name})
    return respondent, True


def remember(session: Session, respondent: Respondent, name: str, address: Any, actor: str) -> None:
    """Keep a new spelling of the name as an alias, and a new address, on the record."""
    key = key_of(name)
    if key != respondent.name_key and key not in {a.name_key for a in respondent.aliases}:
        respondent.aliases.append(Alias(name=name, name_key=key, loose_key=loose_key(name)))
        record(session, actor, "alias", "respondent", respondent.id, {"name": name})
    if address is None:
        return
    fields = _address_fields(address)
    akey = address_key(**fields)
    if akey not in {a.address_key for a in respondent.addresses}:
        respondent.addresses.append(RespondentAddress(address_key=akey, **fields))
        record(session, actor, "address", "respondent", respondent.id, fields)
    session.flush()


def prefer(session: Session, respondent: Respondent, language: str | None, actor: str) -> None:
    """Keep ``language`` as the one ``respondent`` prefers (LAW.md § 13), as a case said
    (checked there against the municipality's languages) or the clerk chose (None: no
    preference kept); a change is in the audit, from and to."""
    if respondent.language != language:
        record(
            session,
            actor,
            "language",
            "respondent",
            respondent.id,
            {"from": respondent.language, "to": language},
        )
        respondent.language = language
        session.flush()


def choose_language(session: Session, rid: int, language: str | None, actor: str) -> RespondentRef:
    """The clerk's choice of the language respondent ``rid`` prefers (LAW.md § 13): one
    docgen issues courtesy copies in, English (no courtesy copy) or None (no preference);
    the language already kept may be chosen again (a case may have named another the
    municipality offers). Anything else is refused naming the field, nothing changed."""
    respondent = session.get(Respondent, rid)
    if respondent is None:
        raise RegisterError(f"no respondent #{rid}")
    offered = (ENGLISH, *rendition_languages())
    if language is not None and language not in offered and language != respondent.language:
        names = ", ".join(f"{language_name(code)} ({code})" for code in offered)
        raise Refused(
            [
                Problem(
                    "language",
                    f"{language[:20]!r} is not a language courtesy copies are issued in; "
                    f"choose {names}, or no preference",
                    "LAW.md § 13",
                )
            ]
        )
    prefer(session, respondent, language, actor)
    return ref(respondent)
