"""Months, weekdays, holidays and deadline cues are read from the lexicons of both languages."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.language import lexicon, when

TODAY = dt.date(2026, 3, 2)  # a Monday


@pytest.mark.parametrize(
    ("said", "due"),
    [
        ("by sept", dt.date(2026, 9, 30)),
        ("d'ici janv", dt.date(2027, 1, 31)),
        ("by Mar 20", dt.date(2026, 3, 20)),
        ("d'ici mars", dt.date(2026, 3, 31)),
    ],
)
def test_a_month_is_read_by_its_name_or_short_form(said: str, due: dt.date) -> None:
    assert when.parse_deadline(said, TODAY) == due


def test_every_short_form_starts_one_month_name_of_its_language() -> None:
    for lang in lexicon.LANGUAGES:
        names = lexicon.words("calendar", "months", lang)
        assert len(names) == 12
        for short in lexicon.words("calendar", "month_abbreviations", lang):
            assert sum(name.startswith(short) for name in names) == 1, (lang, short)


def test_every_holiday_has_a_date_rule() -> None:
    for lang in lexicon.LANGUAGES:
        assert set(lexicon.table("holidays", lang)) == set(when._HOLIDAY_RULES)


def test_a_french_holiday_name_gives_the_french_date_in_any_conversation() -> None:
    # Mother's Day 2026: the second Sunday of May in English, the last one in France; the day
    # before, said with "avant".
    assert when.parse_deadline("by mother's day", TODAY, "en") == dt.date(2026, 5, 10)
    assert when.parse_deadline("by mother's day", TODAY, "fr") == dt.date(2026, 5, 31)
    assert when.parse_deadline("avant la fête des mères", TODAY, "en") == dt.date(2026, 5, 30)


def test_weekdays_of_both_languages_are_days_not_names() -> None:
    assert when.names_a_day("Vendredi")
    assert when.names_a_day("Friday")
    assert not when.names_a_day("Frida")


@pytest.mark.parametrize(
    ("said", "due"),
    [
        ("it has to arrive by the 12th", dt.date(2026, 3, 12)),
        ("needs to be there Friday", dt.date(2026, 3, 6)),
        ("faut que ce soit livré vendredi", dt.date(2026, 3, 6)),
        ("before the 12th", dt.date(2026, 3, 11)),
        ("avant le 12", dt.date(2026, 3, 11)),
        ("vendredi au plus tard", dt.date(2026, 3, 6)),
        ("Friday tops", dt.date(2026, 3, 6)),
        ("for 2 weeks", None),
    ],
)
def test_deadline_cues_of_both_languages(said: str, due: dt.date | None) -> None:
    assert when.parse_deadline(said, TODAY) == due


def test_every_leaving_phrase_of_both_languages_is_read_as_leaving() -> None:
    for lang in lexicon.LANGUAGES:
        for phrase in lexicon.words("leaving_cues", "phrases", lang):
            assert when.is_leaving(f"ok, {phrase}!"), phrase


def test_leaving_read_by_the_code_itself() -> None:
    assert when.is_leaving("back on Thursday")
    assert when.is_leaving("je finirai plus tard")
    assert not when.is_leaving("vendredi au plus tard")
    assert when.parse_deadline("I'll be back tomorrow", TODAY) is None
