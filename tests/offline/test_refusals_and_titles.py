""" "Anything but X" refuses X, and the title of a work ("The Lord of the Rings") is one taste,
never a person to give to."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "dislike"),
    [
        ("for my sister, anything but candles please", "candle"),
        ("he loves anything but golf", "golf"),
        ("whatever you think, anything but socks", "sock"),
    ],
)
def test_anything_but_refuses(text: str, dislike: str) -> None:
    facts = extract(text, today=TODAY, locale="en").facts
    assert dislike in facts.get("dislikes", [])
    assert dislike not in facts.get("interests", [])


@pytest.mark.parametrize(
    ("text", "locale", "title"),
    [
        ("my wife loves Pride and Prejudice", "en", "Pride and Prejudice"),
        ("my nephew is obsessed with The Wind in the Willows", "en", "The Wind in the Willows"),
        ("ma fille adore Le Seigneur des Anneaux", "fr", "Le Seigneur des Anneaux"),
    ],
)
def test_a_title_is_one_taste_and_no_recipient(text: str, locale: str, title: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert facts.get("interests") == [title]
    assert fold_words(title).isdisjoint(fold_words(str(facts.get("recipient", ""))))


def fold_words(text: str) -> set[str]:
    return {w.lower() for w in text.split() if len(w) > 3}


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("he's mad about The Wind in the Willows", "en"),
        ("elle ne jure que par Le Petit Prince", "fr"),
    ],
)
def test_a_title_alone_names_no_one(text: str, locale: str) -> None:
    assert "recipient" not in extract(text, today=TODAY, locale=locale).facts


@pytest.mark.parametrize(
    ("text", "locale", "dislike"),
    [
        ("nothing too rowdy, the neighbours complain", "en", "rowdy"),
        ("for my aunt — nothing that's too flashy", "en", "flashy"),
        ("rien de trop bruyant, il vit en appartement", "fr", "bruyant"),
    ],
)
def test_nothing_too_x_refuses_x(text: str, locale: str, dislike: str) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("dislikes") == [dislike]
