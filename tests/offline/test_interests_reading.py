"""Reading what a recipient loves from how people describe them, in English and French.

Each kind of sentence is tried in several phrasings, with a case that must not be read that
way: what someone makes is no gift kind they want, the speaker's own cat and travels are not
the recipient's tastes, a slipped double letter still names the activity, card players are
card players, walkers walk, "fine whisky" is whisky at its high end, and a country said on its
own among terse facts is where the gift goes.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def facts(text: str) -> dict[str, Any]:
    return extract(text, today=TODAY).facts


def interests(text: str) -> set[str]:
    return set(facts(text).get("interests", []))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my aunt knits scarves for the whole family", {"knitting"}),
        ("ma tante tricote des chaussettes pour toute la famille", {"knitting"}),
        ("she turned her desk into a jungle of houseplants", {"plant"}),
        ("he bakes bread for the whole family", {"baking"}),
    ],
)
def test_what_someone_makes_is_not_a_gift_kind_they_want(text: str, expected: set[str]) -> None:
    assert interests(text) == expected


def test_a_place_someone_fills_with_a_taste_is_not_a_taste() -> None:
    found = interests("Il a couvert son bureau de plantes grasses")
    assert "plant" in found and "office" not in found


@pytest.mark.parametrize(
    ("text", "expected"),
    [("she loves scarves", {"scarf"}), ("il adore les mugs", {"mug"})],
)
def test_a_gift_kind_after_a_liking_word_still_counts(text: str, expected: set[str]) -> None:
    assert interests(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("for my colleague who waters my plants when I travel, she loves jazz", {"jazz"}),
        ("ma collègue qui garde mon chien quand je voyage, elle adore le thé", {"tea"}),
        ("pour ma voisine qui nourrit mon chat, elle aime le jardinage", {"gardening"}),
        ("my neighbour, I cook for her sometimes, she is into photography", {"photography"}),
    ],
)
def test_the_speakers_own_things_and_doings_are_not_the_recipients(
    text: str, expected: set[str]
) -> None:
    assert interests(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ma sœur voyage beaucoup", {"travel"}),
        ("my brother who travels for work", {"travel"}),
        ("pour mon frère qui cuisine pour ses amis", {"cooking"}),
    ],
)
def test_the_recipients_own_doings_still_count(text: str, expected: set[str]) -> None:
    assert interests(text) == expected


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("elle aime beaucoup cuisinner", "cooking"),
        ("il adore jardinner le week-end", "gardening"),
        ("he loves hikking in the hills", "hiking"),
    ],
)
def test_a_slipped_double_letter_still_names_the_activity(text: str, tag: str) -> None:
    assert tag in interests(text)


@pytest.mark.parametrize(
    "text",
    [
        "mon oncle, un sacré joueur de cartes",
        "il fait des parties de coinche avec ses collègues",
        "he plays poker with his mates every week",
        "elle joue au rami avec ses copines",
        "my grandpa is a keen card player",
        "fan de belote",
    ],
)
def test_card_players(text: str) -> None:
    assert interests(text) == {"card-game"}


@pytest.mark.parametrize(
    "text",
    ["elle envoie des cartes postales à tout le monde", "il fait des parties de pétanque"],
)
def test_cards_and_games_that_are_not_card_games(text: str) -> None:
    found = interests(text)
    assert "card-game" not in found and "parties" not in found and "party-game" not in found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("she loves long walks in the countryside", {"hiking"}),
        ("il adore les balades en forêt", {"hiking"}),
        ("my dad is into rambling", {"hiking"}),
        ("something outdoorsy for my brother", {"outdoor"}),
        ("quelque chose de sportif pour mon neveu", {"sport"}),
        ("un amoureux de la nature", {"outdoor"}),
    ],
)
def test_walkers_and_the_kind_of_thing_wished_for(text: str, expected: set[str]) -> None:
    assert interests(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "pas quelque chose de trop sportif",
        "surtout pas un truc sportif, elle aime lire",
        "not something sporty, she reads a lot",
        "he doesn't want something for the gym",
    ],
)
def test_a_refused_kind_of_thing_is_not_wished_for(text: str) -> None:
    """A wish cue right after a negation stays refused (the negation governs it)."""
    assert "sport" not in interests(text) and "fitness" not in interests(text)


def test_a_wish_after_a_refusal_elsewhere_still_counts() -> None:
    assert "sport" in interests("pas de bougies, plutôt quelque chose de sportif")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("he enjoys fine wine", {"wine", "luxury"}),
        ("elle ne boit que des grands crus", {"wine", "luxury"}),
        ("amateur de whisky d'exception", {"whisky", "luxury"}),
        ("she is fine with anything, she loves tea", {"tea"}),
    ],
)
def test_fine_is_the_high_end_of_a_drink_or_food_and_nothing_alone(
    text: str, expected: set[str]
) -> None:
    assert interests(text) == expected


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("Sœur fan de thé, 30 €, Belgique.", "BE"),
        ("my cousin, 40 dollars, Canada", "CA"),
        ("Mon père, golf, 60 €, Suisse", "CH"),
    ],
)
def test_a_country_said_on_its_own_among_terse_facts(text: str, country: str) -> None:
    assert facts(text).get("country") == country


@pytest.mark.parametrize("text", ["Florence, 30 €, elle aime le thé", "ma sœur, Florence, 40 €"])
def test_a_name_where_a_name_goes_is_not_taken_for_a_country(text: str) -> None:
    # A town said alone later in the list is where it goes (tests/offline/test_listed_places.py).
    assert "country" not in facts(text)


@pytest.mark.parametrize(
    "text",
    [
        "il adore le PSG",
        "cadeau pour mon fils, fan du Paris Saint-Germain",
        "my husband is a huge Real Madrid fan",
        "he supports Man Utd through thick and thin",
        "elle est fan de la Juventus depuis toujours",
    ],
)
def test_a_football_club_is_football(text: str) -> None:
    found = facts(text)
    assert "football" in found.get("interests", [])
    assert found.get("country") is None  # "Paris Saint-Germain", "Real Madrid": no destination
