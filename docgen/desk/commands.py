"""`docgen serve` and `docgen users`: the desk's commands, attached to the main group."""

from __future__ import annotations

import sys

import click

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
    default="127.0.0.1",
    show_default=True,
    help="with --behind-proxy: the only address whose X-Forwarded-For is believed",
)
def serve(
    host: str,
    port: int,
    workers: int,
    host_names: tuple[str, ...],
    behind_proxy: bool,
    proxy_address: str,
) -> None:
    """Start the clerk's desk (a web page) on HOST:PORT; loopback only by default."""
    import os

    import uvicorn

    names = [*host_names]
    if not names and (behind_proxy or host not in LOOPBACK):
        raise click.UsageError(
            "name the host the desk is reached by: --host-name desk.example.org "
            "(requests naming any other host are refused)"
        )
    names += [n for n in LOOPBACK if host in LOOPBACK and n not in names]
    os.environ["DOCGEN_SERVE_HOSTS"] = ",".join(n.strip("[]") for n in names)
    os.environ["DOCGEN_SERVE_SECURE"] = "1" if behind_proxy else "0"
    from docgen.desk.database import engine

    engine()  # the register's file and the desk's tables made once, before the workers
    click.echo(f"docgen desk on http://{host}:{port}/ (Ctrl-C stops it)")
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
        timeout_keep_alive=5,  # an idle connection is closed after 5 s
        timeout_graceful_shutdown=30,  # an issue in flight finishes; no request hangs on
        h11_max_incomplete_event_size=64 * 1024,  # request line and headers: 64 KB
        limit_concurrency=500,
    )


@click.group()
def users() -> None:
    """Who may sign in to the desk, and their roles."""


@users.command("add")
@click.argument("name")
@click.option(
    "--role",
    type=click.Choice(["clerk", "officer", "attorney", "admin"]),
    required=True,
    help="clerk/officer: enforcement documents; attorney: recorded instruments; admin: users",
)
@click.option("--password-stdin", is_flag=True, help="read the password from standard input")
def add(name: str, role: str, password_stdin: bool) -> None:
    """Add user NAME with a ROLE (the password read from standard input, or prompted)."""
    from docgen.desk import auth
    from docgen.desk.database import sessions

    if password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
    else:
        password = click.prompt("password", hide_input=True, confirmation_prompt=True)
    auth.add_user(sessions(), name, role, password)
    click.echo(f"added {name} ({role})")


@users.command("list")
def list_() -> None:
    """List the users and their roles."""
    from docgen.desk import auth
    from docgen.desk.database import sessions

    for user in auth.list_users(sessions()):
        click.echo(f"{user.name:<24} {user.role}")


@users.command("remove")
@click.argument("name")
def remove(name: str) -> None:
    """Remove user NAME (and sign them out)."""
    from docgen.desk import auth
    from docgen.desk.database import sessions

    auth.remove_user(sessions(), name)
    click.echo(f"removed {name}")
