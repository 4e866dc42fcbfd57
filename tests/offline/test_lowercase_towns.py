"""A town typed in lowercase after a plain place word ("my buddy in denver", "un cousin à
marseille") is where the gift goes when its name is sure: a big city's, shared by no everyday
word. Everyday words after the same place words stay words."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "locale", "country"),
    [
        ("need a gift for my buddy in denver, he's into craft beer", "en", "US"),
        ("my cousin from toronto loves hockey, 60 bucks", "en", "CA"),
        ("something for a friend in manchester who likes football, 30 quid", "en", "GB"),
        ("pour mon cousin à marseille, il aime le vin, 40 euros", "fr", "FR"),
        ("mon frère à bordeaux adore le café, 50 euros", "fr", "FR"),
    ],
)
def test_a_big_town_in_lowercase_is_the_delivery_country(
    text: str, locale: str, country: str
) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("country") == country


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("gift for my sister, she's in love with tea, 30 dollars", "en"),
        ("it has to be there in time for friday, she likes yoga", "en"),
        ("my dad is in reading glasses all day, he loves books", "en"),
        ("pour ma sœur, elle est en vacances, elle aime le thé, 20 euros", "fr"),
        ("a present for my boss, he's big in tech, 50 dollars", "en"),
    ],
)
def test_an_everyday_word_after_a_place_word_is_no_place(text: str, locale: str) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("country") is None
