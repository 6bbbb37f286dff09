"""`docgen batch --queue --issue` of inspection reports: the photos beside each case file
travel in its job (a worker on another machine reads nothing beside the case), bounded
by DOCGEN_QUEUE_PHOTOS_MB as the desk's queued photos are (docgen.queue.client
.photos_sent: one code path); a case past the limit is refused here, naming the case
file, the field, the limit and the setting, nothing is queued for it, and the batch's
other cases are issued (§ 228-79A(1), LAW.md § 11: the photos are the report's exhibits).
"""

from __future__ import annotations

import json
import random

from PIL import Image

from docgen.register import Register
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import images_of, inspection
from tests.jobqueue.conftest import sql


def test_a_batch_issue_carries_the_photos_beside_its_case(queue_url, machines, tmp_path):
    for folder in ("good", "plain", "big"):
        (tmp_path / folder).mkdir()
    good = inspection(tmp_path / "good", photos=2)
    plain = inspection(tmp_path / "plain", photos=0, weather="Clear, 41 °F")
    big = inspection(tmp_path / "big", photos=2, present=["Lee Tran, foreman"])
    noise = Image.frombytes("RGB", (1200, 900), random.Random(32).randbytes(1200 * 900 * 3))
    with Image.open(tmp_path / "big" / "photo-1.jpg") as taken:  # a phone's photo, noisier
        noise.save(tmp_path / "big" / "photo-1.jpg", "JPEG", exif=taken.getexif())
    assert (tmp_path / "big" / "photo-1.jpg").stat().st_size > 0.5 * 2**20

    # The same case issued directly (its own SQLite register): the images it shows.
    direct = docgen(
        "issue", "inspection-report", good, "-o", f"{tmp_path / 'direct'}/", "-f", "pdf",
        env={"DOCGEN_DATABASE_URL": f"sqlite:///{tmp_path / 'direct.sqlite'}"},
    )  # fmt: skip
    assert direct.returncode == 0, direct.stderr
    (pdf,) = (tmp_path / "direct").glob("*.pdf")
    shown = images_of(pdf.read_bytes())
    assert len(set(shown)) == 2

    # The batch's worker on "another machine": the case's folder is not where it runs.
    machines(queue_url, "officers")
    out = tmp_path / "out"
    run = docgen(
        "batch", "inspection-report", good, big, plain, "-o", out, "-f", "pdf",
        "--queue", "--issue", "--by", "Dana R. Whitcomb",
        env={"DOCGEN_QUEUE_PHOTOS_MB": "0.5"},
    )  # fmt: skip
    assert run.returncode == 1, run.stderr  # one case refused
    manifest = json.loads((out / "manifest.json").read_text())
    (refused,) = manifest["failed"]
    assert refused["source"] == str(big)
    said = " ".join(refused["error"].split())
    assert said.startswith(f"{big}: 1 problem: photos: the photos of this case are "), said
    assert (
        "an issue made by the queue's worker carries at most 0.5 MB of photos in its job "
        "(DOCGEN_QUEUE_PHOTOS_MB)" in said
    ), said
    assert said.endswith("(§ 228-79A(1))"), said  # the officer's inspection, cited

    issued = {entry["source"]: entry for entry in manifest["files"] if entry["file"]}
    assert sorted(issued) == sorted([str(good), str(plain)])
    assert all(e["number"].startswith("INS-") for e in issued.values())
    queued = images_of((out / issued[str(good)]["file"]).read_bytes())
    assert queued == shown  # the same two images, byte for byte
    assert images_of((out / issued[str(plain)]["file"]).read_bytes()) == []

    # Nothing queued for the refused case; the issued jobs keep no photos.
    jobs = sql(queue_url, "SELECT args->>'source', args ? 'photos' FROM procrastinate_jobs")
    assert sorted(jobs) == sorted([(str(good), False), (str(plain), False)])
    with Register.open(queue_url) as reg:
        assert reg.count() == 2
        held = reg.files(issued[str(good)]["number"])
    assert images_of(held["pdf"]) == shown  # the register's own copy too
