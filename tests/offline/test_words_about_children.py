"""Words parents write about children that were misread as tastes, or missed as tastes.

Each kind is tried with sentences of our own, in English and French where the kind exists
in both, with near-misses that must still be read the old way:

- a lowercase currency code after an amount is money, never an interest ("40 cad");
- "I'd like to keep it under 50", "j'aimerais rester sous 40 €": a wish about the purchase
  opens an infinitive, no taste;
- "passionné par l'espace": "par" belongs to the liking words, space and rockets are
  astronomy ("l'espace de rangement" is room, not space);
- an everyday French verb ("ce qui traîne") is never read as a doing ("training");
- children's games and crafts the catalog already knows: Minecraft, Roblox, Pokémon (the
  cards are card games), slime (a craft), "abt" written out as "about";
- "25e", "25 e", "25eu" are euros, but "son 25e anniversaire", "le 25e" are ordinals;
- "she already has about 200 of them" counts things: no $200 budget.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


def facts(text: str, locale: str) -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale).facts


# --- a currency code in lowercase is money -------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "currency"),
    [
        ("got like 40 cad to spend", "en", "CAD"),
        ("I like 50 aud max", "en", "AUD"),
        ("elle aime bien, 30 chf", "fr", "CHF"),
        ("he'd like 60 nzd tops", "en", "NZD"),
    ],
)  # fmt: skip
def test_a_lowercase_currency_code_is_no_interest(text: str, locale: str, currency: str) -> None:
    found = facts(text, locale)
    assert found["currency"] == currency
    assert "interests" not in found


def test_a_taste_the_vocabulary_lacks_is_still_kept_after_like() -> None:
    assert facts("she likes axolotls", "en")["interests"] == ["axolotls"]


# --- "I'd like to keep it under 50": a wish about the purchase ----------------------------


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("I'd like to keep it under 50", "en"),
        ("I'd love to spend around 30", "en"),
        ("we'd really like to stay under 40 dollars", "en"),
        ("I would love to keep it cheap, 25 max", "en"),
        ("j'aimerais rester sous 40 €", "fr"),
        ("j'aimerais bien garder ça sous 35 €", "fr"),
        ("on adorerait trouver un truc sous 20 €", "fr"),
    ],
)  # fmt: skip
def test_a_wish_to_do_something_is_no_taste(text: str, locale: str) -> None:
    found = facts(text, locale)
    assert "interests" not in found
    assert "budget_max" in found


@pytest.mark.parametrize(
    ("text", "locale", "interest"),
    [
        ("he loves to fish", "en", "fishing"),
        ("she'd love to learn guitar", "en", "guitar"),
        ("elle adore dessiner", "fr", "drawing"),
    ],
)  # fmt: skip
def test_a_doing_after_love_to_is_still_a_taste(text: str, locale: str, interest: str) -> None:
    assert interest in facts(text, locale)["interests"]


# --- "passionné par": the preposition is no taste -------------------------------------------


@pytest.mark.parametrize(
    ("text", "interests"),
    [
        ("il est passionné par l'espace et les fusées", ["astronomy"]),
        ("ma fille est passionnée par les chevaux", ["horse"]),
        ("mon neveu, passionné par les dinosaures et l'espace", ["dinosaur", "astronomy"]),
        ("elle est passionnée de couture", ["sewing"]),
    ],
)  # fmt: skip
def test_passionne_par_names_the_taste_after_it(text: str, interests: list[str]) -> None:
    assert facts(text, "fr")["interests"] == interests


def test_rockets_and_astronauts_are_astronomy_in_english_too() -> None:
    assert facts("he loves rockets and astronauts", "en")["interests"] == ["astronomy"]


@pytest.mark.parametrize(
    "text",
    ["elle a besoin de l'espace de rangement", "il manque de place dans l'espace de travail"],
)
def test_room_for_something_is_not_space(text: str) -> None:
    found = facts(text, "fr")
    assert "astronomy" not in found.get("interests", [])
    assert "astronomy" not in found.get("dislikes", [])


# --- an everyday French verb is no doing -----------------------------------------------------


@pytest.mark.parametrize(
    "text", ["elle dessine sur tout ce qui traîne", "il dessine sur tout ce qui traine"]
)
def test_trainer_is_an_everyday_verb(text: str) -> None:
    assert facts(text, "fr")["interests"] == ["drawing"]


def test_training_in_english_is_still_fitness() -> None:
    assert "fitness" in facts("she loves training at the gym", "en")["interests"]


# --- children's games, cards and crafts ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("my son is obsessed with Minecraft and Fortnite", "en", ["video-game"]),
        ("she plays roblox all day", "en", ["video-game"]),
        ("he loves his Nintendo Switch, Mario and Zelda", "en", ["video-game"]),
        ("my nephew is obsessed with The Legend of Zelda", "en", ["video-game"]),
        ("mon fils est fan de Minecraft", "fr", ["video-game"]),
        ("she collects Pokémon cards", "en", ["card-game"]),
        ("il collectionne les cartes Pokémon", "fr", ["card-game"]),
        ("he loves Pokemon", "en", ["video-game", "card-game"]),
        ("il adore Pokémon", "fr", ["video-game", "card-game"]),
        ("she loves doing magic tricks", "en", ["magic-trick"]),
        ("il fait des tours de magie", "fr", ["magic-trick"]),
        ("she loves making slime", "en", ["craft"]),
        ("elle fait du slime", "fr", ["craft"]),
        ("shes crazy abt unicorns", "en", ["unicorn"]),
    ],
)  # fmt: skip
def test_childrens_culture_maps_to_catalog_tags(
    text: str, locale: str, interests: list[str]
) -> None:
    found = facts(text, locale)
    assert found["interests"] == interests
    assert found.get("recipient") in (None, "son", "fils", "nephew")  # a game is nobody's name


def test_mario_alone_is_still_a_name() -> None:
    found = facts("my nephew Mario loves football", "en")
    assert found["recipient"] == "nephew Mario"
    assert found["interests"] == ["football"]


# --- "25e" is euros, "son 25e anniversaire" is an ordinal ----------------------------------


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("budget 25e", 25.0),
        ("25 e max", 25.0),
        ("j'ai 25eu", 25.0),
        ("j'ai 30e pour un cadeau", 30.0),
        ("environ 40e, c'est pour ma nièce", 40.0),
    ],
)  # fmt: skip
def test_euros_typed_as_e(text: str, amount: float) -> None:
    found = facts(text, "fr")
    assert found["budget_max"] == amount
    assert found["currency"] == "EUR"


@pytest.mark.parametrize(
    "text",
    [
        "pour son 25e anniversaire",
        "c'est le 25e",
        "elle habite au 12e étage",
        "pour ses 30e",
    ],
)
def test_an_ordinal_is_no_budget(text: str) -> None:
    assert "budget_max" not in facts(text, "fr")


# --- "about 200 of them" counts things --------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("not markers please, she already has about 200 of them", "en"),
        ("no plushies, he's got like 50 of those", "en"),
        ("pas de peluches, elle en a une trentaine, genre 30 d'entre elles", "fr"),
    ],
)  # fmt: skip
def test_a_count_of_things_is_no_budget(text: str, locale: str) -> None:
    assert "budget_max" not in facts(text, locale)


def test_about_a_figure_alone_is_still_a_budget() -> None:
    assert facts("about 200", "en")["budget_max"] == 200.0
