"""`docgen serve` and `docgen users`: the desk's commands, attached to the main group."""

from __future__ import annotations

import ipaddress
import os
import sys
from typing import TYPE_CHECKING

import click

from docgen.errors import DocgenError

if TYPE_CHECKING:
    from docgen.desk.base.database import Sessions

LOOPBACK = ("127.0.0.1", "::1", "localhost")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=1,
    show_default=True,
    help="server processes (sessions, drafts and locks live in the database)",
)
@click.option(
    "--host-name",
    "host_names",
    multiple=True,
    help="a name the desk is reached by (repeatable); other Host headers are refused",
)
@click.option(
    "--behind-proxy",
    is_flag=True,
    help="a shared server behind an HTTPS reverse proxy: secure cookies, and the client "
    "address from X-Forwarded-For when the proxy (--proxy-address) sends it",
)
@click.option(
    "--proxy-address",
    default="",
    help="with --behind-proxy (required with it): the one address the proxy connects from, "
    "the only one whose X-Forwarded-For is believed",
)
@click.option(
    "--header-timeout",
    type=click.FloatRange(0.5, 300),
    default=10.0,
    show_default=True,
    help="seconds a connection has to send a request's line and headers, else it is closed",
)
@click.option(
    "--per-address",
    type=click.IntRange(1, 1000),
    default=16,
    show_default=True,
    help="requests one client address may have in flight (twice that in connections); "
    "more are answered 429",
)
def serve(
    host: str,
    port: int,
    workers: int,
    host_names: tuple[str, ...],
    behind_proxy: bool,
    proxy_address: str,
    header_timeout: float,
    per_address: int,
) -> None:
    """Start the clerk's desk (a web page) on HOST:PORT; loopback only by default."""
    # uvicorn, asyncio, ssl take 34 ms to import: kept out of `docgen --help`'s start
    import uvicorn

    names = [*host_names]
    if behind_proxy:
        proxy_address = _proxy_address(proxy_address)
    if not names and (behind_proxy or host not in LOOPBACK):
        raise click.UsageError(
            "name the host the desk is reached by: --host-name desk.example.org "
            "(requests naming any other host are refused)"
        )
    public = host not in LOOPBACK or any(n.strip("[]") not in LOOPBACK for n in names)
    if public:
        # law.packs and settings load pydantic, yaml (+150 ms): kept out of `docgen --help`'s start
        from docgen.law.packs import pack_names
        from docgen.settings import public_address_problems

        problems = public_address_problems(pack_names())
        if problems:
            raise click.UsageError(
                "a desk reached from other machines prints its public check's address on "
                "every document it issues:\n  " + "\n  ".join(problems)
            )
    names += [n for n in LOOPBACK if host in LOOPBACK and n not in names]
    os.environ["DOCGEN_SERVE_HOSTS"] = ",".join(n.strip("[]") for n in names)
    os.environ["DOCGEN_SERVE_SECURE"] = "1" if behind_proxy else "0"
    os.environ["DOCGEN_SERVE_PUBLIC"] = "1" if public else "0"  # docgen.register.matter.checks
    os.environ["DOCGEN_SERVE_HEADER_TIMEOUT"] = str(header_timeout)
    os.environ["DOCGEN_SERVE_PER_ADDRESS"] = str(per_address)
    os.environ["DOCGEN_SERVE_PROXY"] = proxy_address if behind_proxy else ""
    # A desk on this machine only checks documents where it listens (docgen.signing.codes)
    from docgen.signing.codes import LOCAL_DESK

    os.environ[LOCAL_DESK] = "" if public else _address(host, port)
    # desk.server.watchdog and desk.base.database load sqlalchemy (+270 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.base.database import engine
    from docgen.desk.server import watchdog

    engine()  # the register made or upgraded (desk tables too) once, before the workers
    click.echo(f"docgen desk on {_address(host, port)}/ (Ctrl-C stops it)")
    watchdog.start(host, port, names[0])  # under systemd (docs/deploy/docgen.service)
    uvicorn.run(
        "docgen.desk.app:from_environment",
        factory=True,
        host=host,
        port=port,
        workers=workers,
        proxy_headers=behind_proxy,
        forwarded_allow_ips=proxy_address if behind_proxy else None,
        server_header=False,
        log_level="info",
        http="docgen.desk.server.connections:HeadTimeout",  # uvicorn has no header timeout itself
        timeout_keep_alive=5,  # an idle connection is closed after 5 s
        timeout_graceful_shutdown=30,  # an issue in flight finishes; no request hangs on
        h11_max_incomplete_event_size=64 * 1024,  # request line and headers: 64 KB
        limit_concurrency=500,
    )


def _address(host: str, port: int) -> str:
    """The desk's web address: http://127.0.0.1:8000, http://[::1]:8000."""
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


def _proxy_address(given: str) -> str:
    """The proxy's one address, as the deputy named it: X-Forwarded-For is a header any
    client can write, believed only from the proxy (never from any local process by
    default, never from a list or a pattern)."""
    if not given.strip():
        raise click.UsageError(
            "--behind-proxy needs the address the proxy connects from: --proxy-address "
            "127.0.0.1 for a proxy on this machine (X-Forwarded-For is believed from that "
            "address only)"
        )
    try:
        return str(ipaddress.ip_address(given.strip()))
    except ValueError:
        raise click.UsageError(
            f"--proxy-address {given!r} is not one IP address (the proxy's own, e.g. "
            "127.0.0.1; no list, name or pattern)"
        ) from None


@click.group()
def users() -> None:
    """Who may sign in to the desk, and their roles."""


ROLE = click.Choice(["clerk", "officer", "attorney", "admin", "developer"])


def _password(from_stdin: bool) -> str:
    if from_stdin:
        line = sys.stdin.readline() if sys.stdin is not None else ""
        if not line:
            raise DocgenError(
                "--password-stdin: standard input is closed or empty; give the password on "
                "it, one line (e.g. printf '%s\\n' \"$PASSWORD\" | docgen users ...)"
            )
        return line.rstrip("\r\n")
    return click.prompt("password", hide_input=True, confirmation_prompt=True)


def _db() -> Sessions:
    # desk.base.database loads sqlalchemy, asyncio, ssl (+270 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.base.database import sessions

    return sessions()


@users.command("add")
@click.argument("name")
@click.option(
    "--role",
    type=ROLE,
    required=True,
    help="clerk/officer: enforcement documents; attorney: recorded instruments; admin: "
    "users; developer: the applicant or developer acting for a site (--site), who invites "
    "its contractors and sees nothing else",
)
@click.option("--full-name", default="", help="as documents print it (a form's officer)")
@click.option("--title", default="", help="e.g. Code Enforcement Officer")
@click.option(
    "--site",
    "sites",
    type=click.IntRange(1),
    multiple=True,
    help="a developer's site (its number, `docgen certify site`); repeat for more",
)
@click.option("--password-stdin", is_flag=True, help="read the password from standard input")
def add(
    name: str, role: str, full_name: str, title: str, sites: tuple[int, ...], password_stdin: bool
) -> None:
    """Add user NAME with a ROLE (the password read from standard input, or prompted)."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    password = _password(password_stdin)
    accounts.add_user(_db(), name, role, password, full_name=full_name, title=title, sites=sites)
    bound = f" for site{'s' * (len(sites) > 1)} {', '.join(map(str, sorted(sites)))}"
    click.echo(f"added {name} ({role}){bound if sites else ''}")


@users.command("sites")
@click.argument("name")
@click.option("--add", "added", type=click.IntRange(1), multiple=True, help="a site to act for")
@click.option("--remove", "removed", type=click.IntRange(1), multiple=True, help="a site no more")
def sites(name: str, added: tuple[int, ...], removed: tuple[int, ...]) -> None:
    """The sites developer NAME acts for: add or remove some (one at least stays)."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    after = accounts.set_sites(_db(), name, added, removed)
    click.echo(f"{name} acts for site{'s' * (len(after) > 1)} {', '.join(map(str, after))}")


@users.command("list")
def list_() -> None:
    """List the users, their roles, full names and titles."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    db = _db()
    bound = accounts.bound_sites(db)
    for user in accounts.list_users(db):
        named = ", ".join(filter(None, (user.full_name, user.title)))
        if user.name in bound:
            named = f"{named} (sites {', '.join(map(str, bound[user.name]))})".lstrip()
        click.echo(f"{user.name:<24} {user.role:<9} {named}".rstrip())


@users.command("remove")
@click.argument("name")
def remove(name: str) -> None:
    """Remove user NAME: signed out, and their calendar feed addresses and (a developer's)
    unsigned invitation links revoked; their unissued drafts are kept."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    kept = accounts.remove_user(_db(), name)
    note = f"; {kept} unissued draft(s) kept (docgen users transfer {name} OTHER)" if kept else ""
    click.echo(
        f"removed {name}: signed out; their calendar feed addresses and any invitation links "
        f"they made as a developer no longer work{note}"
    )


@users.command("passwd")
@click.argument("name")
@click.option("--password-stdin", is_flag=True, help="read the password from standard input")
def passwd(name: str, password_stdin: bool) -> None:
    """Set a new password for NAME (their sessions end)."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    accounts.set_password(_db(), name, _password(password_stdin))
    click.echo(f"password of {name} changed")


@users.command("role")
@click.argument("name")
@click.argument("role", type=ROLE)
def role(name: str, role: str) -> None:
    """Give NAME another ROLE (their sessions end)."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    accounts.set_role(_db(), name, role)
    click.echo(f"{name} is now {role}")


@users.command("set")
@click.argument("name")
@click.option("--full-name", required=True, help="as documents print it")
@click.option("--title", default="", help="e.g. Code Enforcement Officer")
def set_(name: str, full_name: str, title: str) -> None:
    """Set the full name and title of NAME (the officer their forms are filled with)."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    accounts.set_details(_db(), name, full_name, title)
    click.echo(f"{name}: {', '.join(filter(None, (full_name, title)))}")


@users.command("unlock")
@click.argument("name")
def unlock(name: str) -> None:
    """Forget the failed sign-ins of NAME, so they can sign in at once."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    forgotten = accounts.unlock(_db(), name)
    click.echo(f"{name} unlocked ({forgotten} failed sign-in(s) forgotten)")


@users.command("transfer")
@click.argument("source")
@click.argument("target")
def transfer(source: str, target: str) -> None:
    """Hand the unissued drafts of SOURCE (a removed user, say) to TARGET."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    moved = accounts.transfer_drafts(_db(), source, target)
    click.echo(f"{moved} draft(s) of {source} handed to {target}")


@users.command("audit")
@click.option("--limit", type=click.IntRange(1, 100_000), default=50, show_default=True)
def audit(limit: int) -> None:
    """The newest sign-ins and changes to users, newest first."""
    # desk.admin.accounts loads sqlalchemy, asyncio, ssl (+280 ms):
    # kept out of `docgen --help`'s start
    from docgen.desk.admin import accounts

    for row in accounts.audit_rows(_db(), limit):
        when = row.at.strftime("%Y-%m-%d %H:%M:%S")
        who = f"{row.actor:<16} {row.action:<18} {row.subject:<16}"
        click.echo(f"{when}  {who} {row.client} {row.detail}".rstrip())
