"""Names matched, never guessed: every letter of every script is part of a name's key;
reordered words, accents and look-alike letters are a question for the clerk; a name with
no letter has no key; a correction addressed to someone else asks too."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.register import AmbiguousRespondent, Issue, RegisterError
from docgen.register.people.matching import (
    EXTRA_LOOK_ALIKES,
    TWO_WAYS,
    is_near,
    look_alikes,
    loose_key,
    loose_keys,
    name_key,
)
from docgen.register.storage import db
from tests.helpers.readback import html_text
from tests.helpers.register_cases import notice

HTML = ("html",)

NAMES = {
    "Latin": ("John Smith", "Mary Smith"),
    "Cyrillic": ("Иван Смирнов", "Пётр Смирнов"),
    "CJK": ("王伟", "李娜"),
    "Arabic": ("محمد علي", "فاطمة حسن"),
    "Greek": ("Γιώργος Παπαδόπουλος", "Νίκος Παπαδόπουλος"),
}


def words(issued) -> str:
    return " ".join(html_text(issued.files["html"].decode()).split())


def convicted(reg, name: str, on: str = "2026-03-02"):
    first = reg.issue("notice-of-violation", notice(on, name=name), formats=HTML)
    reg.record_disposition(first.number, "convicted", date(2026, 5, 4), court="Village Court")
    return first


@pytest.mark.parametrize("script", NAMES)
def test_every_script_keeps_its_letters_and_two_names_stay_two(script):
    one, other = NAMES[script]
    assert name_key(one) and name_key(other)
    assert name_key(one) != name_key(other)
    assert not is_near(name_key(one), name_key(other))
    assert loose_key(one) != loose_key(other)


def test_keys_fold_case_and_compatibility_forms_in_every_script():
    assert name_key("ＪＯＨＮ　ＳＭＩＴＨ") == name_key("john smith")
    assert name_key("ΓΙΏΡΓΟΣ") == name_key("γιώργος") == name_key("Γιώργος")  # final sigma
    assert name_key("ИВАН") == name_key("иван")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("!!!") == "" and name_key("  -- ") == ""


@pytest.mark.parametrize(
    ("typed", "on_record"),
    [
        ("Ѕmіth John", "Smith John"),  # Cyrillic Dze and Byelorussian-Ukrainian I
        ("ΗΟΜΕR Holdings LLC", "HOMER Holdings LLC"),  # Greek capitals
        ("Jose Garcia", "José García"),  # accents
        ("Smith, John", "John Smith"),  # reordered
        ("علي محمد", "محمد علي"),  # reordered, Arabic
    ],
)
def test_look_alikes_accents_and_reordered_words_are_near_not_equal(typed, on_record):
    assert name_key(typed) != name_key(on_record)
    assert loose_key(typed) == loose_key(on_record)


@pytest.mark.parametrize("script", NAMES)
def test_another_person_at_a_convicted_persons_address_is_a_first_offense(reg, script):
    one, other = NAMES[script]
    convicted(reg, one)
    second = reg.issue("notice-of-violation", notice("2026-11-16", name=other), formats=HTML)
    assert second.respondent.created and second.priors == ()
    assert "first offense" in words(second)


def test_a_convicted_persons_own_name_in_every_script_is_matched(reg):
    for one, _ in NAMES.values():
        convicted(reg, one)
    for one, _ in NAMES.values():
        again = reg.issue("notice-of-violation", notice("2026-11-16", name=one), formats=HTML)
        assert not again.respondent.created
        assert "second offense" in words(again), one


@pytest.mark.parametrize(
    "typed", ["Smith, John", "SMITH JOHN", "Ѕmіth Јohn", "JOHN SMYTH", "J. Smith"]
)
def test_a_near_name_at_a_convicted_persons_address_is_a_question(reg, typed):
    asked_then_answered(reg, typed, "John Smith")


def asked_then_answered(reg, typed: str, on_record: str) -> str:
    """``typed`` at the address of the convicted ``on_record`` is a question naming that
    respondent alone, and nothing is recorded; answered with its id and the name as typed
    kept (the clerk said so), it is a second offense and the spelling an alias. The
    question, as the clerk reads it."""
    first = convicted(reg, on_record)
    with pytest.raises(AmbiguousRespondent) as asked:
        reg.issue("notice-of-violation", notice("2026-11-16", name=typed), formats=HTML)
    assert [c.id for c in asked.value.candidates] == [first.respondent.id]
    assert reg.count() == 1
    same = reg.issue(
        "notice-of-violation",
        notice("2026-11-16", name=typed),
        Issue(respondent=first.respondent.id, keep_name=True),
        formats=HTML,
    )
    assert "second offense" in words(same)
    assert typed in same.respondent.aliases
    return str(asked.value)


def test_a_name_without_letters_matches_nothing_and_is_refused(reg):
    reg.issue("notice-of-violation", notice(name="王伟"), formats=HTML)
    with pytest.raises(RegisterError, match="no letter or digit"):
        reg.history("!!!")
    with pytest.raises(RegisterError, match=r"recipient\.name: '!!!' has no letter or digit"):
        reg.issue("notice-of-violation", notice(name="!!!"), formats=HTML)
    assert reg.count() == 1
    assert reg.history("王伟").respondent.name == "王伟"


def test_a_huge_respondent_id_is_no_respondent(reg):
    with pytest.raises(RegisterError, match="no respondent with that id"):
        reg.history("99999999999999999999999")
    with pytest.raises(RegisterError, match="no respondent with that id"):
        reg.issue(
            "notice-of-violation",
            notice(),
            Issue(respondent="99999999999999999999999"),
            formats=HTML,
        )


def test_a_correction_addressed_to_someone_else_asks_and_adds_no_alias(reg):
    first = reg.issue("notice-of-violation", notice(name="Иван Smith"), formats=HTML)
    other = notice(name="Пётр Smith")
    with pytest.raises(AmbiguousRespondent) as asked:
        reg.supersede(first.number, other, formats=HTML)
    assert asked.value.candidates[-1].why == "the superseded document's respondent"
    assert asked.value.candidates[-1].id == first.respondent.id
    apart = reg.supersede(first.number, other, Issue(respondent="new"), formats=HTML)
    assert apart.respondent.id != first.respondent.id
    assert reg.history(first.respondent.id).respondent.aliases == ()


def test_a_conviction_never_moves_to_another_respondent_by_a_correction(reg):
    first = convicted(reg, "Иван Smith")
    other = notice("2026-03-02", name="Пётр Smith")
    with pytest.raises(RegisterError, match="cannot carry that outcome"):
        reg.supersede(first.number, other, Issue(respondent="new"), formats=HTML)
    assert reg.count() == 1
    again = reg.issue("notice-of-violation", notice("2026-11-16", name="Иван Smith"), formats=HTML)
    assert again.respondent.id == first.respondent.id
    assert "second offense" in words(again)
    peter = reg.issue("notice-of-violation", notice("2026-11-16", name="Пётр Smith"), formats=HTML)
    assert peter.respondent.created and "first offense" in words(peter)


def test_a_correction_to_the_same_respondent_needs_no_question(reg):
    first = reg.issue("notice-of-violation", notice(name="王伟"), formats=HTML)
    corrected = reg.supersede(first.number, notice(name="王伟"), formats=HTML)
    assert corrected.respondent.id == first.respondent.id


# Names written without spaces (Chinese, Japanese, Korean) are the same name with a space
# typed inside; everywhere else the words stay words.
SPACED = [
    ("王 伟", "王伟"),  # Chinese
    ("山田 太郎", "山田太郎"),  # Japanese, kanji
    ("やまだ たろう", "やまだたろう"),  # Japanese, hiragana
    ("김 민준", "김민준"),  # Korean
]


@pytest.mark.parametrize(("typed", "on_record"), SPACED)
def test_spacing_inside_a_cjk_name_is_ignored(typed, on_record):
    assert name_key(typed) == name_key(on_record)


def test_spacing_between_words_of_other_scripts_is_kept():
    assert name_key("Jo Hnsmith") != name_key("John Smith")
    assert name_key("Иван Смирнов") != name_key("ИванСмирнов")


@pytest.mark.parametrize(("typed", "on_record"), SPACED)
def test_a_convicted_cjk_name_typed_with_a_space_is_the_same_respondent(reg, typed, on_record):
    first = convicted(reg, on_record)
    again = reg.issue("notice-of-violation", notice("2026-11-16", name=typed), formats=HTML)
    assert again.respondent.id == first.respondent.id and not again.respondent.created
    assert "second offense" in words(again)


# A name written wholly in letters Unicode's confusables (UTS #39) pair with another
# script's is asked about like one look-alike letter; accents and Arabic vowel marks too.
WHOLE = [
    ("ЅСОТТ", "SCOTT"),  # every letter Cyrillic
    ("ΑΒΒΟΤΤ ΚΙΜ", "ABBOTT KIM"),  # every letter Greek
    ("ᎪᏴᎬ", "ABE"),  # every letter Cherokee
    ("Јоѕе", "Jose"),  # Cyrillic, small letters
    ("مُحَمَّد علي", "محمد علي"),  # Arabic with and without vowel marks
    ("Γιωργος", "Γιώργος"),  # Greek without its accent
    ("Jose Garcia", "José García"),  # Latin without its accents
]


@pytest.mark.parametrize(("typed", "on_record"), WHOLE)
def test_a_name_of_look_alikes_or_without_marks_is_near_not_equal(typed, on_record):
    assert name_key(typed) != name_key(on_record)
    assert loose_key(typed) == loose_key(on_record)


@pytest.mark.parametrize(("typed", "on_record"), WHOLE[:3])
def test_a_whole_name_of_look_alikes_at_a_convicted_persons_address_is_a_question(
    reg, typed, on_record
):
    first = convicted(reg, on_record)
    with pytest.raises(AmbiguousRespondent) as asked:
        reg.issue("notice-of-violation", notice("2026-11-16", name=typed), formats=HTML)
    assert [c.id for c in asked.value.candidates] == [first.respondent.id]
    assert "look-alike letters" in str(asked.value)


# How two names written as people write them compare, in every script: "same" (one key:
# the same respondent), "look-alike" (a loose reading in common: asked, the flow of a
# single look-alike letter), "similar" (near by spelling: asked) or "apart" (two people).
# Transliteration is not a look-alike: "Ivan Petrov" is not "Иван Петров".
PAIRS = [
    # Chinese, Japanese, Korean: a space typed inside is no word break
    ("王 伟", "王伟", "same"),
    ("王伟", "李娜", "apart"),
    ("山田 太郎", "山田太郎", "same"),
    ("やまだ たろう", "やまだたろう", "same"),
    ("ヤマダ タロウ", "山田太郎", "apart"),  # the same name in katakana: a reading, not a look
    ("김 민준", "김민준", "same"),
    ("김민준", "Kim Minjun", "apart"),
    # Cyrillic
    ("Јоһп Ѕтітһ", "John Smith", "look-alike"),  # п and т: UTS #39 pairs them elsewhere
    ("ЈОНN ЅМІТН", "JOHN SMITH", "look-alike"),  # capitals (N is Latin)
    ("Ѕсотт", "Scott", "look-alike"),  # т read as t
    ("Кеппеth Вгоwп", "Kenneth Brown", "look-alike"),  # к, п, В, г
    ("Ivan Petrov", "Иван Петров", "apart"),  # transliterated, not look-alikes
    ("Мария Иванова", "Maria Ivanova", "apart"),
    ("Пётр Смирнов", "Петр Смирнов", "look-alike"),  # ё without its diaeresis
    ("Иван Смирнов", "Пётр Смирнов", "apart"),
    ("ИванСмирнов", "Иван Смирнов", "similar"),  # Cyrillic is written with spaces
    # Greek
    ("ΑΒΕ", "ABE", "look-alike"),
    ("ΚΑΤΕ ΤΟΧ", "KATE TOX", "look-alike"),
    ("Γιωργος Παπαδοπουλος", "Γιώργος Παπαδόπουλος", "look-alike"),  # accents
    # Unicode's table reads some Greek capitals and small letters apart (Γ as nothing, γ as
    # "y"), so a Greek name in capitals is near its small letters by spelling: still asked
    ("ΓΙΩΡΓΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ", "Γιώργος Παπαδόπουλος", "similar"),
    ("Giorgos Papadopoulos", "Γιώργος Παπαδόπουλος", "apart"),
    # Arabic: vowel marks (harakat) are marks; a space inside a compound name is a word break
    ("مُحَمَّد علي", "محمد علي", "look-alike"),
    ("عبد الله حسن", "عبدالله حسن", "similar"),
    ("محمد علي", "فاطمة حسن", "apart"),
    ("Mohammed Ali", "محمد علي", "apart"),
    # Latin
    ("José García", "Jose Garcia", "look-alike"),
    ("JOSE GARCIA", "José García", "look-alike"),
    ("Mary Ann Smith", "Maryann Smith", "similar"),
    ("John Stith", "John Smith", "similar"),  # a letter apart: similar, never a look-alike
    ("Tim Smith", "Mim Smith", "similar"),
    ("Stith", "Smith", "apart"),
]


def compared(a: str, b: str) -> str:
    if name_key(a) == name_key(b):
        return "same"
    if loose_key(b) in loose_keys(a) or loose_key(a) in loose_keys(b):
        return "look-alike"
    return "similar" if is_near(name_key(a), name_key(b)) else "apart"


@pytest.mark.parametrize(("typed", "on_record", "expected"), PAIRS)
def test_names_compare_as_people_write_them(typed, on_record, expected):
    assert compared(typed, on_record) == expected
    assert compared(on_record, typed) == expected  # whichever came first


def test_a_look_alike_reading_goes_both_ways_and_never_latin_for_latin():
    assert loose_key("John Smith") in loose_keys("Јоһп Ѕтітһ")
    assert loose_key("Јоһп Ѕтітһ") in loose_keys("John Smith")
    assert loose_key("Stith") not in loose_keys("Smith")  # t is never read as m
    assert loose_key("Smith") not in loose_keys("Stith")


def test_the_extra_look_alikes_are_those_unicode_pairs_with_other_shapes():
    """Each letter of the supplement is one UTS #39's table does not read as Latin (else it
    would not be needed) and reads as a Latin small letter (or two, read each way)."""
    for letter, reading in EXTRA_LOOK_ALIKES.items():
        assert ord(letter) not in look_alikes(), letter
        assert reading.isascii() and reading.isalpha() and reading.islower(), letter
        assert letter.islower() and not letter.isascii(), letter
    assert TWO_WAYS == {"т": "tm"}


def test_a_name_with_too_many_readings_is_read_as_written():
    many = "Tommy Matt Mott Tatum"  # 2**10 readings: only its own key is looked up
    assert loose_keys(many) == {loose_key(many)}


@pytest.mark.parametrize(
    ("typed", "on_record"),
    [
        ("Јоһп Ѕтітһ", "John Smith"),  # the typed name wholly in look-alikes
        ("John Smith", "Јоһп Ѕтітһ"),  # the one on record
        ("ΚΑΤΕ ΤΟΧ", "KATE TOX"),
        ("مُحَمَّد علي", "محمد علي"),
    ],
)
def test_a_whole_name_look_alike_is_asked_like_one_look_alike_letter(reg, typed, on_record):
    assert "look-alike letters" in asked_then_answered(reg, typed, on_record)


@pytest.mark.parametrize(
    ("typed", "on_record"),
    [
        ("Иван Петров", "Ivan Petrov"),
        ("Ivan Petrov", "Иван Петров"),
        ("ヤマダ タロウ", "山田太郎"),
        ("Mohammed Ali", "محمد علي"),
    ],
)
def test_a_transliterated_name_is_another_respondent(reg, typed, on_record):
    convicted(reg, on_record)
    other = reg.issue("notice-of-violation", notice("2026-11-16", name=typed), formats=HTML)
    assert other.respondent.created and other.priors == ()
    assert "first offense" in words(other)


def test_an_import_asks_about_a_whole_name_look_alike(reg, tmp_path):
    from docgen.register.people.imports import import_history

    first = convicted(reg, "John Smith")
    rows = "name,street,city,state,zip,committed,convicted,court,docket\n"
    rows += "Јоһп Ѕтітһ,41 Route 281,Homer,NY,13077,2024-02-01,2024-05-01,Homer Village Court,L-1\n"
    path = tmp_path / "history.csv"
    path.write_text(rows, encoding="utf-8")
    with pytest.raises(RegisterError, match="is not matched with certainty") as asked:
        import_history(reg, path)
    assert f"#{first.respondent.id} John Smith" in str(asked.value)
    assert "look-alike letters" in str(asked.value)


def test_an_upgrade_reads_the_keys_recorded_before_anew(register_url, tmp_path):
    """Migration 0019 computes every name's keys again: a look-alike name and a CJK name
    typed with a space, keyed as docgen 0016 and before kept them, are found after
    `docgen register upgrade` as a name recorded now is."""
    from docgen.register import Register
    from tests.helpers.cli import docgen
    from tests.helpers.old_registers import downgraded, execute

    with Register.open(register_url) as reg:
        spoof = convicted(reg, "Јоһп Ѕтітһ")
        wang = convicted(reg, "王 伟", on="2026-03-03")
    downgraded(register_url, "0016")
    old_keys = {
        spoof.respondent.id: ("јоһп ѕтітһ", "johп sтiтh"),
        wang.respondent.id: ("王 伟",) * 2,
    }
    for rid, (key, loose) in old_keys.items():
        execute(
            register_url,
            "UPDATE respondents SET name_key = :key, loose_key = :loose WHERE id = :id",
            key=key,
            loose=loose,
            id=rid,
        )
    upgraded = docgen("register", "upgrade", cwd=tmp_path)
    migrated = f"migrated from 0016 to revision {db.HEAD}"
    assert upgraded.returncode == 0 and migrated in upgraded.stdout
    with Register.open(register_url) as reg:
        with pytest.raises(AmbiguousRespondent) as asked:
            reg.issue("notice-of-violation", notice("2026-11-16", name="John Smith"), formats=HTML)
        assert [c.id for c in asked.value.candidates] == [spoof.respondent.id]
        again = reg.issue("notice-of-violation", notice("2026-11-16", name="王伟"), formats=HTML)
        assert again.respondent.id == wang.respondent.id
        assert "second offense" in words(again)
