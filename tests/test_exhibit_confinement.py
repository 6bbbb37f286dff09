"""An exhibit is one of the case's files, never the server's (issue: exhibits are the case's
files): a name is resolved in the case file's folder for every command, and an absolute path,
`~`, `..` or a link out is refused with one message that does not say whether the file
exists. A PDF exhibit is bounded (pages, objects, inflated streams, page and image size)
before PDFium draws it: the tiny PDF bomb is refused unread."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
import yaml

from tests.helpers import hostile
from tests.helpers.cli import docgen

SAMPLE = hostile.ROOT / "fixtures" / "maintenance-easement" / "macedon-llc-two-signers.yaml"
MAP = hostile.ROOT / "tests" / "data" / "exhibits" / "canal-landing-easement-area.png"

# Each name leaves the case's folder; the pair's second names no file at all.
ESCAPES = {
    "absolute": ("{outside}/secret.png", "{outside}/nowhere.png"),
    "home": ("~/secret.png", "~/nowhere.png"),
    "parent": ("../outside/secret.png", "../outside/nowhere.png"),
    "parent inside a name": ("maps/../../outside/secret.png", "maps/../../outside/nowhere.png"),
    "a link to a file out": ("linked.png", "dangling.png"),
    "a link to a folder out": ("door/secret.png", "door/nowhere.png"),
}


@pytest.fixture
def folders(tmp_path) -> tuple[Path, Path]:
    """case/ (the case file, its own map and links out) beside outside/ (a file the server
    holds that the case must not reach)."""
    case, outside = tmp_path / "case", tmp_path / "outside"
    (case / "maps").mkdir(parents=True)
    outside.mkdir()
    shutil.copy(MAP, case / "maps" / "map.png")
    shutil.copy(MAP, outside / "secret.png")
    (case / "linked.png").symlink_to(outside / "secret.png")
    (case / "dangling.png").symlink_to(outside / "nowhere.png")
    (case / "door").symlink_to(outside, target_is_directory=True)
    return case, outside


def case_naming(folder: Path, exhibit: str) -> Path:
    data = yaml.safe_load(SAMPLE.read_text(encoding="utf-8"))
    del data["easement"]["metes_and_bounds"]
    data["easement"]["exhibit"] = exhibit
    path = folder / "case.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


def refusal(run, name: str) -> str:
    assert run.returncode == 1, (run.stdout, run.stderr)
    assert "Traceback" not in run.stderr
    message = " ".join(run.stderr.split())
    assert f"Easement, exhibit: {name!r} is not a file in the case file's folder" in message
    return message.replace(repr(name), "NAME")


@pytest.mark.parametrize("escape", list(ESCAPES))
def test_a_name_leaving_the_case_s_folder_is_refused_alike_whether_or_not_it_exists(
    escape, folders, tmp_path
):
    case, outside = folders
    existing, missing = (n.format(outside=outside) for n in ESCAPES[escape])
    said = []
    for name in (existing, missing):
        path = case_naming(case, name)
        said.append(refusal(docgen("check", "maintenance-easement", path), name))
        out = tmp_path / "out"
        run = docgen("render", "maintenance-easement", path, "-f", "pdf", "-o", f"{out}/")
        refusal(run, name)
        assert not out.exists() or not any(out.iterdir())
    assert said[0] == said[1]  # the same words: nothing said of what exists outside


def test_the_case_s_own_map_in_a_folder_below_it_is_attached_from_any_working_folder(
    folders, tmp_path, monkeypatch
):
    case, _ = folders
    path = case_naming(case, "maps/map.png")
    monkeypatch.chdir(tmp_path)  # not the case's folder
    run = docgen("render", "maintenance-easement", path, "-f", "pdf", "-o", f"{tmp_path}/out/")
    assert run.returncode == 0, run.stderr
    # check reads it where render does (issue 28, item 7: every command, the case's folder)
    run = docgen("check", "maintenance-easement", path)
    assert run.returncode == 0, run.stderr
    shutil.copy(MAP, tmp_path / "here.png")  # in the working folder only, not the case's
    for command in (("check",), ("render", "-f", "docx", "-o", f"{tmp_path}/out2/")):
        run = docgen(
            command[0], "maintenance-easement", case_naming(case, "here.png"), *command[1:]
        )
        assert run.returncode == 1 and "'here.png' does not exist in the case file's" in run.stderr


def test_issue_reads_the_exhibit_in_the_case_s_folder_and_refuses_one_out(
    folders, tmp_path, monkeypatch
):
    case, outside = folders
    monkeypatch.setenv("DOCGEN_DATABASE_URL", f"sqlite:///{tmp_path / 'docgen.sqlite'}")
    monkeypatch.chdir(outside)  # where a name read from the working folder would be found
    run = docgen("issue", "maintenance-easement", case_naming(case, "secret.png"), "-f", "docx")
    assert run.returncode == 1 and "'secret.png' does not exist in the case file's" in run.stderr
    run = docgen("issue", "maintenance-easement", case_naming(case, "linked.png"), "-f", "docx")
    refusal(run, "linked.png")
    run = docgen("issue", "maintenance-easement", case_naming(case, "maps/map.png"), "-f", "docx")
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("bomb", list(hostile.PDF_BOMBS))
def test_a_pdf_exhibit_past_its_bounds_is_refused_before_it_is_drawn(bomb, tmp_path):
    make, expected = hostile.PDF_BOMBS[bomb]
    (tmp_path / "map.pdf").write_bytes(make())
    run = docgen("check", "maintenance-easement", case_naming(tmp_path, "map.pdf"))
    assert run.returncode == 1 and "Traceback" not in run.stderr, run.stderr
    message = " ".join(run.stderr.split())
    assert "Easement, exhibit: 'map.pdf' is a PDF" in message and expected in message, message


def test_a_large_map_sheet_is_drawn_smaller_never_larger(tmp_path):
    """A 36 x 48 in sheet (ARCH E) is within bounds: drawn, at fewer pixels than 200 dpi."""
    from PIL import Image

    from docgen.documents.exhibits import PDF_MAX_PIXELS, load_exhibit

    sheet = hostile.pdf(
        [
            b"<</Type/Catalog/Pages 2 0 R>>",
            b"<</Type/Pages/Kids[3 0 R]/Count 1>>",
            b"<</Type/Page/Parent 2 0 R/MediaBox[0 0 2592 3456]/Contents 4 0 R>>",
            hostile.stream(b"0 0 1 rg 100 100 2000 3000 re f"),
        ]
    )
    (tmp_path / "sheet.pdf").write_bytes(sheet)
    attached = load_exhibit("sheet.pdf", tmp_path)
    width, height = Image.open(io.BytesIO(attached.data)).size
    assert width * height <= PDF_MAX_PIXELS and width > 1500


def test_the_verification_is_never_on_the_exhibit_page_nor_alone_on_a_page(
    folders, tmp_path, monkeypatch
):
    from docgen.register import Register
    from tests.helpers.readback import pdf_pages

    case, _ = folders
    url = f"sqlite:///{tmp_path / 'docgen.sqlite'}"
    with Register.open(url) as reg:
        issued = reg.issue(
            "maintenance-easement", case_naming(case, "maps/map.png"), formats=("pdf",)
        )
    pages = [" ".join(page.split()) for page in pdf_pages(issued.files["pdf"])]
    (exhibit,) = [p for p in pages if "Exhibit 1: Map of the Easement Area" in p]
    assert "Access code" not in exhibit and pages[-1] == exhibit
    (checked,) = [p for p in pages if "Access code" in p]
    before = checked[: checked.index("This document is not signed")]
    assert "Facilities" in before or "Schedule" in before  # the verification keeps company
