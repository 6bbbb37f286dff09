"""`docgen serve` and `docgen users`: the desk's commands, attached to the main group."""

from __future__ import annotations

import sys

import click


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
@click.option(
    "--behind-proxy",
    is_flag=True,
    help="a shared server behind an HTTPS reverse proxy: secure cookies, proxy headers trusted",
)
def serve(host: str, port: int, behind_proxy: bool) -> None:
    """Start the clerk's desk (a web page) on HOST:PORT; loopback only by default."""
    import uvicorn

    from docgen.desk.app import create_app

    app = create_app(secure_cookies=behind_proxy)
    click.echo(f"docgen desk on http://{host}:{port}/ (Ctrl-C stops it)")
    uvicorn.run(
        app,
        host=host,
        port=port,
        proxy_headers=behind_proxy,
        forwarded_allow_ips="127.0.0.1" if behind_proxy else None,
        server_header=False,
        log_level="info",
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
