"""New York acknowledgments for instruments recorded against real property: who signs how.

The certificate's words are state law, in the state pack (docgen/law/state/new-york.yaml,
``acknowledgment``). Real Property Law § 309-a(1) prescribes the certificate for an
acknowledgment taken in New York of an instrument in respect to real property in New
York; it "must conform substantially with the following form, the blanks being properly
filled". The statute's
"person" covers individuals and every entity acting through a representative, so one
certificate serves both; what the owner's kind decides is how the blank after
"personally appeared" is filled: the signer alone (an individual, in their own
capacity), the signer with the office they hold for the owner (a representative
capacity), or the signer as trustee of a trust (title to trust property is in the
trustees, EPTL 7-2.1). The notary's block follows Executive Law § 137.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OwnerKind:
    """How an owner of this kind is named, and which filling of the form it signs with."""

    noun: str  # "limited liability company": "a New York limited liability company"
    form: str  # "individual" (own capacity), "representative" (an office), "trustee"

    @property
    def firm(self) -> bool:
        """An entity organized under a state's law (named with its state of organization)."""
        return self.form == "representative"


# The owner kinds docgen has an acknowledgment form for; the case model accepts no other.
# A trust holds no title: its trustees do (EPTL 7-2.1), so they grant and sign as trustees.
OWNER_KINDS: dict[str, OwnerKind] = {
    "individual": OwnerKind("individual", "individual"),
    "corporation": OwnerKind("corporation", "representative"),
    "llc": OwnerKind("limited liability company", "representative"),
    "partnership": OwnerKind("partnership", "representative"),
    "trust": OwnerKind("trust", "trustee"),
}


# Postal abbreviations -> the names an acknowledgment prints ("State of Pennsylvania").
STATE_NAMES = {
    "AL": "Alabama", "AK": "Alaska", "AZ": "Arizona", "AR": "Arkansas", "CA": "California",
    "CO": "Colorado", "CT": "Connecticut", "DE": "Delaware", "DC": "District of Columbia",
    "FL": "Florida", "GA": "Georgia", "HI": "Hawaii", "ID": "Idaho", "IL": "Illinois",
    "IN": "Indiana", "IA": "Iowa", "KS": "Kansas", "KY": "Kentucky", "LA": "Louisiana",
    "ME": "Maine", "MD": "Maryland", "MA": "Massachusetts", "MI": "Michigan",
    "MN": "Minnesota", "MS": "Mississippi", "MO": "Missouri", "MT": "Montana",
    "NE": "Nebraska", "NV": "Nevada", "NH": "New Hampshire", "NJ": "New Jersey",
    "NM": "New Mexico", "NY": "New York", "NC": "North Carolina", "ND": "North Dakota",
    "OH": "Ohio", "OK": "Oklahoma", "OR": "Oregon", "PA": "Pennsylvania",
    "RI": "Rhode Island", "SC": "South Carolina", "SD": "South Dakota", "TN": "Tennessee",
    "TX": "Texas", "UT": "Utah", "VT": "Vermont", "VA": "Virginia", "WA": "Washington",
    "WV": "West Virginia", "WI": "Wisconsin", "WY": "Wyoming", "PR": "Puerto Rico",
}  # fmt: skip


def state_name(state: str) -> str:
    """The state's name in full ("PA" -> "Pennsylvania"); a name already in full as typed."""
    text = " ".join(str(state).split())
    return STATE_NAMES.get(text.upper().replace(".", ""), text)


def taken_outside_new_york(state: str | None) -> bool:
    """Whether an acknowledgment taken in ``state`` needs the RPL § 309-b form."""
    return state is not None and state_name(state) != "New York"


# Offices several people may hold at once: "a Member of ... LLC", not "the Member". Any
# other office (President, Managing Member, Trustee of a named trust...) takes "the".
SHARED_OFFICES = frozenset({"member", "manager", "partner", "general partner", "director"})


def office_article(title: str) -> str:
    """'a' for an office several may hold (a Member), else 'the' (the Managing Member)."""
    return "a" if " ".join(str(title).lower().split()) in SHARED_OFFICES else "the"
