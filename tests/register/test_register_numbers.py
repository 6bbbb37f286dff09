"""One spelling per number: typed numbers are normalized and must be the pack's format for
their kind and year; look-alikes of an issued number are that number; two municipalities
in one register each keep their own series."""

from __future__ import annotations

import json
import re

import pytest

from docgen.law.packs import load_pack
from docgen.register import Issue, RegisterError
from docgen.register.rules.numbering import normalize, typed_number
from tests.helpers.register_cases import notice

HTML = ("html",)


def numbered(number: str, issued: str = "2026-11-16") -> dict:
    data = notice(issued)
    data["number"] = number
    return data


@pytest.mark.parametrize(
    "typed",
    [
        " NOV-2026-0007 ",
        "nov-2026-0007",
        "NOV\u20102026\u20100007",
        "ＮＯＶ－２０２６－０００７",
        "NOV\u22122026\u22120007",
    ],
)
def test_a_typed_number_has_one_spelling(typed):
    assert typed_number(load_pack("homer"), "notice-of-violation", 2026, typed) == "NOV-2026-0007"


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("NOV-2026-00001", "not written as homer writes numbers \\(NOV-2026-0001"),
        ("NOV-2026-0001.", "is not a notice of violation number"),
        ("PS-2026-0001", "is not a notice of violation number"),
        ("AOS-2026-0001", "is not a notice of violation number"),
        ("NOV-2027-0001", "numbered for 2027, but this notice of violation is issued in 2026"),
        ("NOV-2026-0000", "not written as homer writes numbers"),
        ("NOV 2026 0001", "is not a notice of violation number"),
    ],
)
def test_a_number_outside_the_packs_format_is_refused(typed, why):
    with pytest.raises(RegisterError, match=why):
        typed_number(load_pack("homer"), "notice-of-violation", 2026, typed)


def test_normalize_reads_every_dash_and_width_alike():
    assert normalize("\tcc\u2013 2026\u20140001 ") == "CC- 2026-0001"


@pytest.mark.parametrize(
    "typed", ["NOV-2026-0001 ", "nov-2026-0001", "NOV\u20102026\u20100001", "NOV-2026-00001"]
)
def test_a_look_alike_of_an_issued_number_is_refused(reg, typed):
    first = reg.issue("notice-of-violation", notice(), formats=HTML)
    assert first.number == "NOV-2026-0001"
    with pytest.raises(RegisterError, match="NOV-2026-0001"):
        reg.issue("notice-of-violation", numbered(typed), formats=HTML)
    assert reg.count() == 1


def test_a_typed_number_is_stored_in_its_one_spelling_and_found_by_any(reg):
    issued = reg.issue(
        "notice-of-violation",
        numbered(" nov-2026-0042"),
        Issue(number_gap="0001 to 0041 were issued on paper before the register"),
        formats=HTML,
    )
    assert issued.number == "NOV-2026-0042"
    assert "NOV-2026-0042" in issued.files["html"].decode()
    assert reg.document("nov\u20102026\u20100042 ").number == "NOV-2026-0042"


@pytest.mark.parametrize("typed", ["PS-2026-0001", "AOS-2026-0001", "NOV-2027-0001"])
def test_a_notice_cannot_take_another_series_or_year(reg, typed):
    with pytest.raises(RegisterError, match="number: "):
        reg.issue("notice-of-violation", numbered(typed), formats=HTML)
    assert reg.count() == 0


@pytest.mark.parametrize(
    ("made", "refused"),
    [
        ("ALD NOV-{year}-{seq:04d}", "' ' (U+0020)"),
        ('X"; filename="evil.exe-{year}-{seq:04d}', "'\"' (U+0022)"),
        ("AVIS-É-{year}-{seq:04d}", "'É' (U+00C9)"),
    ],
)
def test_a_number_is_letters_digits_and_dash_dot_underscore_slash(reg, tmp_path, made, refused):
    """A pack whose format makes a number with any other character is refused at issue,
    naming the character and the format, before a number is taken; `/` and `.` pass."""
    from tests.test_fictional_pack import PACKS, into_alderbrook

    pack = (PACKS / "alderbrook.yaml").read_text()
    ours = '"ALD-NOV-{year}-{seq:04d}"'
    folder = tmp_path / "packs"
    folder.mkdir()
    (folder / "alderbrook.yaml").write_text(pack.replace(ours, json.dumps(made)))
    with pytest.MonkeyPatch.context() as env:
        env.setenv("DOCGEN_PACKS", str(folder))
        case = into_alderbrook(notice())
        with pytest.raises(
            RegisterError, match=re.escape("ASCII letters, digits and - . _ /")
        ) as err:
            reg.issue("notice-of-violation", case, formats=HTML)
        assert refused in str(err.value) and "numbering format of a notice of violation" in str(
            err.value
        )
        assert reg.count() == 0
        fine = pack.replace(ours, '"ALD/N.O_V-{year}-{seq:04d}"')
        (folder / "alderbrook.yaml").write_text(fine)
        assert reg.issue("notice-of-violation", case, formats=HTML).number == "ALD/N.O_V-2026-0001"
