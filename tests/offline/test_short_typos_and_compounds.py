"""Two ways people write a taste the vocabulary does not know as typed.

- A five-letter word with one letter missing ("gutar", "bjoux") is a slip of the fingers
  when neither dictionary knows it and a vocabulary word is that letter longer.
- A compound written as one word ("fellrunning", "wildswimming") is what its last part is.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.interests import compound_tags
from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("he plays the gutar", "en", "guitar"),
        ("my mum loves bakng", "en", "baking"),
        ("elle adore les bjoux", "fr", "jewelry"),
        ("il fait du trict le soir", "fr", "knitting"),
    ],
)
def test_a_letter_missing_in_a_short_word_is_mended(text: str, locale: str, tag: str) -> None:
    assert tag in extract(text, today=TODAY, locale=locale).facts.get("interests", [])


@pytest.mark.parametrize(
    ("text", "tags"),
    [
        ("my dad loves fellrunning and wildswimming", ["running", "swimming"]),
        ("she spends her weekends hillwalking", ["hiking"]),
    ],
)
def test_a_compound_written_as_one_word_is_its_last_part(text: str, tags: list[str]) -> None:
    assert extract(text, today=TODAY, locale="en").facts.get("interests") == tags


@pytest.mark.parametrize("word", ["facebook", "notebook", "housework", "understand"])
def test_words_that_merely_end_like_a_taste_are_none(word: str) -> None:
    assert compound_tags(word) == []
