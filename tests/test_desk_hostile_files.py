"""Hostile files sent to the desk. Counsel's final with Issue (LAW.md § 8): a hostile or
unfinished final comes back as the draft's page with the reason, never a 500; nothing is
recorded, and the rendering process that read it goes on serving. An exhibit typed as a
path is refused unread: the desk reads only the files uploaded to the draft."""

from __future__ import annotations

import html
import re

import pytest
from desk_server import database, serving, start_draft, typed_sample

from tests.helpers import hostile

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.fixture(scope="module")
def desk(tmp_path_factory):
    # A desk of its own (not shared_desk): this module counts the register's documents (none
    # recorded) and says a sample issued unchanged is not served yet.
    yield from serving(tmp_path_factory)


def test_a_hostile_final_is_refused_on_the_draft_s_page_and_nothing_is_recorded(desk):
    attorney = desk.signed_in("ada")
    where, token = start_draft(attorney, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    assert attorney.post(where, data={**typed, "csrf_token": token}).status_code == 303
    for what in (
        "tracked changes",
        "a comment",
        "a linked picture",
        "an INCLUDEPICTURE field",
        "a renamed VBA project",
        "a DOCTYPE",
        "no content types",
        "an odd page size",
        "a zip bomb by size",
        "a zip bomb by ratio",
    ):
        make, expected = hostile.HOSTILE_FINALS[what]
        reply = attorney.post(
            f"{where}/issue",
            data={"csrf_token": token},
            files={"final": ("final.docx", make(), DOCX)},
        )
        assert reply.status_code < 500, (what, reply.text[-2000:])
        page = " ".join(html.unescape(reply.text).split())
        assert expected in page, (what, page[-3000:])
    count = database(desk).execute("select count(*) from documents").fetchone()[0]
    assert count == 0
    # the renderers that read them still serve: the draft's Word copy comes back
    assert attorney.get(f"{where}/word").content[:2] == b"PK"


def test_an_exhibit_typed_as_a_server_path_is_refused_unread(desk):
    """The desk reads only the files uploaded to the draft: a file name typed as the exhibit
    is refused, whether or not the server holds such a file, and nothing of it is read."""
    attorney = desk.signed_in("ada")
    where, token = start_draft(attorney, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    pages = []
    for name in ("/etc/hostname", "/etc/no-such-file.png"):
        typed["easement.exhibit"] = name
        attorney.post(where, data={**typed, "csrf_token": token})
        page = " ".join(html.unescape(attorney.get(where).text).split())
        assert "is not one of the files sent with the case" in page, page[-3000:]
        assert "the desk reads only files uploaded to the draft, never a path typed" in page
        pages.append(page.replace(name, "NAME"))
    assert "does not exist" not in pages[0] and "does not exist" not in pages[1]


@pytest.mark.usefixtures("soffice")  # LibreOffice makes the PDF/A
def test_the_issued_page_puts_the_file_to_record_first_each_other_saying_what_it_is_for(desk):
    attorney = desk.signed_in("ada")
    where, token = start_draft(attorney, "maintenance-easement")
    _, typed = typed_sample("maintenance-easement", "homer-llc-two-signers")
    assert attorney.post(where, data={**typed, "csrf_token": token}).status_code == 303

    def edit(document):
        p = hostile.paragraph(document, hostile.OBSTRUCTION)
        p.runs[-1].text = p.runs[-1].text.replace("fence", "shed, fence")

    final = hostile.edited(edit)
    issued = attorney.post(
        f"{where}/issue", data={"csrf_token": token}, files={"final": ("f.docx", final, DOCX)}
    )
    assert issued.status_code == 303, issued.text[-2000:]
    document = issued.headers["location"]
    number = document.rsplit("/", 1)[1]
    page = html.unescape(attorney.get(document).text)
    files = page[page.index("Files, exactly as issued") :]
    assert files.index("To record with the County Clerk") < files.index("The other files")
    first = re.search(r'href="([^"]+)" download>', files).group(1)
    assert first == f"{document}/file.final-pdfa"
    for purpose in ("Counsel's final in Word", "Counsel's changes to the generated draft"):
        assert purpose in files
    # Each file named once: no label said twice ("Counsel's final in Word: Counsel's final..")
    said = " ".join(re.sub(r"<[^>]+>", " ", files[: files.index("</ul>")]).split())
    for name in ("Counsel's final in Word", "To record with the County Clerk", "Counsel's changes"):
        assert said.count(name) == 1, (name, said)
    assert "The generated draft counsel edited, as issued: for the file, not for recording" in files
    served = attorney.get(first)
    assert served.content[:5] == b"%PDF-"
    assert f'{number}-maintenance-easement-to-record.pdf"' in served.headers["content-disposition"]


def test_not_served_yet_is_said_only_of_a_kind_that_is_served(desk):
    pages = {}
    for user, kind, sample in (
        ("ann", "notice-of-violation", "homer-first-offense"),
        ("ada", "maintenance-easement", "homer-individual"),
    ):
        client = desk.signed_in(user)
        where, token = start_draft(client, kind)
        _, typed = typed_sample(kind, sample)
        assert client.post(where, data={**typed, "csrf_token": token}).status_code == 303
        issued = client.post(f"{where}/issue", data={"csrf_token": token})
        assert issued.status_code == 303, issued.text[-2000:]
        pages[kind] = client.get(issued.headers["location"]).text
    assert "Not served yet." in pages["notice-of-violation"]
    assert "Not served yet." not in pages["maintenance-easement"]
    assert "<h2>Service</h2>" not in pages["maintenance-easement"]
