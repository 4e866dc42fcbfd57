"""French "ne … que" restricts, it does not deny: "il ne parle que de dinosaures", "elle ne
jure que par les chevaux", "il ne pense qu'au foot" say what the person loves. It is an
interest, never a dislike; a real negation ("il n'aime pas le foot") still refuses."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("il ne parle que de dinosaures", "dinosaur"),
        ("elle ne jure que par les chevaux", "horse"),
        ("il ne pense qu'au foot", "football"),
        ("mon fils ne lit que des mangas", "manga"),
        ("il n'aime que le foot", "football"),
        ("elle ne fait que du cheval", "horse"),
        ("il ne veut que des lego", "building-set"),
        ("elle ne s'intéresse qu'aux chevaux", "horse"),
        ("ma fille ne parle que de licornes en ce moment", "unicorn"),
        ("mon neveu de 7 ans ne parle plus que de dinosaures", "dinosaur"),
        ("il n'en a que pour les dinosaures", "dinosaur"),
        ("elle n'écoute que du rap", "hip-hop"),
    ],
)
def test_ne_que_names_an_interest(text: str, tag: str) -> None:
    facts = extract(text, today=TODAY, locale="fr").facts
    assert tag in facts.get("interests", [])
    assert tag not in facts.get("dislikes", [])


def test_the_relation_is_kept_whole() -> None:
    """ "ma fille ne parle que de licornes" is for the daughter, not "fille de licornes"."""
    facts = extract("ma fille ne parle que de licornes", today=TODAY, locale="fr").facts
    assert facts.get("recipient") == "fille"


def test_a_named_taste_after_ne_que_is_no_person() -> None:
    # (a name the vocabulary does not know: Pokémon is now video games and card games)
    facts = extract("mon fils ne jure que par Astérix", today=TODAY, locale="fr").facts
    assert facts.get("recipient") == "fils"
    assert "Astérix" in facts.get("interests", [])


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("il n'aime pas le foot", "football"),
        ("elle ne veut pas de chevaux", "horse"),
        ("pas de bonbons", "confectionery"),
    ],
)
def test_a_real_negation_still_refuses(text: str, tag: str) -> None:
    facts = extract(text, today=TODAY, locale="fr").facts
    assert tag in facts.get("dislikes", [])
    assert tag not in facts.get("interests", [])


def test_ne_que_of_other_verbs_names_no_taste() -> None:
    """ "je ne sais que choisir" is no taste of anyone's."""
    facts = extract("je ne sais que choisir pour ma soeur", today=TODAY, locale="fr").facts
    assert not facts.get("interests")
    assert not facts.get("dislikes")
