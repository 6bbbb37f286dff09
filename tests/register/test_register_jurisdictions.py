"""Two municipalities sharing one register: numbers are unique per municipality, so both
may hold CC-2026-0001. A command taking a number never guesses which: without
--jurisdiction it is refused naming both and the flag; with it, it acts on that one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from docgen.register import Register, RegisterError
from docgen.register.after_notice import step_after
from tests.helpers.cli import docgen
from tests.helpers.served import service_args

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "contractor-certification"
HTML = ("html",)


def certification(jurisdiction: str) -> dict:
    name = {"homer": "homer-three-contractors", "macedon": "macedon-unsigned"}[jurisdiction]
    return yaml.safe_load((FIXTURES / f"{name}.yaml").read_text(encoding="utf-8"))


@pytest.fixture
def shared(reg) -> tuple[Register, str]:
    """One register holding Homer's and Macedon's certification of the same number."""
    homer = reg.issue("contractor-certification", certification("homer"), formats=HTML)
    macedon = reg.issue("contractor-certification", certification("macedon"), formats=HTML)
    assert homer.number == macedon.number  # CC-{year}-0001 in each municipality
    assert (homer.jurisdiction, macedon.jurisdiction) == ("homer", "macedon")
    return reg, homer.number


def refused_as_shared(run, number: str) -> None:
    assert run.returncode == 1
    assert f"{number} exists in several jurisdictions (homer, macedon)" in run.stderr
    assert "--jurisdiction (homer or macedon)" in run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_export_takes_the_jurisdiction_when_two_hold_the_number(shared, tmp_path):
    reg, number = shared
    refused_as_shared(docgen("export", number, "-o", f"{tmp_path}/a/", "-f", "html"), number)
    assert not (tmp_path / "a").exists()
    for place in ("macedon", "homer"):
        out = tmp_path / place
        done = docgen("export", number, "-o", f"{out}/", "-f", "html", "--jurisdiction", place)
        assert done.returncode == 0, done.stderr
        (written,) = out.iterdir()
        assert written.read_bytes() == reg.files(number, place)["html"]
    assert (tmp_path / "homer").iterdir().__next__().read_bytes() != (
        (tmp_path / "macedon").iterdir().__next__().read_bytes()
    )
    wrong = docgen("export", number, "-o", f"{tmp_path}/c/", "--jurisdiction", "ithaca")
    assert wrong.returncode == 1
    assert f"--jurisdiction ithaca: {number} is not a document of ithaca" in wrong.stderr
    assert "(it is homer, macedon's)" in wrong.stderr


def test_supersede_corrects_the_one_named(shared, tmp_path):
    reg, number = shared
    corrected = certification("macedon")
    corrected["project"]["name"] = "Canandaigua Road Distribution Center, Phase 2"
    case = tmp_path / "corrected.yaml"
    case.write_text(yaml.safe_dump(corrected), encoding="utf-8")
    out = f"{tmp_path}/out/"
    refused_as_shared(docgen("supersede", number, case, "-f", "html", "-o", out), number)
    other = docgen("supersede", number, case, "-f", "html", "-o", out, "--jurisdiction", "homer")
    assert other.returncode == 1
    assert f"jurisdiction: {number} is homer's; a correction is issued by the municipality" in (
        other.stderr
    )
    done = docgen("supersede", number, case, "-f", "html", "-o", out, "--jurisdiction", "macedon")
    assert done.returncode == 0, done.stderr
    assert f"superseding {number}" in done.stdout
    assert reg.document(number, "macedon").superseded_by is not None
    assert reg.document(number, "homer").superseded_by is None
    new = reg.document(reg.document(number, "macedon").superseded_by, "macedon")
    assert (new.jurisdiction, new.supersedes) == ("macedon", number)


def test_service_lifting_and_dispositions_take_the_jurisdiction(shared, tmp_path):
    reg, number = shared
    day = reg.document(number, "homer").issued.isoformat()
    commands = {
        "record-service": (
            *service_args("personal-delivery"),
            "--date",
            day,
            "-o",
            f"{tmp_path}/",
        ),
        "lift": ("--date", day, "-o", f"{tmp_path}/"),
        "record-disposition": ("--disposition", "dismissed", "--date", day),
    }
    for command, rest in commands.items():
        refused_as_shared(docgen(command, number, *rest), number)
        chosen = docgen(command, number, *rest, "--jurisdiction", "macedon")
        # Each now reads Macedon's certification, and says why it is not for one.
        assert chosen.returncode == 1
        assert "several jurisdictions" not in chosen.stderr
    served = docgen(
        "record-service", number, *commands["record-service"], "--jurisdiction", "homer"
    )
    assert f"{number} is a contractor certification: not a document served on persons" in (
        served.stderr
    )
    lift = docgen("lift", number, *commands["lift"], "--jurisdiction", "homer")
    assert f"{number} is a contractor certification; only a stop-work order" in lift.stderr
    decided = docgen(
        "record-disposition", number, *commands["record-disposition"], "--jurisdiction", "homer"
    )
    assert "dispositions are recorded on the notice of violation" in decided.stderr
    assert reg.count() == 2  # nothing recorded by any of them


def test_the_library_never_guesses_either(shared):
    reg, number = shared
    with pytest.raises(RegisterError, match="several jurisdictions"):
        reg.document(number)
    assert reg.document(number, "macedon").jurisdiction == "macedon"
    assert reg.document(number, " Homer ").jurisdiction == "homer"


def test_what_followed_a_shared_number_is_never_guessed(shared):
    """What followed a document (read for the desk's page: the release of an order
    preventing occupancy, a lien's release) is read of the municipality's document named;
    a number two municipalities share and no municipality named is refused, never read of
    whichever document the database gives first."""
    reg, number = shared
    with pytest.raises(RegisterError, match="several jurisdictions"):
        step_after(reg, number, "releases-hold")
    assert step_after(reg, number, "releases-hold", "macedon") is None
    assert reg.shared_numbers() == {number}
    assert [d.jurisdiction for d in reg.holders(number)] == ["homer", "macedon"]
