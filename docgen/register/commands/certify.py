"""`docgen certify`: sites whose firms certify for themselves, and their invitations
(docgen.register.sites.invitations), from the command line as from a site's page in the desk."""

from __future__ import annotations

from datetime import date
from typing import Any

import click

from docgen.law import JURISDICTION_HELP
from docgen.register.commands.shared import day_typed, open_register


@click.group()
def certify() -> None:
    """Invite contractors to sign their own certification (§ 228-78B(4); § 301-71D)."""


@certify.command("site")
@click.option(
    "--jurisdiction",
    required=True,
    help=JURISDICTION_HELP,
)
@click.option("--project", required=True, help="the land development activity's name")
@click.option("--street", default=None, help="the site's street address")
@click.option("--city", default=None)
@click.option("--state", default="NY", show_default=True)
@click.option("--zip", "zip_code", default=None, help="ZIP code")
@click.option("--description", default=None, help="or another identifying description")
@click.option("--swppp", default=None, help="the SWPPP's title or date")
@click.option("--permit", default=None, help="SPDES permit or NOI identifier")
@click.option("--began", callback=day_typed, default=None, help="day land development began")
@click.option("--by", default=None, help="who adds it (default: your user name)")
def add_site(
    jurisdiction: str,
    project: str,
    street: str | None,
    city: str | None,
    state: str,
    zip_code: str | None,
    description: str | None,
    swppp: str | None,
    permit: str | None,
    began: date | None,
    by: str | None,
) -> None:
    """Add a site whose firms may be invited; prints its id."""
    # register.storage.audit and others load sqlalchemy (+580 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.sites.invitations import add_site as add
    from docgen.register.storage.audit import actor

    site: dict[str, Any] = {}
    if street or city or zip_code:
        site["address"] = {"street": street, "city": city, "state": state, "zip": zip_code}
    if description:
        site["description"] = description
    project_data = {"name": project, "swppp": swppp, "permit": permit}
    project_data = {k: v for k, v in project_data.items() if v}
    with open_register() as reg:
        site_id = add(reg.engine, jurisdiction, project_data, site, began, actor(by))
    click.echo(f"site {site_id}: {project}")


@certify.command()
@click.argument("site", type=int)
@click.option("--firm", required=True, help="the contracting firm's name")
@click.option("--email", default=None, help="where the link is sent (settings' smtp)")
@click.option(
    "--expires", callback=day_typed, default=None, help="last day the link works (default: 30 days)"
)
@click.option("--by", default=None, help="who invites (default: your user name)")
def invite(site: int, firm: str, email: str | None, expires: date | None, by: str | None) -> None:
    """Invite FIRM to certify for SITE: e-mailed when the municipality has a mail server
    and --email is given, else the link and its QR code are printed to hand over."""
    # register.sites.invitations and others load sqlalchemy (+580 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.plans.swppp import approved
    from docgen.register.sites import invitations
    from docgen.register.sites.invitation_mail import link_for, message, send, smtp_of
    from docgen.register.storage.audit import actor

    with open_register() as reg:
        where = invitations.site(reg.engine, site)
        expires = expires or invitations.default_expires(where)
        made, token = invitations.invite(reg.engine, site, firm, email, expires, actor(by))
        link = link_for(where.jurisdiction, token)
        smtp = smtp_of(where.jurisdiction)
        click.echo(f"invitation {made.id}: {made.firm}, until {made.expires.isoformat()}")
        if smtp is not None and email:
            plan = approved(reg.engine, site)  # the approved SWPPP it becomes part of
            mail = message(
                where.jurisdiction, smtp.sender, email, firm, where.name, link, expires, plan
            )
            send(smtp, mail)
            invitations.mark_mailed(reg.engine, made.id)
            click.echo(f"sent to {email} through {smtp.host}")
            return
    # xml, ssl, segno take 18 ms to import: kept out of `docgen --help`'s start
    import segno

    click.echo(f"no mail sent; hand this link to {made.firm}: {link}")
    segno.make(link, error="m").terminal(compact=True)


@certify.command("list")
@click.argument("site", type=int)
def list_invitations(site: int) -> None:
    """Each firm invited for SITE: invited, opened, signed (when, by whom), expired, revoked."""
    # register.sites.invitations loads sqlalchemy, pydantic (+580 ms):
    # kept out of `docgen --help`'s start
    from docgen.law.deadlines import local_time
    from docgen.register.sites import invitations

    with open_register() as reg:
        found = invitations.invitations(reg.engine, site)
        where = invitations.site(reg.engine, site) if found else None
    if where is None:
        click.echo(f"site {site}: nobody invited yet")
        return
    for i in found:
        line = f"{i.id}  {i.firm}  {i.status}"
        if i.status == "signed":
            # the signing's instant as the certification prints it (LAW.md § 5)
            at = local_time(i.signed_at, invitations.zone_of(where.jurisdiction))
            line += f" {at} by {i.signed_by} ({i.method}), {i.number}"
        elif i.status in ("invited", "opened"):
            line += f" (until {i.expires.isoformat()})"
        click.echo(line)


@certify.command()
@click.argument("invitation", type=int)
@click.option("--by", default=None, help="who revokes (default: your user name)")
def revoke(invitation: int, by: str | None) -> None:
    """Stop INVITATION's link from working."""
    # register.sites.invitations and others load sqlalchemy (+580 ms):
    # kept out of `docgen --help`'s start
    from docgen.register.sites import invitations
    from docgen.register.storage.audit import actor

    with open_register() as reg:
        done = invitations.revoke(reg.engine, invitation, actor(by))
    click.echo(f"invitation {done.id} ({done.firm}): revoked")
