"""Sending a contractor its invitation through the municipality's mail server.

The server is the settings' ``smtp`` section (docgen.settings.Smtp); its password comes
from DOCGEN_SMTP_PASSWORD, never from the file. Without a server nothing is sent and the
inviter hands the link over (shown with a QR code). The link is the desk's public address
(the settings' verification.address, where the public check is served) + /certify/TOKEN.
"""

from __future__ import annotations

import os
import smtplib
import ssl
from datetime import date
from email.message import EmailMessage
from email.utils import make_msgid

from docgen.errors import DocgenError
from docgen.law.deadlines import long_date
from docgen.law.packs import load_pack
from docgen.settings import SMTP_PASSWORD_ENV, Smtp, load_settings
from docgen.signing.codes import local_address

TIMEOUT = 30  # seconds to reach and talk to the mail server


class MailFailed(DocgenError):
    """The mail server refused or could not be reached (the invitation stands; hand the
    link over or send again)."""


def smtp_of(jurisdiction: str) -> Smtp | None:
    local = load_settings(jurisdiction)
    return local.settings.smtp if local is not None else None


def link_for(jurisdiction: str, token: str, base: str | None = None) -> str:
    """The invitation's address: ``base`` (the desk as the inviter reached it) or the
    municipality's public address, + /certify/TOKEN."""
    if base is None:
        local = load_settings(jurisdiction)
        verification = local.settings.verification if local is not None else None
        base = verification.address if verification is not None else local_address()
    return f"{base.rstrip('/')}/certify/{token}"


def message(
    jurisdiction: str,
    sender: str,
    to: str,
    firm: str,
    project: str,
    link: str,
    expires: date,
    plan: str | None = None,
) -> EmailMessage:
    """The invitation; ``plan``: the site's approved SWPPP as the register names it
    (docgen.register.plans.swppp.approved), which the certification becomes part of."""
    pack = load_pack(jurisdiction)
    municipality = pack.name.value
    cert = pack.part("certification")
    mail = EmailMessage()
    mail["From"] = sender
    mail["To"] = to
    mail["Subject"] = f"{municipality}: contractor certification for {project}"
    mail["Message-ID"] = make_msgid()
    mail.set_content(
        f"The {municipality} asks {firm} to sign the contractor certification for "
        f"{project} ({cert.who_signs.ref}).\n\n"
        + (
            f"The stormwater pollution prevention plan it becomes part of is {plan} "
            f"({cert.part_of_swppp.ref}).\n\n"
            if plan
            else ""
        )
        + "Each contractor and subcontractor responsible for erosion and sediment control or "
        "post-construction stormwater practices signs it before any land development "
        "activity. Open this link to fill in your firm's details and sign, electronically "
        "or on paper:\n\n"
        f"{link}\n\n"
        f"The link works for {firm} only, until {long_date(expires)}. If it does not "
        f"work, ask the {municipality} office for a new one.\n"
    )
    return mail


def send(smtp: Smtp, mail: EmailMessage) -> None:
    """Deliver ``mail`` through ``smtp`` (STARTTLS when set; signed in when a user name is
    given, with the password from the environment), or MailFailed saying why."""
    password = os.environ.get(SMTP_PASSWORD_ENV)
    if smtp.username and not password:
        raise MailFailed(
            f"smtp.username is set but {SMTP_PASSWORD_ENV} is not: the mail server's "
            "password comes from the environment; nothing was sent"
        )
    try:
        with smtplib.SMTP(smtp.host, smtp.port, timeout=TIMEOUT) as server:
            if smtp.starttls:
                server.starttls(context=ssl.create_default_context())
            if smtp.username:
                server.login(smtp.username, password or "")
            server.send_message(mail)
    except (OSError, smtplib.SMTPException) as err:
        raise MailFailed(
            f"the mail server {smtp.host}:{smtp.port} did not take the invitation "
            f"({type(err).__name__}: {err}); hand the link over or send it again"
        ) from None
