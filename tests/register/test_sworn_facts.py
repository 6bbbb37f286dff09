"""Sworn and signed records state only what was recorded (LAW.md § 10, issue 47 item 2):
no default fills a sworn fact. A personal delivery needs its place, time and description
(and, on a firm, who took it and in what capacity); nobody is assumed to have served;
a posting's affidavit says "I mailed" only when its affiant mailed the copy; "CPLR 2106",
with no subdivision; the deponent's signature and the jurat on one page; one certificate
of service per person served. Each read back from the issued PDF or DOCX."""

from __future__ import annotations

import copy
import io
from datetime import date

import docx
import pytest
import yaml

from docgen import api
from docgen.register import RegisterError
from docgen.register.matter.service_event import Service
from tests.helpers.cli import docgen
from tests.helpers.readback import pdf_pages, pdf_text
from tests.helpers.register_cases import notice
from tests.helpers.served import HAND, service_args, service_of

PDF = ("pdf",)
DAY = date(2026, 11, 3)


def words(blob: bytes) -> str:
    return " ".join(pdf_text(blob).split())


def firm_notice() -> dict:
    data = notice("2026-11-03")
    data["recipient"]["entity"] = "firm"
    return data


def test_a_personal_delivery_without_its_facts_is_refused_naming_each(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=("html",))
    with pytest.raises(RegisterError) as refused:
        reg.record_service(issued.number, Service("personal-delivery", DAY, by_officer=True))
    said = str(refused.value)
    assert "an affidavit states only what was recorded: say where the copy was delivered" in said
    assert "say at what time it was delivered" in said
    assert "how the person who took it looked (sex, approximate age, height, weight, hair)" in said
    assert "LAW.md" not in said and "service." not in said
    assert reg.document(issued.number).services == ()  # nothing half written


def test_a_firm_takes_a_copy_through_a_person_named_with_their_capacity(reg):
    issued = reg.issue("notice-of-violation", firm_notice(), formats=("html",))
    facts = {k: v for k, v in HAND.items() if k not in ("person", "capacity")}
    with pytest.raises(RegisterError) as refused:
        reg.record_service(
            issued.number, Service("personal-delivery", DAY, by_officer=True, **facts)
        )
    said = str(refused.value)
    firm = "Tioughnioga Ridge Development LLC is a firm"
    assert f"--person missing: {firm}" in said and "say who took the copy for" in said
    assert f"--capacity missing: {firm}" in said
    assert reg.document(issued.number).services == ()


def test_the_affidavit_of_a_delivery_states_the_recorded_place_time_and_person(reg):
    issued = reg.issue("notice-of-violation", firm_notice(), formats=("html",))
    proof = reg.record_service(
        issued.number, service_of("personal-delivery", DAY), formats=PDF
    ).affidavit
    text = words(proof.files["pdf"])
    assert f"On November 3, 2026 at 10:15, at {HAND['place']}, I served" in text
    assert "to Morgan T. Hale, managing member of Tioughnioga Ridge Development LLC." in text
    assert f"described as follows: {HAND['description']}." in text
    event = reg.document(issued.number).services[0]
    assert (event.place, event.time, event.individual) == (HAND["place"], "10:15", HAND["person"])


def test_nobody_is_assumed_to_have_served(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=("html",))
    with pytest.raises(RegisterError, match="say who served it"):
        reg.record_service(issued.number, Service("certified-mail", DAY))
    proof = reg.record_service(
        issued.number, Service("certified-mail", DAY, served_by="Pat Reyes"), formats=PDF
    ).affidavit
    text = words(proof.files["pdf"])
    assert "Pat Reyes, being duly sworn" in text
    assert "I am of the age of eighteen years or over and not a party to this matter." in text
    assert "Whitcomb" not in text.split("Sworn to")[0].split("deposes and says")[1]


def test_a_posting_swears_to_the_mailing_only_where_its_affiant_mailed(reg):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=("html",))
    mailing = reg.record_service(
        issued.number, Service("first-class-mail", DAY, served_by="Pat Reyes"), formats=PDF
    ).affidavit
    posted = reg.record_service(issued.number, service_of("posting", DAY), formats=PDF)
    text = words(posted.affidavit.files["pdf"])
    assert "Separately, on November 3, 2026, Pat Reyes mailed a true copy of it to" in text
    assert "I did not mail it and do not swear to the mailing" in text
    assert f"Pat Reyes makes their own affidavit of mailing, No. {mailing.number}," in text
    assert "I mailed" not in text and "was mailed" not in text

    other = reg.issue("notice-of-violation", notice("2026-11-03"), formats=("html",))
    reg.record_service(other.number, service_of("first-class-mail", DAY), formats=("html",))
    mine = reg.record_service(other.number, service_of("posting", DAY), formats=PDF)
    text = words(mine.affidavit.files["pdf"])
    assert "Separately, on November 3, 2026, I mailed a true copy of it to" in text
    assert "do not swear" not in text


def test_a_posting_states_where_it_was_posted_as_recorded(reg):
    # The place of a posting is sworn ("I posted a true copy ... in a conspicuous place
    # at ..."): never the site's address filled in for it.
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=("html",))
    reg.record_service(issued.number, service_of("first-class-mail", DAY), formats=("html",))
    with pytest.raises(RegisterError) as refused:
        reg.record_service(issued.number, Service("posting", DAY, by_officer=True))
    said = str(refused.value)
    assert "an affidavit states only what was recorded: say where the copy was posted" in said
    assert len(reg.document(issued.number).services) == 1  # the mailing alone
    gate = "the construction entrance gate, beside the site sign"
    posted = reg.record_service(issued.number, service_of("posting", DAY, place=gate), formats=PDF)
    text = words(posted.affidavit.files["pdf"])
    assert f"in a conspicuous place at the site it concerns: {gate}." in text
    assert posted.service.place == gate


def test_the_command_line_refuses_a_delivery_without_its_place(reg, tmp_path):
    issued = reg.issue("notice-of-violation", notice("2026-11-03"), formats=("html",))
    args = service_args("personal-delivery")
    at = args.index("--place")
    del args[at : at + 2]
    ran = docgen(
        "record-service", issued.number, *args, "--date", "2026-11-03", "-o", f"{tmp_path}/"
    )
    assert ran.returncode == 1 and "Traceback" not in ran.stderr
    assert (
        "--place missing: an affidavit states only what was recorded: say where the copy "
        "was delivered" in ran.stderr
    )
    assert reg.document(issued.number).services == ()


def _affidavit(padding: int) -> dict:
    with open("fixtures/affidavit-of-service/homer-affirmed-personal.yaml") as handle:
        case = yaml.safe_load(handle)
    case = copy.deepcopy(case)
    case["oath"] = "notary"
    case["service"]["place"] += "".join(f", past the gate number {i}" for i in range(padding))
    return case


def test_the_jurat_stays_on_the_page_of_the_deponents_signature():
    # A place long enough to bring the signature to the foot of page 1, at several lengths:
    # the signature and the jurat under it move to page 2 together, never apart.
    signer = "Luis Ortega, Deputy Code Enforcement Officer"
    for padding in range(28, 42, 2):
        _, blobs = api.render_bytes("affidavit-of-service", _affidavit(padding), ("pdf", "docx"))
        pages = pdf_pages(blobs["pdf"])
        signed = [i for i, page in enumerate(pages) if f"\n{signer}\n" in f"\n{page}"]
        sworn = [i for i, page in enumerate(pages) if "Sworn to before me" in page]
        assert len(sworn) == 1 and sworn[0] in signed, (padding, signed, sworn)
        paragraphs = docx.Document(io.BytesIO(blobs["docx"])).paragraphs
        at = next(i for i, p in enumerate(paragraphs) if p.text == signer)
        kept = paragraphs[at - 1 : at + 2]  # the line signed on, the name, the jurat's head
        assert all(p.paragraph_format.keep_with_next for p in kept), padding


def test_a_packet_has_one_certificate_of_service_per_person_served():
    _, blobs = api.render_bytes("packet", "fixtures/packet/homer-silt-fence-packet.yaml", PDF)
    text = words(blobs["pdf"])
    assert "and on Tioughnioga Ridge Development LLC by" not in text  # one delivery, one person
    assert "and sent copies to" not in text
    assert (
        "I served this Stop-Work Order No. NOV-2026-0021-SWO on Cayuga Street Holdings LLC by "
        "certified mail" in text
    )
    # the developer's own certificates, left for whoever serves them (the notice's, the order's)
    assert (
        "Notice of Violation No. NOV-2026-0021 on Tioughnioga Ridge Development LLC (developer)"
        in text
    )
    assert (
        "I certify that I served this Stop-Work Order No. NOV-2026-0021-SWO on Tioughnioga Ridge "
        "Development LLC (developer) on the date, at the time" in text
    )
