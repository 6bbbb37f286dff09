"""New York acknowledgments for instruments recorded against real property: cited data.

Real Property Law § 309-a(1) prescribes the certificate for an acknowledgment taken in
New York of an instrument in respect to real property in New York; it "must conform
substantially with the following form, the blanks being properly filled". The statute's
"person" covers individuals and every entity acting through a representative, so one
certificate serves both; what the owner's kind decides is how the blank after
"personally appeared" is filled: the signer alone (an individual, in their own
capacity), or the signer with the office they hold for the owner (a representative
capacity). The notary's block follows Executive Law § 137.
"""

from __future__ import annotations

from dataclasses import dataclass

ACKNOWLEDGMENT_REF = "Real Property Law § 309-a(1)"
OUTSIDE_REF = "Real Property Law § 309-b(1)"
NOTARY_REF = "Executive Law § 137"

# RPL § 309-a(1), after the blank for the name, character for character.
CERTIFICATE_TEXT = (
    "personally known to me or proved to me on the basis of satisfactory evidence to be the "
    "individual(s) whose name(s) is (are) subscribed to the within instrument and "
    "acknowledged to me that he/she/they executed the same in his/her/their capacity(ies), "
    "and that by his/her/their signature(s) on the instrument, the individual(s), or the "
    "person upon behalf of which the individual(s) acted, executed the instrument."
)


@dataclass(frozen=True)
class OwnerKind:
    """How an owner of this kind is described, and which filling of the form it signs with."""

    described: str  # "a limited liability company"
    form: str  # "individual" (own capacity) or "representative" (office for the owner)


# The owner kinds docgen has an acknowledgment form for; the case model accepts no other.
OWNER_KINDS: dict[str, OwnerKind] = {
    "individual": OwnerKind("an individual", "individual"),
    "corporation": OwnerKind("a corporation", "representative"),
    "llc": OwnerKind("a limited liability company", "representative"),
    "partnership": OwnerKind("a partnership", "representative"),
    "trust": OwnerKind("a trust, acting by its trustee(s)", "representative"),
}


# RPL § 309-b(1), for an acknowledgment taken outside New York: the same words up to the
# capacity, then the place where the signer appeared, character for character.
OUTSIDE_CERTIFICATE_TEXT = (
    "personally known to me or proved to me on the basis of satisfactory evidence to be the "
    "individual(s) whose name(s) is (are) subscribed to the within instrument and "
    "acknowledged to me that he/she/they executed the same in his/her/their capacity(ies), "
    "that by his/her/their signature(s) on the instrument, the individual(s), or the person "
    "upon behalf of which the individual(s) acted, executed the instrument, and that such "
    "individual made such appearance before the undersigned in the"
)


def taken_outside_new_york(state: str | None) -> bool:
    """Whether an acknowledgment taken in ``state`` needs the RPL § 309-b form."""
    return state is not None and " ".join(state.lower().split()) not in {"new york", "ny"}


# Offices several people may hold at once: "a Member of ... LLC", not "the Member". Any
# other office (President, Managing Member, Trustee of a named trust...) takes "the".
SHARED_OFFICES = frozenset({"member", "manager", "partner", "general partner", "director"})


def office_article(title: str) -> str:
    """'a' for an office several may hold (a Member), else 'the' (the Managing Member)."""
    return "a" if " ".join(str(title).lower().split()) in SHARED_OFFICES else "the"


def acknowledgment_form(owner_kind: str) -> str:
    """'individual' or 'representative' for ``owner_kind``; KeyError for a kind without one."""
    return OWNER_KINDS[owner_kind].form
