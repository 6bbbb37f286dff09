"""Names matched, never guessed: every letter of every script is part of a name's key;
reordered words, accents and look-alike letters are a question for the clerk; a name with
no letter has no key; a correction addressed to someone else asks too."""

from __future__ import annotations

from datetime import date

import pytest

from docgen.register import AmbiguousRespondent, RegisterError
from docgen.register.matching import is_near, loose_key, name_key
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
    first = convicted(reg, "John Smith")
    with pytest.raises(AmbiguousRespondent) as asked:
        reg.issue("notice-of-violation", notice("2026-11-16", name=typed), formats=HTML)
    assert [c.id for c in asked.value.candidates] == [first.respondent.id]
    assert reg.count() == 1
    same = reg.issue(
        "notice-of-violation",
        notice("2026-11-16", name=typed),
        formats=HTML,
        respondent=first.respondent.id,
    )
    assert "second offense" in words(same)
    assert typed in same.respondent.aliases


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
            "notice-of-violation", notice(), formats=HTML, respondent="99999999999999999999999"
        )


def test_a_correction_addressed_to_someone_else_asks_and_adds_no_alias(reg):
    first = reg.issue("notice-of-violation", notice(name="Иван Smith"), formats=HTML)
    other = notice(name="Пётр Smith")
    with pytest.raises(AmbiguousRespondent) as asked:
        reg.supersede(first.number, other, formats=HTML)
    assert asked.value.candidates[-1].why == "the superseded document's respondent"
    assert asked.value.candidates[-1].id == first.respondent.id
    apart = reg.supersede(first.number, other, formats=HTML, respondent="new")
    assert apart.respondent.id != first.respondent.id
    assert reg.history(first.respondent.id).respondent.aliases == ()


def test_a_conviction_never_moves_to_another_respondent_by_a_correction(reg):
    first = convicted(reg, "Иван Smith")
    other = notice("2026-03-02", name="Пётр Smith")
    with pytest.raises(RegisterError, match="cannot carry that outcome"):
        reg.supersede(first.number, other, formats=HTML, respondent="new")
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
