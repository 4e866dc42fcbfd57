"""Not knowing what to give, what not to offer, text-speak, fondness and idioms, terse
delivery orders: kinds of sentences the offline reader once misread.

Each kind is tried with sentences written for it, in English and French where it exists in
both, with a case that must still be read the old way. No line of any dialogue set is used,
so the sets keep measuring reading they did not teach.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 30)


def facts(text: str, **kwargs: Any) -> dict[str, Any]:
    return extract(text, today=TODAY, **kwargs).facts


# --- not knowing what to give is no refusal ----------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "recipient", "interests"),
    [
        ("Honestly I've got no idea what to buy my stepdad, he's into sailing", "en",
         "stepdad", ["sailing"]),
        ("not sure what my goddaughter would want, she loves horses", "en",
         "goddaughter", ["horse"]),
        ("Je ne sais pas quoi offrir à mon parrain, il adore le golf", "fr",
         "parrain", ["golf"]),
        ("Aucune idée de cadeau pour ma voisine, elle fait de la poterie", "fr",
         "voisine", ["pottery"]),
    ],
)  # fmt: skip
def test_not_knowing_what_to_give_keeps_who_and_what(
    text: str, locale: str, recipient: str, interests: list[str]
) -> None:
    found = facts(text, locale=locale)
    assert found.get("recipient") == recipient
    assert sorted(found.get("interests", [])) == interests
    assert "dislikes" not in found


@pytest.mark.parametrize(
    ("text", "locale", "refused"),
    [
        ("no idea what to get my uncle, but no socks please", "en", "sock"),
        ("je ne sais pas quoi prendre pour ma tante, mais pas de bougies", "fr", "candle"),
    ],
)
def test_a_refusal_after_not_knowing_still_refuses(text: str, locale: str, refused: str) -> None:
    assert refused in facts(text, locale=locale).get("dislikes", [])


# --- what not to offer, and a refusal that ends where someone is named -------------------


@pytest.mark.parametrize(
    ("text", "locale", "refused", "liked"),
    [
        ("She paints every weekend so please don't suggest paint sets. She also loves tea",
         "en", "painting", "tea"),
        ("Do not recommend any mugs, he drinks coffee all day", "en", "mug", "coffee"),
        ("Ne me proposez pas de bougies, elle adore le thé", "fr", "candle", "tea"),
        ("Ne lui offrez jamais de chocolat, il aime le café", "fr", "chocolate", "coffee"),
    ],
)  # fmt: skip
def test_do_not_suggest_refuses_and_wins_over_a_taste(
    text: str, locale: str, refused: str, liked: str
) -> None:
    found = facts(text, locale=locale)
    assert refused in found.get("dislikes", [])
    assert refused not in found.get("interests", [])
    assert liked in found.get("interests", [])


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("no scented candles, my sister-in-law likes knitting", "en", "sister-in-law"),
        ("pas de parfum, ma marraine aime le jardinage", "fr", "marraine"),
    ],
)
def test_a_refusal_stops_where_the_recipient_is_named(
    text: str, locale: str, recipient: str
) -> None:
    found = facts(text, locale=locale)
    assert found.get("recipient") == recipient
    assert found.get("dislikes")


# --- text-speak written out before reading ------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("my niece luvs unicorns and drawing", "en", ["drawing", "unicorn"]),
        ("smth for my flatmate, she's obsessed w/ houseplants", "en", ["plant"]),
        ("jsp quoi offrir pr ma sœur, elle adore le yoga", "fr", ["yoga"]),
        ("un kdo pour mon oncle qui aime bcp la pêche", "fr", ["fishing"]),
    ],
)
def test_text_speak_is_read_like_the_words_it_stands_for(
    text: str, locale: str, interests: list[str]
) -> None:
    assert sorted(facts(text, locale=locale).get("interests", [])) == interests


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("he luvs his bike w/ all his heart", "he loves his bike with all his heart"),
        ("Un cado pr ma mère", "Un cadeau pour ma mère"),
        ("a U2 record and a 30 mm lens", "a U2 record and a 30 mm lens"),
    ],
)
def test_short_forms_are_whole_words_only(text: str, expected: str) -> None:
    from giftgenius.offline.spelling import mend

    assert mend(text) == expected


# --- fondness, habits and idioms that say what someone likes ---------------------------


@pytest.mark.parametrize(
    ("text", "locale", "interest"),
    [
        ("my grandad is partial to a drop of rum", "en", "rum"),
        ("she has a real soft spot for owls and birds", "en", "bird"),
        ("he plays chess all day", "en", "chess"),
        ("my stepmum has green fingers", "en", "gardening"),
        ("my cousin deserves a bit of pampering after her exams", "en", "wellness"),
        ("ma tante a un faible pour le champagne", "fr", "champagne"),
        ("ma belle-mère a vraiment la main verte", "fr", "gardening"),
        ("elle mérite d'être dorlotée un peu", "fr", "wellness"),
        ("mon filleul joue au basket tous les mercredis", "fr", "basketball"),
    ],
)  # fmt: skip
def test_fondness_habits_and_idioms_name_a_taste(text: str, locale: str, interest: str) -> None:
    assert interest in facts(text, locale=locale).get("interests", [])


def test_french_basket_is_the_game_only_in_french() -> None:
    assert "basketball" not in facts("a picnic basket for my aunt, she loves picnics",
                                     locale="en").get("interests", [])  # fmt: skip
    found = facts("mon frère est fan de basket et de tennis", locale="fr")
    assert sorted(found.get("interests", [])) == ["basketball", "tennis"]


# --- terse orders: a place right after a delivery word, and no name made of it ---------


@pytest.mark.parametrize(
    ("text", "locale", "country"),
    [
        ("Farewell present. Max 70 euros. Delivery Rotterdam.", "en", "NL"),
        ("Shipping Vienna, two weeks max", "en", "AT"),
        ("Cadeau de pot de départ. 50 € maxi. Livraison Nantes.", "fr", "FR"),
        ("Envoi Anvers, budget 40 € tout compris", "fr", "BE"),
    ],
)
def test_a_place_right_after_a_delivery_word(text: str, locale: str, country: str) -> None:
    found = facts(text, locale=locale)
    assert found.get("country") == country
    assert "recipient" not in found  # "Livraison", "Delivery" are no one's name
