"""An interest said as what someone does: the verb, in any person or tense, in English and
French, read through the vocabulary's own nouns ("fishes" → fishing, "elle brode" →
broderie), and the everyday verbs that name no interest ("spends", "habite", "makes")."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def interests(text: str, locale: str | None = None) -> list[str]:
    return list(extract(text, today=TODAY, locale=locale).facts.get("interests", []))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my godfather fishes off the pier", ["fishing"]),
        ("our neighbour goes fishing at dawn", ["fishing"]),
        ("my cousin swims before work", ["swimming"]),
        ("grandpa grows courgettes behind the garage", ["gardening"]),
        ("my brother-in-law tinkers with old radios", ["craft"]),
        ("her partner boxes at the local club", ["boxing"]),
        ("my colleague embroiders napkins and skis in winter", ["embroidery", "skiing"]),
        ("he fished as a boy and still likes it", ["fishing"]),
    ],
)
def test_an_english_doing_names_the_interest(text: str, expected: list[str]) -> None:
    assert interests(text, "en") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mon parrain pêche au bord du lac", ["fishing"]),
        ("ma cousine nage avant le boulot", ["swimming"]),
        ("papi cultive des courgettes derrière le garage", ["gardening"]),
        ("mon beau-frère bricole dans son garage", ["woodworking"]),
        ("ma collègue brode des mouchoirs et elle skie l'hiver", ["embroidery", "skiing"]),
        ("son compagnon boxe dans un club du quartier", ["boxing"]),
        ("mon grand-père pêchait quand il était jeune", ["fishing"]),
        ("mon oncle va à la pêche le samedi", ["fishing"]),
    ],
)
def test_a_french_doing_names_the_interest(text: str, expected: list[str]) -> None:
    assert interests(text, "fr") == expected


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("my aunt spends her weekends with us", "en"),
        ("he lives near the coast with his wife", "en"),
        ("she makes good money and wants nothing", "en"),
        ("my stepdad thinks he needs nothing", "en"),
        ("he works late and takes the train home", "en"),
        ("ma tante habite près de la côte avec son mari", "fr"),
        ("il passe le week-end chez nous et veut un cadeau", "fr"),
        ("elle pense qu'il lui faut rien", "fr"),
        ("mon oncle travaille tard et prend le train", "fr"),
    ],
)
def test_everyday_verbs_name_no_interest(text: str, locale: str) -> None:
    assert interests(text, locale) == []


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        # nouns joined to a liked noun are no verbs
        ("my son loves maps and trains", "en", ["map", "train"]),
        ("she's into running and novels", "en", ["running", "novel"]),
        ("he loves hiking and Mexican food", "en", ["hiking", "mexican-cuisine"]),
        # a word after a name or a comma is no verb of theirs
        ("Il habite en Suisse, dans le Valais", "fr", []),
        ("refais la recherche pour Camille prof, celle de la dernière fois", "fr", []),
        # a label or a noun said as it is
        ("c'est pour tonton jardin, comme la dernière fois", "fr", []),
    ],
)
def test_nouns_near_someone_are_not_doings(text: str, locale: str, expected: list[str]) -> None:
    assert interests(text, locale) == expected
