"""The photos a queued desk draft's job carries (docgen.queue.tasks.sent_files): written by
the worker into a private folder under names it makes, found by the case's names as keys
(docgen.documents.exhibits.SentFiles), and checked by content as the desk's are."""

from __future__ import annotations

import base64
import stat

import pytest

from docgen.documents.exhibits import ExhibitError
from docgen.documents.photos import PhotoError, prepare_photo
from docgen.errors import DocgenError
from docgen.queue.tasks import sent_files
from tests.helpers.inspection_cases import phone_photo


def test_a_name_in_the_job_is_a_key_never_a_path(tmp_path):
    jpeg = phone_photo(tmp_path / "p.jpg", gps=False).read_bytes()
    sent = {
        "../../outside.jpg": base64.b64encode(jpeg).decode(),
        "/etc/report.png": base64.b64encode(b"%PDF-1.7 not a photo").decode(),
    }
    with sent_files({"photos": sent}) as files:
        folder = files.folder
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # the worker's own
        assert sorted(p.name for p in folder.iterdir()) == ["1.jpg", "2.pdf"]  # a map may be
        assert not (tmp_path.parent / "outside.jpg").exists()
        made = prepare_photo("../../outside.jpg", files, 1, False)
        assert made.attachment.mime == "image/jpeg"
        with pytest.raises(PhotoError, match=r"/etc/report\.png is not a JPEG or PNG image"):
            prepare_photo("/etc/report.png", files, 2, False)
        with pytest.raises(ExhibitError, match=r"'p\.jpg' is not one of the files sent"):
            prepare_photo("p.jpg", files, 3, False)
    assert not folder.exists()  # removed once the job is done


def test_photos_not_sent_as_base64_are_the_jobs_error():
    with (
        pytest.raises(DocgenError, match=r"photos: 'a\.jpg' was not sent as base64"),
        sent_files({"photos": {"a.jpg": "not base64!"}}),
    ):
        pass
    with sent_files({}) as files:
        assert files is None
