"""A negation reaches only to the end of its clause: in "je ne le connais pas du tout, sa
maman m'a dit qu'il aimait les voitures" the speaker does not know the child, and what the
mother said are tastes. Tastes told in the past ("il aimait", "he loved") are tastes; real
refusals keep working ("pas de bonbons", "no plush toys", "il n'aime pas le sport")."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale", "tags"),
    [
        (
            "Je ne le connais pas du tout, sa maman m'a juste dit qu'il aimait les voitures "
            "et les super-héros",
            "fr",
            ["automobile", "superhero"],
        ),
        ("je ne la connais pas, sa mère dit qu'elle adorait les chevaux", "fr", ["horse"]),
        ("je ne sais pas trop, mais il adore le dessin", "fr", ["drawing"]),
        ("je la connais pas trop, apparemment elle aime la danse", "fr", ["dance"]),
        ("I don't know him well, but his mum says he loves trains", "en", ["train"]),
        ("I don't know him at all, his mum said he loved dinosaurs", "en", ["dinosaur"]),
        ("I don't really know her, her dad told me she liked unicorns", "en", ["unicorn"]),
        ("no candles, her mum says she likes puzzles", "en", ["puzzle"]),
    ],
)
def test_tastes_after_a_negated_clause_are_tastes(text: str, locale: str, tags: list[str]) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert all(t in facts.get("interests", []) for t in tags)
    assert not set(tags) & set(facts.get("dislikes", []))


def test_what_the_parent_names_after_the_comma_is_not_refused() -> None:
    facts = extract(
        "Je ne le connais pas du tout, sa maman m'a dit : voitures et super-héros",
        today=TODAY,
        locale="fr",
    ).facts
    assert not facts.get("dislikes")


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("pas de bonbons", "fr", "confectionery"),
        ("no plush toys", "en", "plush"),
        ("il n'aime pas le sport", "fr", "sport"),
        ("il n'aimait pas le sport", "fr", "sport"),
        ("no candles, her mum says she likes puzzles", "en", "candle"),
        ("pas de bonbons, sa mère ne veut pas", "fr", "confectionery"),
    ],
)
def test_real_refusals_still_refuse(text: str, locale: str, tag: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert tag in facts.get("dislikes", [])


def test_liking_in_the_past_by_the_speaker_names_no_taste_of_theirs() -> None:
    """ "I loved your first idea" is the speaker's word about a suggestion."""
    facts = extract("I loved the first idea", today=TODAY, locale="en").facts
    assert not facts.get("interests")
