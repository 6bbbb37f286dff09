"""Another package's warning is the deputy's, not the clerk's (docgen.library_warnings): a
command never prints one on the terminal, the desk logs each once; docgen's own warnings
are shown as before. The suite itself (pyproject.toml's filterwarnings) fails on docgen's
own warnings and only lists other packages'."""

from __future__ import annotations

import logging
import sysconfig
import warnings
from pathlib import Path

import pytest

import docgen
from docgen import library_warnings
from tests.helpers.cli import python_process

LIBRARY_FILE = str(Path(sysconfig.get_paths()["purelib"]) / "somelibrary" / "signers.py")
DOCGEN_FILE = str(Path(docgen.__file__).parent / "api.py")


def library_warning(text: str = "DSA is deprecated") -> None:
    warnings.warn_explicit(text, UserWarning, LIBRARY_FILE, 20, module="somelibrary.signers")


def test_a_library_warning_is_logged_once_not_printed(capsys, caplog):
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        library_warnings.route(logging.WARNING)
        with caplog.at_level(logging.DEBUG, logger=library_warnings.LOGGER):
            library_warning()
            library_warning()
            library_warning("another message")
    assert capsys.readouterr().err == ""
    logged = [r.getMessage() for r in caplog.records if r.name == library_warnings.LOGGER]
    assert len(logged) == 2, logged
    assert logged[0].startswith("UserWarning from ") and "signers.py:20" in logged[0]
    assert logged[0].endswith("DSA is deprecated") and logged[1].endswith("another message")
    assert {r.levelno for r in caplog.records} == {logging.WARNING}


def test_docgens_own_warning_is_shown_as_python_shows_it(caplog):
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        library_warnings.route(logging.WARNING)
        warnings.warn_explicit("our own", UserWarning, DOCGEN_FILE, 7, module="docgen.api")
        library_warning()
    assert [(str(w.message), w.filename, w.lineno) for w in shown] == [("our own", DOCGEN_FILE, 7)]
    assert not [r for r in caplog.records if "our own" in r.getMessage()]


def test_which_files_are_docgens():
    assert library_warnings.ours(DOCGEN_FILE)
    assert not library_warnings.ours(LIBRARY_FILE)
    assert not library_warnings.ours("<frozen importlib._bootstrap>")


def test_a_command_prints_no_library_warning_and_debug_shows_it():
    """A fresh `docgen` process (its own warning filters: Python's defaults), a library's
    warning raised while a command runs: nothing on the terminal; DOCGEN_DEBUG=1 shows it."""
    code = f"""
import os, sys, warnings
import click
from docgen.cli import main

@main.command("warn-test")
def warn_test():
    warnings.warn_explicit("DSA is deprecated", UserWarning, {LIBRARY_FILE!r}, 20,
                           module="somelibrary.signers")
    click.echo("done")

if os.environ.get("WITH_DEBUG"):
    os.environ["DOCGEN_DEBUG"] = "1"
sys.argv = ["docgen", "warn-test"]
main()
"""
    quiet = python_process(code)
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout == "done\n"
    assert quiet.stderr == ""
    loud = python_process("import os; os.environ['WITH_DEBUG'] = '1'\n" + code)
    assert loud.returncode == 0, loud.stderr
    assert "UserWarning from " in loud.stderr and "DSA is deprecated" in loud.stderr


def action_for(category: type[Warning], module: str, text: str = "old") -> str:
    """What the warning filters in force do with such a warning (the first that matches)."""
    for action, message, kind, where, _line in warnings.filters:
        if (
            (message is None or message.match(text))
            and issubclass(category, kind)
            and (where is None or where.match(module))
        ):
            return action
    return warnings.defaultaction


@pytest.mark.parametrize(
    "origin", ["docgen.api", "tests.helpers.cli", "test_something", "conftest"]
)
def test_the_suite_fails_on_docgens_own_warnings(origin):
    """pyproject.toml's filters, as pytest applies them in every test: a warning attributed
    to docgen's or the tests' code raises; another package's is listed in the summary."""
    assert action_for(DeprecationWarning, origin) == "error"
    assert action_for(UserWarning, origin) == "error"
    with pytest.raises(DeprecationWarning):
        warnings.warn_explicit("old", DeprecationWarning, "/x/y.py", 1, module=origin)


def test_another_packages_warning_is_listed_not_fatal():
    assert action_for(UserWarning, "pyhanko.sign.signers.pdf_cms") == "default"
    assert action_for(DeprecationWarning, "somelibrary") == "default"
    assert action_for(ResourceWarning, "somelibrary") == "error"
