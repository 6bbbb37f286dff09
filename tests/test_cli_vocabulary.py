"""One vocabulary per person, on the command line too (issue 52): what `docgen check`,
`render`, `penalty`, `batch` and `issue` print about a case (every problem of every kind's
empty case and of each sample with fields wrong, every warning a check gives) names each
field as the desk's form does ("Remedy 1, due", not "remedies[0].due"), and what the
register's commands print when they refuse cites the law, never the project's notes
("LAW.md"). The checker is the desk's (tests/helpers/vocabulary.py), run on the real
command's output; files are named, the command line's own business (the case typed, the
files written, the batch's manifest)."""

from __future__ import annotations

import copy
import json
from datetime import timedelta
from pathlib import Path

import pytest
import yaml
from helpers.casewalk import del_in, leaves, set_in
from helpers.cli import Run, docgen
from helpers.register_cases import notice
from helpers.served import service_args
from helpers.vocabulary import WARNINGS, code_words

from docgen.cases.loader import read_case_file
from docgen.cases.mail import with_check_digit
from docgen.demo import sample_cases
from docgen.documents import get_kind
from docgen.errors import DocgenError
from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import Issue, Register

ROOT = Path(__file__).resolve().parent.parent
FILES = ("a file name",)  # what the command line may name: the files it reads and writes
SAMPLES = sample_cases()
KINDS = sorted({kind: path for kind, path in SAMPLES}.items())


def printed(run: Run) -> str:
    return run.stdout + run.stderr


def spoken(run: Run) -> list[str]:
    """The code words in what the command printed (its files aside)."""
    return code_words(printed(run), FILES)


def written(folder: Path, name: str, data: dict) -> str:
    (folder / name).write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return name


def spoiled(kind: str, data: dict) -> dict:
    """The sample with several things wrong at once: a field of a list's first row gone
    (a row's place: "Remedy 1, measure"), a date impossible, a choice made up, a group of
    fields typed as one line, a key misspelled."""
    walked = list(leaves(get_kind(kind).model, data))
    in_row = next((path for path, _, _ in walked if any(isinstance(p, int) for p in path)), None)
    if in_row is not None:
        data = del_in(data, in_row)
    for wanted, value in (("date", "2026-02-30"), ("literal", "something else")):
        found = next((path for path, _, what in walked if what == wanted), None)
        if found is not None and found != in_row:
            data = set_in(data, found, value)
    group = next((key for key, value in data.items() if isinstance(value, dict)), None)
    return {**data, **({group: "some text"} if group else {}), "remedys": []}


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=[f"{k}/{p.stem}" for k, p in SAMPLES])
def test_every_sample_checked_says_its_warnings_in_the_forms_words(kind, path):
    done = docgen("check", kind, path.relative_to(ROOT), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert f"ok for {get_kind(kind).a_title}" in done.stdout
    assert spoken(done) == []


@pytest.mark.parametrize(("kind", "path"), KINDS, ids=[k for k, _ in KINDS])
def test_every_kinds_empty_case_is_refused_in_the_forms_words(kind, path, tmp_path):
    case = written(tmp_path, "empty.yaml", {"jurisdiction": path.stem.split("-")[0]})
    checked = docgen("check", kind, case, cwd=tmp_path)
    assert checked.returncode == 1 and "problem" in checked.stderr, checked.stderr
    assert spoken(checked) == []
    rendered = docgen("render", kind, case, "-f", "html", "-o", "out/", cwd=tmp_path)
    assert rendered.returncode == 1 and rendered.stderr == checked.stderr
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


@pytest.mark.parametrize(("kind", "path"), SAMPLES, ids=[f"{k}/{p.stem}" for k, p in SAMPLES])
def test_every_sample_with_fields_wrong_is_refused_in_the_forms_words(kind, path, tmp_path):
    case = written(tmp_path, "case.yaml", spoiled(kind, read_case_file(path)))
    done = docgen("check", kind, case, cwd=tmp_path)
    assert done.returncode == 1 and "problem" in done.stderr, done.stderr
    assert spoken(done) == []
    assert "Remedys: is not a key" in done.stderr  # a key the case file has, in words


@pytest.mark.parametrize("warning", list(WARNINGS))
def test_every_warning_is_said_in_the_forms_words(warning, tmp_path):
    kind, sample, change, said = WARNINGS[warning]
    data = change(copy.deepcopy(read_case_file(ROOT / "fixtures" / kind / f"{sample}.yaml")))
    case = written(tmp_path, "case.yaml", data)
    checked = docgen("check", kind, case, cwd=tmp_path)
    assert checked.returncode == 0 and "warning: " in checked.stderr and said in checked.stderr
    assert spoken(checked) == []
    rendered = docgen("render", kind, case, "-f", "html", "-o", "out/", cwd=tmp_path)
    assert rendered.returncode == 0 and rendered.stderr == checked.stderr
    assert (tmp_path / "out").is_dir() and spoken(rendered) == []


def test_the_penalty_of_a_case_with_fields_wrong_is_refused_in_the_forms_words(tmp_path):
    sample = read_case_file(ROOT / "fixtures/penalty-statement/homer-second-offense-continued.yaml")
    data = set_in(sample, ("violations", 0, "continued_through"), "2020-01-01")
    data = {**data, "prior_offenses": [{"committed": "2023-06-01", "disposition": "convicted"}]}
    done = docgen("penalty", written(tmp_path, "case.yaml", data), cwd=tmp_path)
    assert done.returncode == 1 and "Violation 1, continued through: " in done.stderr
    assert "Prior offense 1, convicted: " in done.stderr
    assert spoken(done) == []


def test_a_batch_says_its_failures_and_warnings_in_the_forms_words(tmp_path):
    kind, sample, change, said = WARNINGS["a remedy due on a Saturday"]
    data = read_case_file(ROOT / "fixtures" / kind / f"{sample}.yaml")
    cases = [
        written(tmp_path, "warned.yaml", change(copy.deepcopy(data))),
        written(tmp_path, "spoiled.yaml", del_in(data, ("remedies", 0, "due"))),
        written(tmp_path, "empty.yaml", {"jurisdiction": "homer"}),
    ]
    done = docgen("batch", kind, *cases, "-o", "out", "-f", "html", "-j", "1", cwd=tmp_path)
    assert done.returncode == 1 and said in done.stderr
    assert "FAILED spoiled.yaml: " in printed(done) and "FAILED empty.yaml: " in printed(done)
    assert spoken(done) == []
    manifest = json.loads((tmp_path / "out/manifest.json").read_text(encoding="utf-8"))
    failed = "\n".join(entry["error"] for entry in manifest["failed"])
    assert "Remedy 1, " in failed and code_words(failed, FILES) == []


@pytest.fixture
def home(tmp_path):
    """A register of the test's own (its DOCGEN_HOME), and the folder commands run in."""
    return {"env": {"DOCGEN_HOME": str(tmp_path / "home")}, "cwd": tmp_path}


def test_issue_says_a_cases_problems_and_warnings_in_the_forms_words(home, tmp_path):
    kind, sample, change, said = WARNINGS["a remedy due on a Saturday"]
    data = read_case_file(ROOT / "fixtures" / kind / f"{sample}.yaml")
    refused = docgen(
        "issue", kind, written(tmp_path, "bad.yaml", spoiled(kind, data)), "-f", "html", **home
    )
    assert refused.returncode == 1 and "problem" in refused.stderr, refused.stderr
    assert spoken(refused) == []
    warned = change(copy.deepcopy(data))
    warned.pop("number", None)
    issued = docgen("issue", kind, written(tmp_path, "warned.yaml", warned), "-f", "html", **home)
    assert issued.returncode == 0, issued.stderr
    assert "Remedy 1, due: " in issued.stderr and said in issued.stderr
    assert spoken(issued) == []
    inspection = {"jurisdiction": "homer", "findings": [{"practice": "silt fence"}]}
    recorded = docgen("record-inspection", written(tmp_path, "inspection.yaml", inspection), **home)
    assert recorded.returncode == 1 and "Finding 1, " in recorded.stderr
    assert spoken(recorded) == []


def test_the_registers_refusals_cite_the_law_never_the_projects_notes(home, tmp_path):
    """Each refusal here was written citing the design notes beside the law ("LAW.md §
    2", "§ 9", "§ 2(a)", "§ 4, reading 13"): the person reads the law's provision."""
    pack = load_pack("homer")
    today = municipal_today(pack)
    case = written(tmp_path, "notice.yaml", notice(today.isoformat()))
    issued = docgen("issue", "notice-of-violation", case, "-f", "html", **home)
    assert issued.returncode == 0, issued.stderr
    number = issued.stdout.split()[1]
    tomorrow = (today + timedelta(days=1)).isoformat()
    hand = service_args("personal-delivery")
    refusals = {
        "served after today": ("record-service", number, *hand, "--date", tomorrow),
        "served before issue": (
            "record-service", number, *hand, "--date", str(today - timedelta(days=1))),
        "convicted after today": (
            "record-disposition", number, "--disposition", "convicted", "--date", tomorrow),
        "a name kept of no record": (
            "issue", "notice-of-violation", written(tmp_path, "kept.yaml", notice(str(today))),
            "-f", "html", "--keep-typed-name"),
    }  # fmt: skip
    appeal = pack.part("enforcement").appeal_days.ref
    for what, args in refusals.items():
        done = docgen(*args, **home)
        assert done.returncode == 1 and "Traceback" not in done.stderr, (what, done.stderr)
        assert "LAW.md" not in done.stderr and spoken(done) == [], (what, done.stderr)
    ahead = docgen(*refusals["served after today"], **home)
    assert f"({appeal})" in ahead.stderr  # the law's provision stays
    judged = docgen(*refusals["convicted after today"], **home)
    assert f"({pack.part('penalties').ref})" in judged.stderr
    kept = docgen(*refusals["a name kept of no record"], **home)
    assert "(the document names whom the register holds it against)" in kept.stderr
    mailed = ("--method", "certified-mail", "--served-by-officer", "--article")
    article = with_check_digit("940711189876543210123")
    first = docgen("record-service", number, *mailed, article, "--date", str(today), **home)
    assert first.returncode == 0, first.stderr
    other = docgen("issue", "notice-of-violation", written(tmp_path, "other.yaml",
                   notice(today.isoformat())), "-f", "html", **home)  # fmt: skip
    again = docgen(
        "record-service", other.stdout.split()[1], *mailed, article, "--date", str(today), **home
    )
    assert again.returncode == 1 and "already used for the piece of" in again.stderr
    assert "LAW.md" not in again.stderr and spoken(again) == []


def test_the_commands_that_build_a_case_from_the_register_say_its_problems_in_its_words(
    home, tmp_path
):
    """A command that builds its case from the register (a notice from an inspection, an
    escalation, an extension, a step after the notice) names each field of a refused case
    by the form of the document it is about, as `docgen issue` does: the notice of
    deficiency's own fields where it lacks what an escalation needs ("Copies to",
    "Deficiency 2, ..."), the inspection report's where it found nothing, the letter's where
    a value given is too long ("Granted by, name"), the order's ("Premises"). Before, the
    case's paths (copies_to, deficiencies[1].requirement, granted_by.name)."""
    from helpers.inspection_cases import APPLICANT, DEVELOPER, INSPECTION, TODAY

    def number(done: Run) -> str:
        assert done.returncode == 0, done.stderr
        return done.stdout.split()[1]

    day, seen = TODAY - timedelta(days=20), str(TODAY - timedelta(days=5))
    findings = copy.deepcopy(INSPECTION["findings"])
    for finding in findings:
        if "due" in finding:
            finding["due"] = str(TODAY - timedelta(days=10))  # both past
    first = {**INSPECTION, "issued": str(day), "inspected": str(day),
             "persons": [DEVELOPER, APPLICANT], "findings": findings}  # fmt: skip
    report = number(docgen("record-inspection", written(tmp_path, "i.yaml", first), **home))
    notice_number = number(docgen("notify-deficiency", report, "--date", day, **home))
    hand = service_args("personal-delivery")
    number(docgen("record-service", notice_number, *hand, "--date", day, **home))
    still = {"found": "Still not done", "result": "deficient", "due": seen}
    again = {**first, "issued": seen, "inspected": seen, "reinspects": {"notice": notice_number},
             "findings": [{**findings[0], **still, "corrects": 1},
                          {**findings[2], **still, "corrects": 2}]}  # fmt: skip
    number(docgen("record-inspection", written(tmp_path, "r.yaml", again), **home))
    week = str(TODAY + timedelta(days=7))
    escalated = docgen("escalate", notice_number, "--to", "stop-work-order", "--date",
                       TODAY, "--due", week, "-f", "html", **home)  # fmt: skip
    assert escalated.returncode == 1, escalated.stderr
    assert "Copies to: Notice of Deficiency No." in escalated.stderr  # no landowner
    assert "Deficiency 2, " in escalated.stderr  # cited to the SWPPP
    assert spoken(escalated) == []

    nothing = {**INSPECTION, "issued": str(TODAY), "inspected": str(TODAY),
               "findings": [INSPECTION["findings"][1]]}  # fmt: skip
    clean = number(docgen("record-inspection", written(tmp_path, "ok.yaml", nothing), **home))
    notified = docgen("notify-deficiency", clean, "-f", "html", **home)
    assert notified.returncode == 1 and "Findings: Inspection Report No." in notified.stderr
    assert spoken(notified) == []

    issued = docgen("issue", "notice-of-violation",
                    written(tmp_path, "n.yaml", notice(str(TODAY - timedelta(days=3)))),
                    "-f", "html", **home)  # fmt: skip
    violation = number(issued)
    number(docgen("record-service", violation, *hand, "--date", TODAY - timedelta(days=3), **home))
    later = TODAY + timedelta(days=60)
    extended = docgen("extend", violation, "--item", "1", "--until", later, "--granted-by",
                      "G" * 600, "--reason", "rain", "-f", "html", **home)  # fmt: skip
    assert extended.returncode == 1 and "Granted by, name: " in extended.stderr
    assert spoken(extended) == []
    withheld = docgen("withhold-occupancy", violation, "--premises", "The barn\x07", "-f",
                      "html", **home)  # fmt: skip
    assert withheld.returncode == 1 and "Premises: contains" in withheld.stderr
    assert spoken(withheld) == []


def issued_number(done: Run) -> str:
    assert done.returncode == 0, done.stderr
    return done.stdout.split()[1]


def refused_in_words(done: Run, *said: str) -> None:
    """Refused, saying ``said``, naming each document by its title, never its kind's code
    name ("an appeal-hearing")."""
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert all(s in done.stderr for s in said), (said, done.stderr)
    assert spoken(done) == [], done.stderr


AGREEMENT = ROOT / "fixtures/maintenance-agreement"


def test_a_law_without_the_step_after_the_notice_refuses_it_naming_the_document(home):
    """Macedon's article has no step after a notice (§§ 301-71 to 301-73): each command
    refuses, naming the document it would issue as the documents call themselves ("a
    notice of hearing of an appeal"). Before, by the kind's code name ("an appeal-hearing")."""
    number = issued_number(
        docgen("issue", "maintenance-agreement", AGREEMENT / "macedon-individual.yaml",
               "-f", "html", **home))  # fmt: skip
    day, later = str(municipal_today(load_pack("macedon"))), "2099-12-30"
    html = ("-f", "html")
    steps = {
        "withhold-occupancy": ("--premises", "The barn", *html),
        "release-occupancy": html,
        "require-restoration": ("--restore", "the slope", "--restore-by", later, *html),
        "state-restoration-cost": ("--inspection", "IR-1", "--item", "Seeding=100", *html),
        "record-lien": html,
        "record-lien-payment": ("--amount", "1", "--paid-on", day, "--paid-by", "A. Owner"),
        "release-lien": html,
        "appeal record": ("--received", day, "--received-by", "the clerk", *html),
        "appeal hearing": ("--hearing", later, "--time", "7:00 p.m.", *html),
        "appeal decide": ("--outcome", "affirmed", "--reason", "r", "--date", day,
                          "--signed-by", "A. Chair", "--title", "Chair", *html),
        "extend": ("--item", "1", "--until", later, "--granted-by", "G", "--reason", "rain",
                   *html),
    }  # fmt: skip
    for command, args in steps.items():
        refused_in_words(
            docgen(*command.split(), number, *args, **home), "Town of Macedon cannot issue "
        )
    occupancy = docgen("withhold-occupancy", number, "--premises", "The barn", "-f", "html", **home)
    refused_in_words(occupancy, "cannot issue an order preventing occupancy: ")
    hearing = docgen("appeal", "hearing", number, *steps["appeal hearing"], **home)
    refused_in_words(hearing, "cannot issue a notice of hearing of an appeal: ")


def test_a_document_of_the_wrong_kind_is_refused_naming_it_by_its_title(home, tmp_path):
    """Each command that acts on a document of some kinds refuses another, naming both by
    their titles ("MA-2026-0001 is a maintenance agreement: not a document served on
    persons"); the kinds the person may type are quoted ('notice-of-violation'). Before,
    by their code names."""
    number = issued_number(
        docgen("issue", "maintenance-agreement", AGREEMENT / "homer-individual.yaml",
               "-f", "html", **home))  # fmt: skip
    day = str(municipal_today(load_pack("homer")))
    hand = service_args("personal-delivery")
    refusals = {
        ("record-service", number, *hand, "--date", day): "is a maintenance agreement",
        ("record-receipt", number, "--received", day, "--signed-by", "A"): "maintenance agreement",
        ("record-return", number, "--date", day, "--reason", "unclaimed"): "maintenance agreement",
        ("lift", number, "--date", day): "is a maintenance agreement; only a stop-work order",
        ("record-disposition", number, "--disposition", "convicted", "--date", day):
            "is a maintenance agreement; dispositions",
        ("notify-deficiency", number, "-f", "html"): "is a maintenance agreement, not an ",
        ("fees", "pay", number, "--amount", "1", "--date", day, "--method", "cash"):
            "is a maintenance agreement; a payment",
        ("escalate", number, "--to", "maintenance-agreement", "--date", day, "--due", day):
            "escalates to a notice of violation or a stop-work order",
        ("issue", "maintenance-agreement", AGREEMENT / "homer-individual.yaml", "--copies"):
            "a maintenance agreement has no copies",
    }  # fmt: skip
    for args, said in refusals.items():
        refused_in_words(docgen(*args, **home), said)
    numbered = written(tmp_path, "numbered.yaml", {**notice(day), "number": "X-1"})
    refused_in_words(
        docgen("issue", "notice-of-violation", numbered, "-f", "html", **home),
        "is not a notice of violation number",
    )


def test_a_correction_of_another_kind_is_refused_naming_both_by_their_titles(
    home, tmp_path, monkeypatch
):
    """A correction is of the same kind as what it corrects: a notice of violation given
    as the correction of a maintenance agreement is refused, each named by its title."""
    issued_number(
        docgen("issue", "maintenance-agreement", AGREEMENT / "homer-individual.yaml",
               "-f", "html", **home))  # fmt: skip
    monkeypatch.setenv("DOCGEN_HOME", home["env"]["DOCGEN_HOME"])
    reg = Register.open()
    case = notice(str(municipal_today(load_pack("homer"))))
    with pytest.raises(DocgenError) as refused:
        reg.issue("notice-of-violation", case, Issue(supersedes="MA-2026-0001"),
                  formats=("html",), out=tmp_path / "out")  # fmt: skip
    said = str(refused.value)
    assert "MA-2026-0001 is a maintenance agreement; a correction is a maintenance " in said
    assert code_words(said) == [], said
