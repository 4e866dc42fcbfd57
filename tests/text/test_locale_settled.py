"""A conversation keeps its language through short lines (fr-failures item 19)."""

from __future__ import annotations

import pytest

from giftgenius.language.detect import detect_locale


@pytest.mark.parametrize("line", ["30€ max", "max 60 livres", "on reste a Montreal", "ok", "yes"])
def test_a_short_line_does_not_flip_a_french_conversation(line: str) -> None:
    assert detect_locale(line, default="fr", settled=True) == "fr"


@pytest.mark.parametrize(
    ("line", "default", "locale"),
    [
        ("I will take the first one please", "fr", "en"),
        ("Je vais prendre le premier, merci", "en", "fr"),
    ],
)
def test_a_whole_sentence_in_the_other_language_does(line: str, default: str, locale: str) -> None:
    assert detect_locale(line, default=default, settled=True) == locale  # type: ignore[arg-type]


def test_the_first_line_decides_on_one_vote() -> None:
    assert detect_locale("oui", default="en") == "fr"
    assert detect_locale("oui", default="en", settled=True) == "en"


@pytest.mark.parametrize(
    ("line", "locale"),
    [
        # "a" votes English; the relation and the number words say which language it is
        ("ma tata a quatre lapins", "fr"),
        ("sa marraine a onze chats", "fr"),
        ("my uncle has three ferrets", "en"),
        ("a nephew, twelve", "en"),
    ],
)
def test_relation_and_number_words_vote_for_their_language(line: str, locale: str) -> None:
    assert detect_locale(line) == locale
