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
from pathlib import Path

from PIL import Image

from docgen.register import Register
from tests.helpers.cli import docgen
from tests.helpers.inspection_cases import images_of, inspection
from tests.jobqueue.conftest import sql


def made_here(folder: Path, *args: object, env: dict[str, str] | None = None):
    """The one PDF ``docgen ARGS`` made in ``folder`` without the queue, and the two
    photos it shows."""
    run = docgen(*args, env=env)
    assert run.returncode == 0, run.stderr
    (pdf,) = folder.glob("*.pdf")
    shown = images_of(pdf.read_bytes())
    assert len(set(shown)) == 2
    return pdf, shown


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
    _, shown = made_here(
        tmp_path / "direct",
        "issue", "inspection-report", good, "-o", f"{tmp_path / 'direct'}/", "-f", "pdf",
        env={"DOCGEN_DATABASE_URL": f"sqlite:///{tmp_path / 'direct.sqlite'}"},
    )  # fmt: skip

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
    assert said.startswith(f"{big}: 1 problem: Photos: the files sent with this case are "), said
    assert (
        "a job for the queue's workers carries at most 0.5 MB of files "
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


def test_a_queued_render_carries_them_too(queue_url, machines, tmp_path):
    """Rendered, not issued: the queue's report shows the images the local batch's does,
    and a case past the limit is refused here as an issue is."""
    (tmp_path / "good").mkdir()
    good = inspection(tmp_path / "good", photos=2, number="INS-2026-0099")  # not issued
    pdf, shown = made_here(
        tmp_path / "local",
        "batch",
        "inspection-report",
        good,
        "-o",
        tmp_path / "local",
        "-f",
        "pdf",
    )
    machines(queue_url, "renderers")
    out = tmp_path / "out"
    run = docgen("batch", "inspection-report", good, "-o", out, "-f", "pdf", "--queue")
    assert run.returncode == 0, run.stderr
    assert images_of((out / pdf.name).read_bytes()) == shown
    assert sql(queue_url, "SELECT args ? 'photos' FROM procrastinate_jobs") == [(False,)]
    tight = docgen(
        "batch", "inspection-report", good, "-o", tmp_path / "tight", "-f", "pdf", "--queue",
        env={"DOCGEN_QUEUE_PHOTOS_MB": "0.015625"},  # 16 KB
    )  # fmt: skip
    assert tight.returncode == 1
    said = " ".join(tight.stderr.split())
    assert f"{good}: 1 problem: Photos: the files sent with this case are" in said, said
    assert "at most 0.015625 MB of files (DOCGEN_QUEUE_PHOTOS_MB)" in said, said
    assert sql(queue_url, "SELECT count(*) FROM procrastinate_jobs") == [(1,)]  # none added
