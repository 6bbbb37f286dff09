"""What a firm's certification page asks of a rendering process (docgen.desk.server.renderers):
the case checked, the paper form rendered, the certification issued; and what a site's
page asks: the SWPPP's set of certifications, recorded and sealed. Plain data in and
out: a tagged result, never an open session."""

from __future__ import annotations

from typing import Any

from docgen.desk.server.renderers import Result, register_of
from docgen.errors import CaseInvalid, DocgenError


def _certification() -> str:
    """The kind each contractor signs itself (§ 228-78B(4)), as its description says."""
    # documents loads pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents import the_kind

    return the_kind(contractor_signs=True)


def problems(case: dict[str, Any]) -> Result:
    """("problems", [(path, message)]) of the case as the register would issue it."""
    # documents and others load pydantic, yaml, annotated_types (+170 ms): loaded on first use
    from docgen.documents import get_kind
    from docgen.documents.kind import Options
    from docgen.documents.pipeline import prepare

    try:
        prepare(get_kind(_certification()), case, Options(), "the certification")
    except CaseInvalid as err:
        return "problems", [(p.field, _message(p)) for p in err.problems]
    return "problems", []


def _message(problem: Any) -> str:
    cite = f" ({problem.provision})" if problem.provision else ""
    return f"{problem.message}{cite}"


def paper_form(case: dict[str, Any]) -> Result:
    """("pdf", the filled form to sign by hand): not issued, it carries no number."""
    # api loads pydantic, yaml, annotated_types (+180 ms): loaded on first use
    from docgen import api

    _, files = api.render_bytes(_certification(), case, ("pdf",))
    return "pdf", files["pdf"]


def sign(
    url: str | None,
    token: str,
    entry: dict[str, Any],
    method: str,
    intent: str | None,
    scan: bytes | None,
) -> Result:
    """("issued", (number, whether the municipality sealed its PDF)), ("problems",
    [(path, message)]) or ("refused", why)."""
    # register.sites.invitations loads sqlalchemy, pydantic, cryptography (+580 ms):
    # loaded on first use
    from docgen.register.sites import certifying, invitations

    try:
        issued = certifying.sign(register_of(url), token, entry, method, intent, scan)
    except invitations.InvalidLink:
        return "refused", "This link is not valid any more; nothing was recorded."
    except CaseInvalid as err:
        return "problems", [(p.field, _message(p)) for p in err.problems]
    except DocgenError as err:
        return "refused", str(err)
    return "issued", (issued.number, issued.signed)


def certification_set(url: str | None, site_id: int, by: str) -> Result:
    """("pdf", the site's set of signed certifications as recorded and sealed),
    ("unsigned", why) when no firm has signed, or ("refused", why):
    docgen.register.sites.certification_sets."""
    # register.sites.certification_sets and others load sqlalchemy (+580 ms): loaded on first use
    from docgen.register.sites import certification_sets, invitations

    try:
        return "pdf", certification_sets.assemble(register_of(url), site_id, by).pdf
    except invitations.InvitationError as err:
        return "unsigned", str(err)
    except DocgenError as err:
        return "refused", str(err)
