"""``docgen verify`` answers with an exit code a script can act on (docgen/cli.py, Exit):
0 issued here and unaltered, 1 not issued here or altered, 3 no answer (the register
could not be reached or read), 4 an internal error; each said in one line."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from docgen.cli import Exit
from docgen.register import Register
from tests.helpers.cli import docgen

A_PDF = b"%PDF-1.7\n% not a document of any register\n%%EOF\n"


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    path = tmp_path / "notice.pdf"
    path.write_bytes(A_PDF)
    return path


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens on it once the socket is closed


def test_a_file_this_register_did_not_issue_exits_1(pdf, tmp_path):
    url = f"sqlite:///{tmp_path / 'docgen.sqlite'}"
    Register.open(url).close()
    run = docgen("verify", pdf, env={"DOCGEN_DATABASE_URL": url})
    assert run.returncode == Exit.ERROR == 1
    assert run.stderr == f"{pdf}: not issued by this register, or altered\n"


@pytest.mark.parametrize("where", ["postgresql", "sqlite"])
def test_a_register_that_cannot_be_reached_exits_3_not_1(pdf, tmp_path, where):
    url = {
        "postgresql": f"postgresql://docgen@127.0.0.1:{closed_port()}/register",
        "sqlite": f"sqlite:///{tmp_path / 'nowhere' / 'docgen.sqlite'}",
    }[where]
    run = docgen("verify", pdf, env={"DOCGEN_DATABASE_URL": url})
    assert run.returncode == Exit.UNANSWERED == 3, run.stderr
    assert run.stderr.startswith(f"error: {pdf} was not checked: "), run.stderr
    assert run.stderr.count("\n") == 1 and "not issued" not in run.stderr


def test_an_internal_error_exits_4_in_one_line(pdf, tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'docgen.sqlite'}"
    Register.open(url).close()

    def defect(self, blob):
        raise ZeroDivisionError("a defect in docgen")

    monkeypatch.setattr(Register, "verify", defect)
    run = docgen("verify", pdf, env={"DOCGEN_DATABASE_URL": url})
    assert run.returncode == Exit.INTERNAL == 4
    assert run.stderr.startswith("error: internal error (ZeroDivisionError: a defect in docgen)")
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr


def test_the_exit_codes_are_documented_in_one_place():
    import docgen.cli

    said = docgen.cli.__doc__
    for code in Exit:
        assert f"- {code.value} " in said, code
