"""A database that goes away in the middle of `docgen issue` (PostgreSQL stopped by an
administrator, `pg_ctl stop -m fast`) says whether the document was recorded: "nothing
was recorded" (no number used), "NUMBER was recorded" (its files written with export),
or, when the register cannot be asked, that it is not known and how a retry is safe.

The issue is held at its step (docgen.faults.pause), the server stopped under
it, then the issue let go on: real processes and a real server of this test's own."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from docgen.register import Register
from tests.helpers import pgserver
from tests.helpers.faults import held_at
from tests.helpers.register_cases import notice
from tests.helpers.served import service_args, service_of


@pytest.fixture(scope="module")
def server(postgres_server):
    return postgres_server  # a server of this module's own: the tests stop and start it


def issue_while(server: str, url: str, step: str, folder: Path, then) -> tuple[int, str, str]:
    """`docgen issue` of a new notice, held at ``step``; ``then()`` runs; it goes on."""
    case = folder / "case.yaml"
    case.write_text(yaml.safe_dump(notice()), encoding="utf-8")
    args = ["issue", "notice-of-violation", case, "-f", "html", "-o", f"{folder}/out/"]
    return command_while(args, url, step, folder, then)


def fresh(server: str, name: str) -> str:
    url = pgserver.create_database(server, name)
    Register.open(url).close()
    return url


def test_stopped_before_the_commit_nothing_was_recorded(server, tmp_path):
    url = fresh(server, "lost_before")
    # Held while it renders (outside any transaction): its transaction to record it
    # finds no server.
    code, out, err = issue_while(server, url, "rendering", tmp_path, lambda: pgserver.stop(server))
    pgserver.start(server)
    assert code == 1 and out == "", err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: nothing was recorded (register postgresql+psycopg://")
    assert line.endswith("no number was used: issue it again once the register answers")
    with Register.open(url) as reg:
        assert reg.count() == 0
        again = reg.issue("notice-of-violation", notice(), formats=("html",))
    assert again.number.endswith("-0001")  # no number was lost


def test_gone_at_the_commit_the_register_is_asked_again(server, tmp_path):
    url = fresh(server, "lost_at_commit")

    def stop_and_start():
        pgserver.stop(server)  # the issue's open transaction is rolled back
        pgserver.start(server)

    code, out, err = issue_while(server, url, "committing", tmp_path, stop_and_start)
    assert code == 1 and out == "", err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: nothing was recorded (register postgresql+psycopg://")
    with Register.open(url) as reg:
        assert reg.count() == 0


def test_gone_at_the_commit_and_still_away_is_not_guessed(server, tmp_path):
    url = fresh(server, "lost_still")
    stop = lambda: pgserver.stop(server)  # noqa: E731
    code, out, err = issue_while(server, url, "committing", tmp_path, stop)
    pgserver.start(server)
    assert code == 1 and out == "", err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: not known whether NOV-")
    assert "was recorded: the register went away while committing it" in line
    assert "if NOV-" in line and "is given back, never numbered twice" in line
    with Register.open(url) as reg:
        assert reg.count() == 0  # the server rolled it back, as a retry would find


def test_stopped_after_the_commit_the_number_was_recorded(server, tmp_path):
    url = fresh(server, "lost_after")
    code, out, err = issue_while(server, url, "staged", tmp_path, lambda: pgserver.stop(server))
    try:
        # Nothing after the commit needs the database: the files are written from memory.
        assert code == 0, err
        number = out.split()[1]
        assert (tmp_path / "out" / f"{number}-notice-of-violation.html").exists()
    finally:
        pgserver.start(server)
    with Register.open(url) as reg:
        assert [d.number for d in reg.documents()] == [number]


def command_while(args: list, url: str, step: str, folder: Path, then) -> tuple[int, str, str]:
    """``docgen ARGS`` held at ``step``; ``then()`` runs; it goes on."""
    proc, pause = held_at(step, args, folder, {"DOCGEN_DATABASE_URL": url})
    with proc:
        try:
            then()
            Path(f"{pause}.go").touch()
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
    return proc.returncode, out, err


def test_a_service_stopped_before_its_commit_was_not_recorded(server, tmp_path):
    url = fresh(server, "lost_service")
    with Register.open(url) as reg:
        number = reg.issue("notice-of-violation", notice(), formats=("html",)).number
    args = ["record-service", number, *service_args("personal-delivery"), "--date", "2026-11-16"]
    args += ["-f", "html", "-o", f"{tmp_path}/out/"]
    # Held while its affidavit renders (outside the transaction): the record finds no server.
    stop = lambda: pgserver.stop(server)  # noqa: E731
    code, out, err = command_while(args, url, "rendering", tmp_path, stop)
    pgserver.start(server)
    assert code == 1 and out == "", err
    (line,) = err.strip().splitlines()
    assert line.startswith("error: nothing was recorded (register postgresql+psycopg://")
    assert line.endswith("no number was used: record the service again once the register answers")
    with Register.open(url) as reg:
        assert reg.document(number).services == () and reg.count() == 1


def test_a_lifting_gone_at_its_commit_is_not_guessed(server, tmp_path):
    from tests.register.test_register_lift import order

    url = fresh(server, "lost_lift")
    with Register.open(url) as reg:
        issued = reg.issue("stop-work-order", order(), formats=("html",))
        reg.record_service(
            issued.number, service_of("personal-delivery", issued.issued), formats=("html",)
        )
    args = ["lift", issued.number, "--date", issued.issued.isoformat(), "-o", f"{tmp_path}/out/"]
    stop = lambda: pgserver.stop(server)  # noqa: E731
    code, out, err = command_while(args, url, "committing", tmp_path, stop)
    pgserver.start(server)
    assert code == 1 and out == "", err
    (line,) = err.strip().splitlines()
    assert line.startswith(f"error: not known whether the lifting of {issued.number} with SWL-")
    assert "was recorded: the register went away while committing it" in line
    assert line.endswith(
        f"lift {issued.number} again: an order already lifted is refused, never lifted twice"
    )
    with Register.open(url) as reg:
        assert reg.document(issued.number).lifted_by is None  # rolled back, as a retry finds
        assert reg.lift(issued.number, issued.issued, formats=("html",)).number.endswith("-0001")
