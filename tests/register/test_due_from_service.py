"""What is due runs from service (issue 47; LAW.md §§ 2, 11, 12): a remedy's or corrective
action's date that ran out before service was complete is a schedule the person never had,
so `docgen due` never calls it overdue and says so (and recording that service warns); a
document whose only mailing came back is still listed as needing service. On SQLite and
PostgreSQL, through the command line."""

from __future__ import annotations

from datetime import date

from docgen.register.matter.inspections import notify_deficiency
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import INSPECTION, inspection
from tests.helpers.register_cases import notice
from tests.helpers.served import service_args, service_of
from tests.register.test_register_lift import order

HTML = ("html",)


def test_a_remedy_date_before_mail_service_was_complete_is_not_overdue(reg, tmp_path):
    nov = reg.issue("notice-of-violation", notice("2026-11-16"), formats=HTML).number
    # remedy due November 23; mailed November 20, complete November 25 (mailing + 5 days)
    run = docgen(
        "record-service",
        nov,
        *service_args("certified-mail"),
        "--date",
        "2026-11-20",
        "-f",
        "html",
        "-o",
        tmp_path / "out/",
    )
    assert run.returncode == 0, run.stderr
    assert (
        f"warning: {nov}: the remedial measure" in run.stderr
        and "was due November 23, 2026, before service was complete on November 25, 2026; the "
        "person served never had that date, so it is not overdue"
        in run.stderr
    )
    run = docgen("due")
    assert run.returncode == 0, run.stderr
    (remedy,) = [line for line in run.stdout.splitlines() if "remedial measures" in line]
    assert not remedy.startswith("OVERDUE"), remedy
    assert (
        "warning: due 2026-11-23, before service was complete on 2026-11-25: the person served "
        "never had this date, so it is not overdue"
    ) in run.stdout


def test_a_corrective_date_before_the_notice_was_served_is_not_overdue(reg, tmp_path):
    findings = [dict(f) for f in INSPECTION["findings"]]
    findings[0]["due"], findings[2]["due"] = "2026-11-06", "2026-11-30"
    case = inspection(
        tmp_path, photos=0, issued="2026-11-02", inspected="2026-11-02", findings=findings
    )
    inspected = reg.issue("inspection-report", case, formats=HTML).number
    nod = notify_deficiency(reg, inspected, date(2026, 11, 3), formats=HTML).number
    served = reg.record_service(nod, service_of("personal-delivery", date(2026, 11, 10)))
    assert served.warnings == (
        f"{nod}: the corrective action of deficiency 1 was due November 6, 2026, before service "
        "was complete on November 10, 2026; the person served never had that date, so it is "
        "not overdue: issue a correction (docgen supersede) with a date after service",
    )
    run = docgen("due")
    listed = [line for line in run.stdout.splitlines() if "deficiency" in line]
    fence = next(line for line in listed if "deficiency 1" in line)
    washout = next(line for line in listed if "deficiency 2" in line)
    assert not fence.startswith("OVERDUE"), fence
    assert washout.startswith("OVERDUE"), washout  # November 30: after service, and past


def test_an_order_whose_only_mailing_came_back_still_needs_service(reg):
    issued = reg.issue("stop-work-order", order(), formats=HTML)
    case = reg.document(issued.number).case
    for person in [case["recipient"], *case.get("copies_to", [])]:
        to = None if person is case["recipient"] else person["name"]
        reg.record_service(
            issued.number, service_of("certified-mail", issued.issued, to=to), formats=HTML
        )
        reg.record_return(issued.number, issued.issued, "unclaimed", to=to)
    run = docgen("due")
    assert run.returncode == 0, run.stderr
    assert "nothing due" not in run.stdout
    (line,) = [line for line in run.stdout.splitlines() if issued.number in line]
    assert "needs service" in line
    assert f"not served on {case['recipient']['name']}; mailing returned" in line
    assert "(unclaimed); serve it again by another means" in line
    assert "(§ 228-79C(2))" in line
