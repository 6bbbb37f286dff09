"""The SWPPP reviewed item by item, returned, amended, reviewed again and approved, in the
register (LAW.md § 15; § 228-77D(4), § 228-78B(1), (2); § 301-71A, B), on SQLite and
PostgreSQL: never an approval with an item open; an amendment's review never reopens an
item it does not change; the letters read back from their PDFs."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from docgen.register import RegisterError
from docgen.register.plans import swppp
from docgen.register.plans.swppp import add_plan, last_review, prefill, record_review, state
from docgen.register.plans.swppp import plan as plan_of
from docgen.register.sites.invitation_mail import message as invitation
from docgen.register.sites.invitations import add_site, today_in
from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_text

HOMER_SITE = {
    "address": {"street": "120 Cayuga Street", "city": "Homer", "state": "NY", "zip": "13077"}
}
MACEDON_SITE = {"description": "Lot 4, Canal Lane, Macedon"}


def flat(data: bytes) -> str:
    return " ".join(pdf_text(data).split())


def site(reg, jurisdiction: str = "homer") -> int:
    where = HOMER_SITE if jurisdiction == "homer" else MACEDON_SITE
    return add_site(
        reg.engine, jurisdiction, {"name": "Cayuga Street Townhomes"}, where, None, "clerk"
    )


def first_plan(reg, site_id: int, received):
    return add_plan(
        reg.engine,
        site_id,
        title="Cayuga Street Townhomes SWPPP",
        revision="1",
        preparer="Lena Ortiz",
        qualification="P.E., New York license 091234",
        permit="NYR11A123",
        applicant="Tioughnioga Ridge Development LLC",
        received=received,
        by="clerk",
    )


def all_present(jurisdiction: str, **others):
    from docgen.law.packs import load_pack

    given = {i.id: ("present", None) for i in load_pack(jurisdiction).swppp.items}
    given.update(others)
    return given


def test_returned_amended_reviewed_again_and_approved_in_homer(reg):
    today = today_in("homer")
    where = site(reg)
    plan = first_plan(reg, where, today - timedelta(days=12))
    assert state(reg.engine, where).endswith("not yet reviewed")
    given = all_present(
        "homer",
        **{
            "sensitive-areas": ("missing", "The site map shows no tree conservation plan."),
            "soil-tests": ("inadequate", "Results of test pits TP-3 and TP-4 are not given."),
        },
    )
    with pytest.raises(RegisterError, match="after today"):
        record_review(
            reg.engine,
            plan.id,
            given,
            reviewer="Dana R. Whitcomb, Code Enforcement Officer",
            on=today + timedelta(days=1),
            by="clerk",
        )
    with pytest.raises(
        RegisterError, match=r"soils \(§ 228-78B\(2\)\(a\)\[4\]\): every SWPPP must contain it"
    ):
        record_review(
            reg.engine,
            plan.id,
            {**given, "soils": ("not-applicable", None)},
            reviewer="Dana R. Whitcomb, Code Enforcement Officer",
            on=today - timedelta(days=10),
            by="clerk",
        )
    first = record_review(
        reg.engine,
        plan.id,
        given,
        reviewer="Dana R. Whitcomb, Code Enforcement Officer",
        on=today - timedelta(days=10),
        by="clerk",
    )
    assert [f.item.id for f in first.open_items] == ["sensitive-areas", "soil-tests"]
    with pytest.raises(RegisterError) as refused:
        reg.swppp_decide(plan.id, "approved", today - timedelta(days=9), formats=("pdf",))
    message = str(refused.value)
    assert (
        "2 item(s) open" in message
        and "Sensitive areas on the site map (§ 228-78B(2)(a)[3]): missing" in message
    )
    assert "Soil testing results and locations (§ 228-78B(2)(c)[6]): not adequate" in message
    assert "(§ 228-77D(4))" in message and "docgen swppp return" in message
    returned = reg.swppp_decide(
        plan.id, "returned", today - timedelta(days=9), formats=("pdf",), by="Clerk Ames"
    )
    assert returned.number.startswith("SWR-") and returned.kind == "swppp-return"
    text = flat(returned.files["pdf"])
    assert "Stormwater Pollution Prevention Plan Returned" in text
    assert "Sensitive areas on the site map: missing" in text and "(§ 228-78B(2)(a)[3])" in text
    assert "The reviewer found: Results of test pits TP-3 and TP-4 are not given." in text
    assert (
        "“No application for approval of a land development activity shall be reviewed until "
        "the Code Enforcement Officer has received" in text
    )
    assert "(§ 228-78B(1)(a))" in text
    assert state(reg.engine, where).endswith(f"returned ({returned.number})")
    with pytest.raises(RegisterError, match="already returned"):
        reg.swppp_decide(plan.id, "returned", today - timedelta(days=9), formats=("pdf",))

    amended = add_plan(
        reg.engine,
        where,
        title=None,
        revision="2",
        preparer=None,
        qualification=None,
        received=today - timedelta(days=5),
        amends=plan.id,
        changes=["sensitive-areas", "soil-tests"],
        by="clerk",
    )
    assert amended.title == plan.title and amended.applicant == plan.applicant
    assert prefill(reg.engine, amended.id)["soil-tests"][0] == "inadequate"
    with pytest.raises(RegisterError, match="review plan 2"):
        record_review(
            reg.engine,
            plan.id,
            given,
            reviewer="Dana R. Whitcomb",
            on=today - timedelta(days=4),
            by="clerk",
        )
    with pytest.raises(
        RegisterError,
        match=r"Soils \(§ 228-78B\(2\)\(a\)\[4\]\) not changed by revision 2: .* not reopened",
    ):
        record_review(
            reg.engine,
            amended.id,
            {
                "sensitive-areas": ("present", None),
                "soil-tests": ("present", None),
                "soils": ("missing", None),
            },
            reviewer="Dana R. Whitcomb",
            on=today - timedelta(days=4),
            by="clerk",
        )
    with pytest.raises(RegisterError, match="no finding for Soil testing results"):
        record_review(
            reg.engine,
            amended.id,
            {"sensitive-areas": ("present", None)},
            reviewer="Dana R. Whitcomb",
            on=today - timedelta(days=4),
            by="clerk",
        )
    second = record_review(
        reg.engine,
        amended.id,
        {"sensitive-areas": ("present", None), "soil-tests": ("present", None)},
        reviewer="Dana R. Whitcomb, Code Enforcement Officer",
        on=today - timedelta(days=4),
        by="clerk",
    )
    assert second.open_items == []
    carried = {f.item.id: f.carried_from for f in second.findings}
    assert carried["soils"] == first.id and carried["soil-tests"] is None
    with pytest.raises(RegisterError, match="every item of § 228-78B\\(2\\) is present"):
        reg.swppp_decide(amended.id, "returned", today - timedelta(days=3), formats=("pdf",))
    approved = reg.swppp_decide(amended.id, "approved", today - timedelta(days=3), formats=("pdf",))
    assert approved.number.startswith("SWA-") and approved.kind == "swppp-approval"
    text = flat(approved.files["pdf"])
    assert "Approval of Stormwater Pollution Prevention Plan" in text
    assert "Cayuga Street Townhomes SWPPP, revision 2" in text and "(amending revision 1)" in text
    assert (
        "who shall approve the SWPPP if it complies with the requirements of this law.” "
        "(§ 228-77D(4))" in text
    )
    assert (
        "“The certification statement(s) shall become part of the SWPPP for the land "
        "development activity.” (§ 228-78B(4)(c))" in text
    )
    assert "No contractor certification is yet held for this site" in text
    assert "present; unchanged since revision 1" in text
    assert state(reg.engine, where).endswith(f"approved ({approved.number})")
    named = swppp.approved(reg.engine, where)
    assert named == f"“Cayuga Street Townhomes SWPPP”, revision 2 (approval {approved.number})"
    mail = invitation(
        "homer",
        "clerk@homer.example.gov",
        "a@b.example",
        "Seneca Sitework Inc.",
        "Cayuga Street Townhomes",
        "https://x.example/c/1",
        today,
        named,
    )
    assert (
        f"The stormwater pollution prevention plan it becomes part of is {named} "
        "(§ 228-78B(4)(c))." in " ".join(mail.get_content().split())
    )
    assert last_review(reg.engine, amended.id).decision == "approved"
    with pytest.raises(RegisterError, match="was approved"):
        record_review(
            reg.engine,
            amended.id,
            {"sensitive-areas": ("present", None), "soil-tests": ("present", None)},
            reviewer="Dana R. Whitcomb",
            on=today,
            by="clerk",
        )


def test_macedon_board_approves_with_condition_a_not_applying(reg):
    today = today_in("macedon")
    where = site(reg, "macedon")
    plan = first_plan(reg, where, today - timedelta(days=3))
    with pytest.raises(RegisterError, match="no review"):
        reg.swppp_decide(plan.id, "approved", today, formats=("pdf",))
    record_review(
        reg.engine,
        plan.id,
        all_present("macedon", **{"preparer-certified": ("not-applicable", None)}),
        reviewer="Harold P. Vance, Chair, Town of Macedon Planning Board",
        on=today - timedelta(days=1),
        by="clerk",
    )
    from docgen.register.sites import certifying, invitations

    until = today + timedelta(days=30)
    _, token = invitations.invite(reg.engine, where, "Acme Earthworks LLC", None, until, "clerk")
    firm = {
        "firm": "Acme Earthworks LLC",
        "role": "contractor",
        "address": {"street": "1 Main St", "city": "Palmyra", "state": "NY", "zip": "14522"},
        "phone": "3155551234",
        "signer": {"name": "Jo Smith", "title": "President"},
        "responsibilities": ["silt fence"],
        "signed": today.isoformat(),
        "electronic_signature": {"name": "Jo Smith", "at": f"{today} 09:00 EST", "intent": "I do"},
    }
    held = certifying.sign(reg, token, firm, "electronic", "I do")
    approved = reg.swppp_decide(plan.id, "approved", today, formats=("pdf",))
    text = flat(approved.files["pdf"])
    assert (
        "The certifications held for this site, which are part of this SWPPP: "
        f"Certification No. {held.number}, Acme Earthworks LLC" in text
    )
    assert (
        "Town of Macedon" in text
        and "The appropriate board reviewed the plan against each item of § 301-71B" in text
    )
    assert "does not apply to this activity" in text and "(§ 301-71D(3))" in text
    assert "it contains each item § 301-71B requires" in text
    assert "228-" not in text
    assert plan_of(reg.engine, plan.id).jurisdiction == "macedon"


def test_what_the_register_makes_is_never_issued_from_a_typed_case(reg):
    """An approval typed by hand (every item present, whatever the review found), a
    statement of fees listing services the register holds no record of, a year's figures
    typed: each refused, saying how the register makes it; a correction of a return letter
    keeps the review's findings (a name corrected is issued, a finding changed is not)."""
    from docgen import api
    from docgen.documents.fee_statement import KIND as STATEMENT
    from docgen.documents.municipal_year import KIND as REPORT
    from docgen.documents.swppp_review import APPROVAL
    from docgen.register.rules.rows import document_row
    from docgen.register.storage import db

    today = today_in("homer")
    where = site(reg)
    plan = first_plan(reg, where, today - timedelta(days=3))
    given = all_present("homer", soils=("missing", "No soil description is given."))
    on = today - timedelta(days=2)
    record_review(reg.engine, plan.id, given, reviewer="Dana R. Whitcomb", on=on, by="c")
    returned = reg.swppp_decide(plan.id, "returned", today - timedelta(days=1), formats=("html",))
    with db.read_session(reg.engine) as session:
        case = dict(document_row(session, returned.number).case)
    case.pop("number")
    cleared = [{**i, "finding": "present", "words": None} for i in case["items"]]
    with pytest.raises(RegisterError, match=r"not issued from a typed case.*docgen swppp approve"):
        reg.issue(APPROVAL, {**case, "items": cleared}, formats=("html",))
    more = [
        {**i, "finding": "missing", "words": "Add it."} if i["id"] == "background" else i
        for i in case["items"]
    ]
    with pytest.raises(RegisterError, match="changes each item as the review found it"):
        reg.supersede(returned.number, {**case, "items": more}, formats=("html",))
    renamed = {**case, "applicant": "Tioughnioga Ridge Developers LLC"}
    corrected = reg.supersede(returned.number, renamed, formats=("html",))
    assert corrected.number.startswith("SWR-") and corrected.number != returned.number
    assert state(reg.engine, where).endswith(f"returned ({returned.number})")
    for kind, folder in ((STATEMENT.name, "fee-statement"), (REPORT.name, "municipal-year")):
        (sample,) = sorted((Path(__file__).parents[2] / "fixtures" / folder).glob("homer-*.yaml"))
        data, _ = api.load(sample)
        data.pop("number", None)
        with pytest.raises(RegisterError, match="not issued from a typed case"):
            reg.issue(kind, data, formats=("html",))


REVIEWERS = {
    "homer": "Dana R. Whitcomb, Code Enforcement Officer",
    "macedon": "Harold P. Vance, Chair, Town of Macedon Planning Board",
}


@pytest.mark.parametrize("jurisdiction", ["homer", "macedon"])
def test_the_command_line_reviews_returns_amends_and_approves(reg, tmp_path, jurisdiction):
    """The whole round on the command line, each municipality's list, each letter read
    back from its PDF: reviewed with an item not adequate, the approval refused in one
    line, returned, amended (the item changed), the amendment refused where it would
    reopen an item it does not change, reviewed again and approved."""
    from docgen.law.packs import load_pack

    today = today_in(jurisdiction)
    where = site(reg, jurisdiction)
    law = load_pack(jurisdiction).swppp
    esc_map = law.item("esc-map")

    def run(*args):
        return docgen("swppp", *args, cwd=tmp_path, env={"DOCGEN_DATABASE_URL": reg.url})

    added = run(
        "add",
        str(where),
        "--title",
        "Cayuga Street Townhomes SWPPP",
        "--revision",
        "1",
        "--preparer",
        "Lena Ortiz",
        "--qualification",
        "P.E.",
    )
    assert added.returncode == 0, added.stderr
    plan_id = added.stdout.split()[1].rstrip(":")
    items = []
    for item in law.items:
        items += ["--item", f"{item.id}=present"]
    items += ["--item", "esc-map=inadequate:Silt fence lengths are not shown."]
    on = today.isoformat()
    reviewer = ("--reviewer", REVIEWERS[jurisdiction], "--date", on)
    reviewed = run("review", plan_id, *items, *reviewer)
    assert reviewed.returncode == 0, reviewed.stderr
    assert (
        "1 item(s) open" in reviewed.stdout
        and f"esc-map ({esc_map.ref}): not adequate" in reviewed.stdout
    )
    refused = run("approve", plan_id, "--date", on)
    assert refused.returncode == 1 and "Traceback" not in refused.stderr
    assert f"{esc_map.label} ({esc_map.ref}): not adequate" in refused.stderr
    assert not list(tmp_path.glob("SWA-*"))
    returned = run("return", plan_id, "--date", on, "-f", "pdf")
    assert returned.returncode == 0, returned.stderr
    (pdf,) = tmp_path.glob("SWR-*.pdf")
    text = flat(pdf.read_bytes())
    assert "The reviewer found: Silt fence lengths are not shown." in text
    assert f"{esc_map.label}: not adequate" in text and f"({esc_map.ref})" in text
    assert ("228-" in text) == (jurisdiction == "homer")
    shown = run("show", str(where))
    assert "returned (SWR-" in shown.stdout

    amended = run("amend", plan_id, "--revision", "2", "--changes", "esc-map")
    assert amended.returncode == 0, amended.stderr
    second = amended.stdout.split()[1].rstrip(":")
    assert f"amending plan {plan_id} (esc-map)" in amended.stdout
    reopened = run(
        "review", second, "--item", "esc-map=present", "--item", "soils=missing", *reviewer
    )
    assert reopened.returncode == 1 and "not reopened" in reopened.stderr
    again = run("review", second, "--item", "esc-map=present", *reviewer)
    assert again.returncode == 0, again.stderr
    assert "0 item(s) open" in again.stdout
    approved = run("approve", second, "--date", on, "-f", "pdf")
    assert approved.returncode == 0, approved.stderr
    (pdf,) = tmp_path.glob("SWA-*.pdf")
    text = flat(pdf.read_bytes())
    assert "Approval of Stormwater Pollution Prevention Plan" in text
    assert "Cayuga Street Townhomes SWPPP, revision 2" in text and "(amending revision 1)" in text
    assert "present; unchanged since revision 1" in text
    assert ("228-" in text) == (jurisdiction == "homer")
    shown = run("show", str(where))
    assert "revision 2: approved (SWA-" in shown.stdout
