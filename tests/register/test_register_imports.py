"""Imports that can be trusted: every column known, every value checked as a case's,
duplicates reported and left out, one batch per import that --undo withdraws, encodings
and oversized cells as errors naming the row."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from docgen.register import RegisterError
from docgen.register.people.imports import import_history, undo_import
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice

HTML = ("html",)
HEADER = "name,street,city,state,zip,committed,convicted,court,docket"
FIRM = "Tioughnioga Ridge Development LLC,41 Route 281,Homer,NY,13077"


def csv_file(folder: Path, *rows: str, header: str = HEADER, name: str = "h.csv") -> Path:
    path = folder / name
    path.write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")
    return path


def offense_word(reg) -> str:
    issued = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML)
    text = " ".join(html_text(issued.files["html"].decode()).split())
    return next(w for w in ("first", "second", "third") if f"{w} offense" in text)


def test_the_same_file_twice_imports_nothing_the_second_time(reg, tmp_path):
    path = csv_file(tmp_path, f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-3")
    first = import_history(reg, path)
    assert first.batch is not None and len(first.lines) == 1 and first.duplicates == []
    again = import_history(reg, path)
    assert again.batch is None and again.lines == []
    assert again.duplicates == [
        "h.csv:2: already in the register (Homer Village Court, docket 24-3); not imported"
    ]
    assert offense_word(reg) == "second"


def test_a_duplicate_is_found_by_docket_or_by_respondent_and_dates(reg, tmp_path):
    issued = reg.issue("notice-of-violation", notice("2024-02-08"), formats=HTML)
    reg.record_disposition(
        issued.number, "convicted", date(2024, 5, 1), court="Homer Village Court", docket="24-3"
    )
    path = csv_file(
        tmp_path,
        f"{FIRM},2024-02-01,2024-05-01,HOMER VILLAGE COURT,24-3",  # the same docket
        f"{FIRM},2024-02-01,2024-05-01,Cortland County Court,CC-9",  # the same dates
        f"{FIRM},2025-01-10,2025-03-01,Homer Village Court,25-1",
    )
    done = import_history(reg, path)
    assert [line.split(":")[1] for line in done.duplicates] == ["2", "3"]
    assert len(done.lines) == 1


@pytest.mark.parametrize(
    ("header", "said"),
    [
        (f"{HEADER},jurisdicton", "unknown column(s) 'jurisdicton' (did you mean 'jurisdiction'?)"),
        (HEADER.replace(",docket", ""), "missing column(s) docket"),
        (f"{HEADER},court", "column(s) given twice: court"),
    ],
)
def test_every_column_is_known(reg, tmp_path, header, said):
    row = f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-3,macedon"
    with pytest.raises(RegisterError, match=r"h\.csv:1: ") as err:
        import_history(reg, csv_file(tmp_path, row, header=header))
    assert said in str(err.value)
    assert offense_word(reg) == "first"


def test_every_value_is_checked_as_a_case_would_be_and_all_are_reported(reg, tmp_path):
    path = csv_file(
        tmp_path,
        f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-\x073",
        f"{FIRM},1850-02-01,2024-05-01,Homer Village Court,24-4",
        "Tioughnioga Ridge Development LLC,41 Route 281,Homer,ZZ,13077,"
        "2024-02-01,2024-05-01,Homer Village Court,24-5",
        f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-\x006",
        f"{FIRM},2024-02-01,2024-05-01,{'x' * 600},24-7",
        "!!!,41 Route 281,Homer,NY,13077,2024-02-01,2024-05-01,Homer Village Court,24-8",
        f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-9",
    )
    with pytest.raises(RegisterError) as err:
        import_history(reg, path)
    message = str(err.value)
    assert "nothing imported; 6 problem(s) to fix" in message
    assert "h.csv:2: docket: " in message and "control character" in message
    assert "h.csv:3: committed: year 1850 is outside 1900-2099" in message
    assert "h.csv:4: state: 'ZZ' is not a state of the United States" in message
    assert "h.csv:5: docket: " in message
    assert "h.csv:6: court: " in message and "500 characters" in message
    assert "h.csv:7: name: '!!!' has no letter or digit" in message
    assert "h.csv:8" not in message
    assert offense_word(reg) == "first"


def test_other_encodings_and_oversized_cells_are_errors_naming_the_row(reg, tmp_path):
    latin = tmp_path / "latin.csv"
    latin.write_bytes(
        (HEADER + "\n" + f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-3\n").encode()
        + "Société Générale,1 Main St,Homer,NY,13077,2024-02-01,2024-05-01,Court,9\n".encode(
            "latin-1"
        )
    )
    with pytest.raises(RegisterError, match=r"latin\.csv:3: not UTF-8 \(byte 0xE9\)"):
        import_history(reg, latin)
    huge = csv_file(tmp_path, f"{FIRM},2024-02-01,2024-05-01,{'x' * 131_073},24-3")
    with pytest.raises(RegisterError, match=r"h\.csv:2: field larger than field limit"):
        import_history(reg, huge)
    with pytest.raises(RegisterError, match="is a character device, not a file"):
        import_history(reg, Path("/dev/zero"))


def test_an_import_is_a_batch_the_clerk_can_withdraw(reg, tmp_path):
    path = csv_file(
        tmp_path,
        f"{FIRM},2024-02-01,2024-05-01,Homer Village Court,24-3",
        "Ann Lee,9 Elm St,Homer,NY,13077,2024-03-01,2024-06-01,Homer Village Court,24-4",
    )
    done = import_history(reg, path, by="Clerk Ames")
    assert offense_word(reg) == "second"
    assert undo_import(reg, done.batch, by="Clerk Ames") == 2
    assert offense_word(reg) == "first"
    trail = [e for e in reg.audit() if e["entity"] == "import_batch"]
    assert trail[0]["action"] == "undo-import" and trail[0]["actor"] == "Clerk Ames"
    assert len(trail[0]["detail"]["offenses"]) == 2
    with pytest.raises(RegisterError, match=f"import {done.batch} was already withdrawn"):
        undo_import(reg, done.batch)
    with pytest.raises(RegisterError, match="no import with that id"):
        undo_import(reg, "99999999999999999999")
    again = import_history(reg, path)  # withdrawn rows are no duplicates
    assert len(again.lines) == 2


def test_a_near_name_is_a_question_and_an_id_answers_it(reg, tmp_path):
    first = reg.issue("notice-of-violation", notice("2024-02-08"), formats=HTML)
    near = '"Smith, John",41 Route 281,Homer,NY,13077,2024-02-01,2024-05-01,Homer Village Court,1'
    path = csv_file(
        tmp_path,
        "TIOUGHNIOGA RIDGE DEVELOPMENTS LLC,41 Route 281,Homer,NY,13077,"
        "2023-02-01,2023-05-01,Homer Village Court,23-1",
    )
    with pytest.raises(RegisterError, match="is not matched with certainty") as err:
        import_history(reg, path)
    assert f"#{first.respondent.id} Tioughnioga Ridge Development LLC" in str(err.value)
    chosen = csv_file(
        tmp_path,
        "TIOUGHNIOGA RIDGE DEVELOPMENTS LLC,41 Route 281,Homer,NY,13077,"
        f"2023-02-01,2023-05-01,Homer Village Court,23-1,{first.respondent.id}",
        header=f"{HEADER},respondent_id",
    )
    assert len(import_history(reg, chosen).lines) == 1
    assert (
        "TIOUGHNIOGA RIDGE DEVELOPMENTS LLC" in reg.history(first.respondent.id).respondent.aliases
    )
    # Within one file too: the second spelling of a new name is a question.
    within = csv_file(
        tmp_path,
        near,
        "John Smith,41 Route 281,Homer,NY,13077,2024-02-01,2024-05-02,Homer Village Court,2",
        name="within.csv",
    )
    with pytest.raises(RegisterError, match=r"within\.csv:3: 'John Smith' is not matched"):
        import_history(reg, within)


@pytest.mark.parametrize(
    ("row", "on_record"),
    [
        ("J Smith", "John Smith"),  # an initial
        ("John Smyth", "John Smith"),  # a misspelt surname
        ("Jhon Smith", "John Smith"),  # a misspelt first name
        ("Ridge Dev LLC", "Ridge Development LLC"),  # a shortened word
        ("Ridgewood A", "Ridgewood"),  # one word and two
    ],
)
def test_a_near_name_shares_a_block_with_the_name_it_is_near(reg, tmp_path, row, on_record):
    """Blocking keys keep candidates few (benchmarks.register_import) and miss no near name."""
    import_history(
        reg,
        csv_file(
            tmp_path,
            f"{on_record},1 Elm Street,Homer,NY,13077,"
            "2024-02-01,2024-05-01,Homer Village Court,B-1",
        ),
    )
    asked = csv_file(
        tmp_path,
        f"{row},9 Oak Street,Homer,NY,13077,2024-02-01,2024-05-01,Homer Village Court,B-2",
        name="near.csv",
    )
    with pytest.raises(RegisterError, match="not matched with certainty"):
        import_history(reg, asked)
