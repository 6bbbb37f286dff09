"""record-service: the event, the appeal deadline and the affidavit of service issued."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from docgen.law.pack import municipal_today
from docgen.law.packs import load_pack
from docgen.register import Register, RegisterError
from tests.helpers.cli import docgen
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice
from tests.helpers.served import POSTED, service_args, service_of

HTML = ("html",)


def words(blob: bytes) -> str:
    return " ".join(html_text(blob.decode()).split())


def test_record_service_issues_a_numbered_affidavit_about_the_notice(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    served = reg.record_service(
        issued.number,
        service_of("certified-mail", date(2026, 11, 4), article="9407 1118 9876 5432 1012 38"),
        formats=HTML,
    )
    proof = served.affidavit
    assert proof.number == "AOS-2026-0001" and proof.kind == "affidavit-of-service"
    assert proof.respondent.id == issued.respondent.id
    assert reg.document(proof.number).about == issued.number
    text = words(proof.files["html"])
    assert "Affidavit of Service" in text and "being duly sworn" in text
    assert "article number 9407 1118 9876 5432 1012 38" in text
    assert "Dana R. Whitcomb, Code Enforcement Officer" in text
    # Mailed 2026-11-04, receipt unknown: from 2026-11-09 (CPLR 2103(b)(2)), day 15 11-24;
    # the register keeps it, the affidavit swears to facts only (LAW.md § 10).
    assert served.service.appeal_deadline == served.service.notice_deadline == date(2026, 11, 24)
    assert "last day" not in text.lower() and "appeal" not in text.lower()
    assert "at 41 Route 281, Homer, NY 13077, in an official depository" in text
    assert "Sworn to before me on" in text and "Notary Public, State of New York" in text
    assert "Qualified in" in text and "Commission expires" in text
    assert "The notary prints" not in text
    # The affidavit is a document of the register like any other: verifiable.
    assert reg.verify(proof.files["html"]).number == "AOS-2026-0001"


def test_an_affirmation_under_cplr_2106_needs_no_notary(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    served = reg.record_service(
        issued.number,
        service_of("personal-delivery", date(2026, 11, 3), served_by="Luis Ortega"),
        oath="affirmation",
        formats=HTML,
    )
    text = words(served.affidavit.files["html"])
    assert "Affirmation of Service" in text and "Notary" not in text
    assert "under the penalties of perjury under the laws of New York" in text
    assert "(CPLR 2106)" in text and "2106(" not in text  # CPLR 2106 has no subdivisions
    assert "Luis Ortega" in text
    assert "I am of the age of eighteen years or over and not a party to this matter" in text
    assert text.count("______________________________") == 1  # one signature line


def test_posting_counts_with_the_copy_mailed(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    with pytest.raises(RegisterError, match=r"record the mailing to .* first"):
        reg.record_service(issued.number, service_of("posting", date(2026, 11, 3)), formats=HTML)
    reg.record_service(
        issued.number, service_of("first-class-mail", date(2026, 11, 5)), formats=HTML
    )
    posted = reg.record_service(
        issued.number, service_of("posting", date(2026, 11, 3)), formats=HTML
    )
    # The later of posting (11-03) and mailing + 5 (11-10): day 15 is 11-25, a Wednesday.
    assert posted.service.appeal_deadline == date(2026, 11, 25)
    text = words(posted.affidavit.files["html"])
    assert f"in a conspicuous place at the site it concerns: {POSTED['place']}." in text
    assert "Separately, on November 5, 2026, I mailed a true copy of it to" in text
    assert "at 41 Route 281, Homer, NY 13077" in text
    assert "CPLR 2103" not in text  # posting is not a CPLR 2103 service


def test_service_details_that_do_not_fit_the_method_are_refused(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    with pytest.raises(RegisterError, match="certified-mail article number"):
        reg.record_service(
            issued.number, service_of("first-class-mail", date(2026, 11, 3), article="1")
        )
    with pytest.raises(RegisterError, match="--received"):
        reg.record_service(
            issued.number,
            service_of("personal-delivery", date(2026, 11, 3), received=date(2026, 11, 4)),
        )
    assert reg.document(issued.number).services == ()


def test_mail_is_complete_on_the_later_of_receipt_and_mailing_plus_five(reg):
    # LAW.md § 2: mailed Monday 2026-10-05, receipt signed 2026-10-06: complete 10-10,
    # day 15 is Sunday 10-25, the last day Monday 10-26. (Service is recorded once it
    # happened: every date here is before today.)
    issued = reg.issue("notice-of-violation", notice("2026-10-05"), formats=HTML)
    served = reg.record_service(
        issued.number,
        service_of(
            "certified-mail",
            date(2026, 10, 5),
            received=date(2026, 10, 6),
            received_by="M. Keller",
            article="9407 1118 9876 5432 1012 38",
        ),
        formats=HTML,
    )
    assert served.service.appeal_deadline == date(2026, 10, 26)
    assert "signed by M. Keller" in words(served.affidavit.files["html"])


def test_one_deadline_per_notice_never_shortened(reg):
    issued = reg.issue("notice-of-violation", notice("2026-10-05"), formats=HTML)
    reg.record_service(issued.number, service_of("certified-mail", date(2026, 10, 5)), formats=HTML)
    # Then delivered in person on 10-07: day 15 is 10-22, earlier than 10-26: 10-26 stands.
    later = reg.record_service(issued.number, service_of("personal-delivery", date(2026, 10, 7)))
    assert later.service.appeal_deadline == date(2026, 10, 22)
    assert later.service.notice_deadline == date(2026, 10, 26)
    assert reg.document(issued.number).appeal_deadline == date(2026, 10, 26)
    shown = reg.history(issued.respondent.id).documents
    assert [d.appeal_deadline for d in shown if d.number == issued.number] == [date(2026, 10, 26)]
    running = reg.documents("appeal-running", today=date(2026, 10, 24))
    assert issued.number in [d.number for d in running]


def test_each_person_served_is_an_event_of_its_own(reg):
    case = notice("2026-11-03")
    developer = {
        "name": "Brandt Earthmoving Corp.",
        "role": "developer",
        "address": {"street": "9 Tradewinds Way", "city": "Naples", "state": "FL", "zip": "34102"},
    }
    case["copies_to"] = [developer]
    issued = reg.issue("notice-of-violation", case, formats=HTML)
    owner = reg.record_service(
        issued.number,
        service_of(
            "personal-delivery",
            date(2026, 11, 3),
            time="10:45",
            person="Ann Li",
            capacity="president",
            description="a woman of about 50, dark hair",
            served_by="Luis Ortega",
        ),
        by="Clerk Ames",
        formats=HTML,
    )
    text = words(owner.affidavit.files["html"])
    assert "On November 3, 2026 at 10:45" in text
    assert "delivering a true copy of it to Ann Li, president of Tioughnioga" in text
    assert "described as follows: a woman of about 50, dark hair" in text
    assert "Luis Ortega" in text and "Clerk Ames" not in text  # the server swears, not the clerk
    copy = reg.record_service(
        issued.number,
        service_of("certified-mail", date(2026, 11, 4), to="brandt earthmoving corp."),
        formats=HTML,
    )
    assert copy.service.served_on == "Brandt Earthmoving Corp."
    assert copy.service.appeal_deadline is None  # the appeal runs from the landowner's service
    assert copy.service.notice_deadline == owner.service.appeal_deadline
    assert "at 9 Tradewinds Way, Naples, FL 34102" in words(copy.affidavit.files["html"])
    with pytest.raises(RegisterError, match=r"--to .Nobody Inc\..: .* was not sent to that person"):
        reg.record_service(
            issued.number, service_of("certified-mail", date(2026, 11, 4), to="Nobody Inc.")
        )
    with pytest.raises(RegisterError, match="is already recorded"):
        reg.record_service(
            issued.number, service_of("certified-mail", date(2026, 11, 4), to=developer["name"])
        )
    # The same person served again another day: both events are kept.
    reg.record_service(
        issued.number,
        service_of("first-class-mail", date(2026, 11, 6), to=developer["name"]),
        formats=HTML,
    )
    events = reg.document(issued.number).services
    assert [(e.served_on, e.method) for e in events] == [
        ("Tioughnioga Ridge Development LLC", "personal-delivery"),
        ("Brandt Earthmoving Corp.", "certified-mail"),
        ("Brandt Earthmoving Corp.", "first-class-mail"),
    ]
    affidavits = reg.documents(kind="affidavit-of-service")
    assert len(affidavits) == 3  # one per event, the refused one made none


def test_bad_service_input_is_refused_naming_flag_and_reading(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=HTML)
    appeal = load_pack("homer").part("enforcement").appeal_days.ref
    with pytest.raises(RegisterError, match=r"--date 2026-11-02: before ") as early:
        reg.record_service(issued.number, service_of("personal-delivery", date(2026, 11, 2)))
    assert f"({appeal})" in str(early.value) and "LAW.md" not in str(early.value)
    with pytest.raises(RegisterError, match=r"--received 2026-11-03 is before the mailing.*2103"):
        reg.record_service(
            issued.number,
            service_of("certified-mail", date(2026, 11, 4), received=date(2026, 11, 3)),
        )
    with pytest.raises(RegisterError, match="--time '25:00'"):
        reg.record_service(
            issued.number, service_of("personal-delivery", date(2026, 11, 3), time="25:00")
        )
    with pytest.raises(RegisterError, match="--person, --capacity"):
        reg.record_service(
            issued.number, service_of("first-class-mail", date(2026, 11, 3), person="A")
        )
    # An event whose day could not be read (the desk's form) is refused with every other
    # problem of it at once, the day first; the event itself finds the rest.
    unread = service_of("certified-mail", None, time="9", article="1")
    assert [p.field for p in unread.problems()] == ["article", "", "time"]
    with pytest.raises(RegisterError) as refused:
        reg.record_service(issued.number, unread)
    said = str(refused.value).splitlines()
    assert said[0].startswith("--date missing: the day of delivery, mailing or posting")
    assert said[1].startswith("--article '1' ") and "USPS Publication 199" in said[1]
    assert said[3].startswith("--time '9': the time of delivery as HH:MM")
    assert reg.document(issued.number).services == ()


def test_service_and_dispositions_dated_after_today_are_refused(register_url, tmp_path):
    # Today is the municipality's (the pack's time zone), not the machine's: a service or a
    # judgment is recorded once it happened (the affidavit states facts, LAW.md § 10).
    pack = load_pack("homer")
    today = municipal_today(pack)
    tomorrow = (today + timedelta(days=1)).isoformat()
    with Register.open(register_url) as reg:
        number = reg.issue("notice-of-violation", notice(today.isoformat()), formats=HTML).number
    appeal = pack.part("enforcement").appeal_days.ref
    hand = service_args("personal-delivery")
    ahead = docgen("record-service", number, *hand, "--date", tomorrow)
    assert ahead.returncode == 1 and "Traceback" not in ahead.stderr
    assert f"--date {tomorrow}: after today ({today} in the Village of Homer)" in ahead.stderr
    assert f"({appeal})" in ahead.stderr and "LAW.md" not in ahead.stderr  # the law, only
    mailed = (*service_args("certified-mail"), "--date", today.isoformat())
    receipt = docgen("record-service", number, *mailed, "--received", tomorrow)
    assert f"--received {tomorrow}: after today ({today}" in receipt.stderr
    judged = docgen("record-disposition", number, "--disposition", "convicted", "--date", tomorrow)
    assert judged.returncode == 1 and f"--date {tomorrow}: " in judged.stderr
    assert f"({pack.part('penalties').ref})" in judged.stderr and "LAW.md" not in judged.stderr
    with Register.open(register_url) as reg:
        assert reg.document(number).services == ()  # nothing recorded
        assert reg.count() == 1
    done = docgen(
        "record-service",
        number,
        *hand,
        "--date",
        today.isoformat(),
        "-f",
        "html",
        "-o",
        f"{tmp_path}/",
    )
    assert done.returncode == 0, done.stderr  # today itself is not ahead
