"""Inspections, the notice of deficiency and the approval of corrected work in the register
(§ 228-79A(1); LAW.md § 11), on SQLite and PostgreSQL: an officer's week, from the command
line, read back from the PDF and the DOCX."""

from __future__ import annotations

import io
import re
import zipfile
from datetime import date, timedelta
from pathlib import Path

import pytest
from PIL import Image

from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import RegisterError
from docgen.register.matter.inspections import approve_work, escalate, halts, notify_deficiency
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import GPS_IFD, INSPECTION, inspection, reinspection
from tests.helpers.readback import docx_text, pdf_text
from tests.helpers.served import service_of

ROOT = Path(__file__).resolve().parents[2]
SEED = (ROOT / "tests" / "law_text" / "homer-ch228-art12.txt").read_text(encoding="utf-8")
HALT = (
    "No further work shall be conducted except for site stabilization until the deficiencies "
    "or violations are corrected and all work previously completed has received approval by "
    "the CEO."
)


def flat(text: str) -> str:
    return " ".join(text.split())


def media(docx: bytes) -> list[bytes]:
    with zipfile.ZipFile(io.BytesIO(docx)) as archive:
        return [archive.read(n) for n in archive.namelist() if n.startswith("word/media/")]


def issued_number(output: str) -> str:
    return re.search(r"issued (\S+) \(", output)[1]


def test_an_inspection_is_recorded_with_its_photos_and_a_numbered_report(reg, tmp_path):
    run = docgen("record-inspection", inspection(tmp_path), "-o", tmp_path / "out/")
    assert run.returncode == 0, run.stderr
    number = issued_number(run.stdout)
    assert number == "INS-2026-0001"
    record = reg.document(number)
    assert record.kind == "inspection-report" and record.site.startswith("120 Cayuga Street")
    files = reg.files(number)
    for text in (pdf_text(files["pdf"]), docx_text(files["docx"])):
        words = flat(text)
        assert "Inspection Report" in words and "INS-2026-0001" in words
        assert "November 30, 2026 at 09:30, by Dana R. Whitcomb" in words
        assert "Sam Keller, site superintendent" in words
        assert "0.3 inch of rain overnight" in words
        assert "2 deficiencies were found" in words
        assert "Reinstall the silt fence along the north line and clean the inlet" in words
        assert "Photo 1, taken November 30, 2026 at 09:40 (finding 1, Silt fence)" in words
        assert "Photo 2, taken November 30, 2026 at 09:41 (finding 3, Concrete washout)" in words
    images = media(files["docx"])
    assert len(images) == 2
    for blob in images:  # the camera's location and make are gone (only the time is kept)
        exif = Image.open(io.BytesIO(blob)).getexif()
        assert GPS_IFD not in exif and 0x010F not in exif
    assert files["html"].count(b"data:image/jpeg;base64,") == 2


def test_an_officer_keeps_a_photos_location_only_when_asked(reg, tmp_path):
    path = inspection(tmp_path, photos=1)
    text = path.read_text(encoding="utf-8").replace(
        "finding: 1", "finding: 1\n  keep_location: 'yes'"
    )
    path.write_text(text, encoding="utf-8")
    number = reg_issue(reg, path)
    (blob,) = media(reg.files(number)["docx"])
    assert Image.open(io.BytesIO(blob)).getexif().get_ifd(GPS_IFD)[1] == "N"


def reg_issue(reg, path: Path) -> str:
    from docgen.register.matter.inspections import record_inspection_case

    return record_inspection_case(reg, path, formats=("html", "docx")).number


def test_an_inspection_that_found_nothing_is_recorded_and_notifies_nothing(reg, tmp_path):
    findings = [{"practice": "Silt fence", "found": "Intact, trenched", "result": "satisfactory"}]
    number = reg_issue(reg, inspection(tmp_path, photos=0, findings=findings))
    words = flat(docx_text(reg.files(number)["docx"]))
    assert "No deficiency was found at this inspection." in words
    run = docgen("notify-deficiency", number, "--date", "2026-11-30")
    assert run.returncode == 1
    assert f"Inspection Report No. {number} found no deficiency" in run.stderr
    assert "(§ 228-79A(1))" in run.stderr
    assert reg.count() == 1  # nothing recorded, no number used


def test_the_notice_of_deficiency_is_made_from_the_inspection_served_and_proved(reg, tmp_path):
    inspected = reg_issue(reg, inspection(tmp_path))
    run = docgen(
        "notify-deficiency", inspected, "--date", "2026-11-30", "--copies", "-o", tmp_path / "n/"
    )
    assert run.returncode == 0, run.stderr
    number = issued_number(run.stdout)
    assert number == "NOD-2026-0001"
    assert HALT in flat(SEED)  # the halt is the seed's sentence, character for character
    files = reg.files(number)
    for text in (pdf_text(files["pdf"]), docx_text(files["docx"])):
        words = flat(text)
        assert "Notice of Deficiency" in words
        # Addressed to the developer and the applicant; the landowner copied.
        assert "To: Tioughnioga Ridge Development LLC (developer)" in words
        assert "Marguerite Okafor (applicant), 9 Clinton Street" in words
        assert "Copy to: Cayuga Street Holdings LLC (landowner)" in words
        # Per deficiency: what, where, when, the provision or SWPPP requirement, the action.
        assert "Silt fence: Fence down over 40 feet" in words and "north property line" in words
        assert "§ 228-78D(1)" in words and "SWPPP § 4.3, concrete washout area" in words
        assert "Install the lined concrete washout the SWPPP shows December 7, 2026" in words
        assert "Stabilized construction entrance" not in words  # satisfactory: not a deficiency
        assert f"“{HALT}” (§ 228-79A(1))" in words
        assert "This applies from service of this notice." in words
        assert "the right to enter the property for the purpose of inspecting" in words
        assert "ask the Code Enforcement Officer for a reinspection" in words
        assert "Inspection Report No. INS-2026-0001" in words
        assert "appeal" not in words.casefold()  # A(1) gives none; C(1)(f)'s is not borrowed
    copies = sorted(p.name for p in (tmp_path / "n").glob("*-copy-*.pdf"))
    assert copies == [
        f"{number}-notice-of-deficiency-copy-1.pdf",
        f"{number}-notice-of-deficiency-copy-2.pdf",
    ]
    copy = flat(pdf_text((tmp_path / "n" / copies[1]).read_bytes()))
    assert "Copy for Cayuga Street Holdings LLC (landowner)" in copy
    # Served and proved like a notice of violation: one event and one affidavit per person.
    served = reg.record_service(
        number, service_of("personal-delivery", date(2026, 12, 1), time="10:15")
    )
    affidavit = flat(docx_text(reg.files(served.affidavit.number)["docx"]))
    assert f"Notice of Deficiency No. {number}" in affidavit
    mailed = reg.record_service(
        number, service_of("certified-mail", date(2026, 12, 1), to="Cayuga Street Holdings LLC")
    )
    assert mailed.affidavit is not None
    assert reg.document(number).appeal_deadline is None  # nothing to appeal
    run = docgen("mailing-list", "--date", "2026-12-01", "-o", tmp_path / "m/", "-f", "pdf")
    assert run.returncode == 0, run.stderr
    sheet = flat(pdf_text(Path(run.stdout.split()[-1]).read_bytes()))
    assert number in sheet and "Cayuga Street Holdings LLC" in sheet
    # An inspection is notified once.
    with pytest.raises(
        RegisterError, match=f"notified already by Notice of Deficiency No. {number}"
    ):
        notify_deficiency(reg, inspected, date(2026, 11, 30), formats=("html",))


def test_approval_of_corrected_work_from_a_reinspection_and_the_halt_per_site(reg, tmp_path):
    inspected = reg_issue(reg, inspection(tmp_path))
    notice = notify_deficiency(reg, inspected, date(2026, 11, 30), formats=("html",)).number
    assert [h.status for h in halts(reg)] == ["not in effect: the notice is not served"]
    rechecked = reinspection(
        tmp_path,
        notice,
        "2026-12-01",
        [
            {
                "practice": "Silt fence",
                "found": "Reinstalled, trenched",
                "result": "satisfactory",
                "corrects": 1,
            },
            {
                "practice": "Concrete washout",
                "found": "Still none",
                "result": "deficient",
                "requirement": "SWPPP § 4.3",
                "corrective_action": "Install it",
                "due": "2026-12-07",
                "corrects": 2,
            },
        ],
        photos=1,
    )
    # A reinspection answers a served notice (LAW.md § 11): refused before its service.
    with pytest.raises(RegisterError, match="is not served yet: a reinspection answers"):
        reg_issue(reg, rechecked)
    reg.record_service(
        notice, service_of("personal-delivery", date(2026, 12, 1)), formats=("html",)
    )
    again = reg_issue(reg, rechecked)
    (halt,) = halts(reg, "120 cayuga")
    assert halt.status == "in effect since 2026-12-01: deficiencies 1, 2 open"
    today = municipal_today(load_pack("homer"))
    with pytest.raises(RegisterError, match=r"after today .*on or before the day it is recorded"):
        approve_work(reg, notice, again, today + timedelta(days=1))
    with pytest.raises(RegisterError, match="before NOD-2026-0001 was served"):
        approve_work(reg, notice, again, date(2026, 11, 30))
    with pytest.raises(RegisterError, match="is not a reinspection of"):
        approve_work(reg, notice, inspected, date(2026, 12, 1))
    # Work is approved on a notice whose service halts it (§ 228-79A(1)), found by the
    # kind's description: the inspection report is none.
    with pytest.raises(RegisterError, match=r"\(inspection report\) is not a notice whose service"):
        approve_work(reg, inspected, again, date(2026, 12, 1))
    partial = approve_work(reg, notice, again, date(2026, 12, 1), formats=("pdf", "docx"))
    for text in (pdf_text(partial.files["pdf"]), docx_text(partial.files["docx"])):
        words = flat(text)
        assert f"Notice of Deficiency No. {notice}" in words
        assert "Reinstalled, trenched (Photo 1 of Inspection Report No. INS-2026-0002)" in words
        assert "This is a partial approval" in words and "Still none" in words
        assert "approved: work may resume" not in words
    (halt,) = halts(reg)
    assert halt.status == "in effect since 2026-12-01: deficiencies 2 open"
    # The silt fence was approved: a reinspection naming it again is refused, naming it.
    final = reg_issue(
        reg,
        reinspection(
            tmp_path,
            notice,
            "2026-12-02",
            [
                {
                    "practice": "Silt fence",
                    "found": "Fine",
                    "result": "satisfactory",
                    "corrects": 1,
                },
                {
                    "practice": "Concrete washout",
                    "found": "Lined washout in place",
                    "result": "satisfactory",
                    "corrects": 2,
                },
            ],
        ),
    )
    before = reg.count()
    with pytest.raises(
        Exception, match=r"deficiency 1 of Notice of Deficiency No\. NOD-2026-0001 is not open"
    ):
        approve_work(reg, notice, final, date(2026, 12, 2))
    assert reg.count() == before  # nothing recorded, no number used
    last = reg_issue(
        reg,
        reinspection(
            tmp_path,
            notice,
            "2026-12-02",
            [
                {
                    "practice": "Concrete washout",
                    "found": "Lined washout in place",
                    "result": "satisfactory",
                    "corrects": 2,
                }
            ],
        ),
    )
    run = docgen(
        "approve-work",
        notice,
        "--reinspection",
        last,
        "--date",
        "2026-12-02",
        "-o",
        tmp_path / "a/",
    )
    assert run.returncode == 0, run.stderr
    done = reg.files(issued_number(run.stdout))
    words = flat(pdf_text(done["pdf"]))
    assert (
        "approved: work may resume" in words
        and "None: every deficiency of the notice is corrected." in words
    )
    run = docgen("halts", "--json")
    assert '"status": "lifted by ACW-2026-0002: every deficiency approved"' in run.stdout
    run = docgen("approve-work", notice, "--reinspection", last, "--date", "2026-12-02")
    assert run.returncode == 1 and "has no deficiency open" in run.stderr


BAD_FINDINGS = [
    {
        "practice": "Silt fence",
        "found": "Down",
        "result": "deficient",
        "requirement": "§ 228-78D(1)",
    },
    {
        "practice": "Inlet protection",
        "found": "Missing",
        "result": "deficient",
        "requirement": "§ 228-78D(1)",
        "corrective_action": "Install it",
        "due": "2026-11-29",
    },
]


def test_bad_inspections_are_refused_by_label_and_provision_and_use_no_number(reg, tmp_path):
    path = inspection(tmp_path, photos=1, findings=BAD_FINDINGS)
    (tmp_path / "photo-0.jpg").write_bytes(b"%PDF-1.7 not a photo")
    run = docgen("record-inspection", path, "-o", tmp_path / "o/")
    assert run.returncode == 1 and "Traceback" not in run.stderr
    said = run.stderr
    assert "Finding 1, corrective action: missing: the corrective action" in said
    assert "Finding 1, complete by: missing: the date the corrective action must be" in said
    assert "Finding 2, complete by: November 29, 2026 is before the inspection" in said
    assert "Photo 1, file:" in said and "is not a JPEG or PNG image" in said
    assert "(§ 228-79A(1))" in said
    assert reg.count() == 0 and not (tmp_path / "o").exists()
    ok = inspection(tmp_path, photos=0)
    run = docgen("record-inspection", ok, "-f", "html", "-o", tmp_path / "o2/")
    assert issued_number(run.stdout) == "INS-2026-0001", run.stderr


def test_macedon_provides_no_inspection_notice_or_approval(reg, tmp_path):
    path = inspection(tmp_path, photos=0, jurisdiction="macedon")
    run = docgen("record-inspection", path)
    assert run.returncode == 1
    assert "Town of Macedon cannot issue an inspection report" in run.stderr or (
        "Town of Macedon cannot issue" in run.stderr and "§ 228-79A(1)" in run.stderr
    )
    for kind, said in (
        ("notice-of-deficiency", "a notice of deficiency"),
        ("approval-of-corrected-work", "an approval of corrected work"),
    ):
        run = docgen("issue", kind, path)
        assert run.returncode == 1
        assert f"Town of Macedon cannot issue {said}" in run.stderr
        assert "(Homer's is § 228-79A(1))" in run.stderr
    assert reg.count() == 0


def test_open_deficiencies_past_their_dates_escalate_without_retyping(reg, tmp_path):
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-25"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg_issue(reg, case)
    nod = notify_deficiency(reg, inspected, date(2026, 11, 3), formats=("html",)).number
    reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 3)), formats=("html",))
    # The reinspection that saw them still open: what the escalation may state (LAW.md § 11).
    again = reg_issue(
        reg,
        reinspection(
            tmp_path,
            nod,
            "2026-11-19",
            [
                {
                    "practice": practice,
                    "found": "Still not done",
                    "result": "deficient",
                    "requirement": requirement,
                    "corrective_action": "Do it",
                    "due": "2026-11-25",
                    "corrects": n,
                }
                for n, practice, requirement in (
                    (1, "Silt fence", "§ 228-78D(1)"),
                    (2, "Concrete washout", "SWPPP § 4.3"),
                )
            ],
        ),
    )
    run = docgen(
        "escalate",
        nod,
        "--to",
        "notice-of-violation",
        "--date",
        "2026-11-20",
        "--due",
        "2026-11-27",
        "-o",
        tmp_path / "e/",
    )
    assert run.returncode == 0, run.stderr
    number = issued_number(run.stdout)
    assert number.startswith("NOV-2026-")
    record = reg.document(number)
    assert record.respondent.name == "Cayuga Street Holdings LLC"  # to the landowner
    words = flat(docx_text(reg.files(number)["docx"]))
    assert "Silt fence: Fence down over 40 feet" in words
    came = f"deficiency 1 of Notice of Deficiency No. {nod}, found at Inspection Report No."
    assert f"{came} {inspected}" in words
    assert f"not corrected by November 19, 2026, as found at Inspection Report No. {again}" in words
    assert "November 2, 2026" in words and "§ 228-78D(1)" in words
    assert "Concrete washout" not in words  # not yet past its date on November 20
    assert "Tioughnioga Ridge Development LLC" in words
    # The washout's SWPPP requirement is no provision of the article: refused, named.
    with pytest.raises(Exception, match=r"deficiencies\[1\]\.requirement: 'SWPPP § 4.3"):
        escalate(reg, nod, "stop-work-order", date(2026, 11, 26), date(2026, 11, 30))
    with pytest.raises(RegisterError, match="escalates to a notice of violation or a stop-work"):
        escalate(reg, nod, "penalty-statement", date(2026, 11, 26), date(2026, 11, 30))
    before = reg.count()
    with pytest.raises(Exception, match="is open past its date on November 5, 2026"):
        escalate(reg, nod, "stop-work-order", date(2026, 11, 5), date(2026, 11, 30))
    assert reg.count() == before
