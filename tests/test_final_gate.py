"""The gate counsel's final passes before anything parses it (LAW.md § 8; issue: a final that
is not final, or hostile, is refused with the reason): tracked changes and comments counted
and quoted, links outside the file, fields that fetch, macro projects whatever their name,
a DOCTYPE, a missing [Content_Types].xml, odd measures, zip bombs by size, by ratio and by a
lying directory. Each is refused by the check and by `docgen compare`, with exit 1 and no
traceback; the copy LibreOffice is given has no relationship outside the file."""

from __future__ import annotations

import io
import zipfile

import pytest

from docgen.instruments.docx_checks import inspect, without_outside_references
from docgen.instruments.final import FinalRefused, check_final
from tests.helpers import hostile
from tests.helpers.cli import docgen


@pytest.fixture(scope="module")
def built():
    """Each hostile final, built once for the module."""
    return {what: make() for what, (make, _) in hostile.HOSTILE_FINALS.items()}


def test_the_draft_and_counsel_s_accepted_edits_pass():
    draft = hostile.draft()
    check_final(draft)

    def edit(document):
        p = hostile.paragraph(document, hostile.OBSTRUCTION)
        p.runs[-1].text = p.runs[-1].text.replace("fence", "shed, fence")

    check_final(hostile.edited(edit))


@pytest.mark.parametrize("what", list(hostile.HOSTILE_FINALS))
def test_a_hostile_or_unfinished_final_is_refused_with_the_reason(what, built):
    expected = hostile.HOSTILE_FINALS[what][1]
    with pytest.raises(FinalRefused) as refused:
        check_final(built[what])
    assert expected in str(refused.value)
    assert str(refused.value).startswith("the final")


def test_tracked_changes_are_counted_and_the_first_places_quoted():
    with pytest.raises(FinalRefused) as refused:
        check_final(hostile.tracked_changes(insertions=3, deletions=2))
    assert str(refused.value) == (
        "the final is not final yet: 3 insertions and 2 deletions remain, first in Clause 4: "
        "'three (3)', 'years', 'written'; accept or reject each change (Review, Accept or "
        "Reject) in Word, then upload it again"
    )
    with pytest.raises(FinalRefused, match="1 insertion, 1 deletion and 2 moves remain"):
        check_final(hostile.tracked_changes(insertions=1, deletions=1, moves=2))


def test_a_comment_is_quoted_where_it_is_and_a_comment_and_a_change_both_named():
    with pytest.raises(FinalRefused) as refused:
        check_final(hostile.commented())
    message = str(refused.value)
    assert "1 comment remains, first in Clause 4: 'No obstruction." in message
    assert message.endswith("delete the comments in Word, then upload it again")
    both = hostile.edited(
        lambda d: d.add_comment(hostile.paragraph(d, "Recording.").runs[0], text="ok?"),
        start=hostile.tracked_changes(1, 0),
    )
    with pytest.raises(FinalRefused) as refused:
        check_final(both)
    assert "1 insertion and 1 comment remain" in str(refused.value)
    assert "accept or reject each change (Review, Accept or Reject) and delete the comments" in (
        str(refused.value)
    )


def test_a_hyperlink_is_no_fetch_and_passes_but_the_copy_for_libreoffice_has_none():
    kind = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink"
    linked = hostile.external_relationship(
        "word/_rels/document.xml.rels", kind, "https://www.homerny.org/"
    )
    check_final(linked)
    copy = without_outside_references(linked)
    rels = hostile.part(copy, "word/_rels/document.xml.rels").decode()
    assert "External" not in rels and "homerny" not in rels
    assert hostile.part(copy, "word/document.xml") == hostile.part(linked, "word/document.xml")
    inspect(copy)


def test_the_copy_for_libreoffice_drops_links_a_check_would_refuse(built):
    for what in ("a linked picture", "a file:// picture", "a remote template", "an OLE link"):
        copy = without_outside_references(built[what])
        for name in zipfile.ZipFile(io.BytesIO(copy)).namelist():
            if name.endswith(".rels"):
                text = hostile.part(copy, name).decode()
                assert "TargetMode" not in text and "127.0.0.1" not in text, (what, name)
        check_final(copy)  # nothing else in it was refused


def test_compare_refuses_each_hostile_final_with_exit_1_and_no_traceback(built, tmp_path):
    (tmp_path / "draft.docx").write_bytes(hostile.draft())
    for what in ("tracked changes", "a DOCTYPE", "no content types", "a zip bomb by size"):
        (tmp_path / "final.docx").write_bytes(built[what])
        run = docgen(
            "compare", tmp_path / "draft.docx", tmp_path / "final.docx", "-o", tmp_path / "r.docx"
        )
        assert run.returncode == 1, (what, run.stdout, run.stderr)
        assert "Traceback" not in run.stderr and not (tmp_path / "r.docx").exists()
        assert hostile.HOSTILE_FINALS[what][1] in " ".join(run.stderr.split()), run.stderr
        assert str(tmp_path / "final.docx") in run.stderr  # the file is named
