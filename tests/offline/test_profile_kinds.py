"""Kinds of profile sentences that left the offline model asking again for what was said.

Found by playing the English stalls of the corpus (``collecting_profile`` forever); each kind
is tried here with sentences of our own, in English and French where the kind exists in both,
with a case that must not be read that way. The corpus lines themselves are not used.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def facts(text: str, **kwargs: Any) -> dict[str, Any]:
    return extract(text, today=TODAY, **kwargs).facts


def interests(text: str, **kwargs: Any) -> list[str]:
    return sorted(facts(text, **kwargs).get("interests", []))


# --- keenness said with words other than "loves"/"likes" ---------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my cousin is mad about cycling", ["cycling"]),
        ("he's absolutely nuts about chess", ["chess"]),
        ("she is obsessed with knitting lately", ["knitting"]),
        ("he's totally hooked on board games", ["board-game"]),
        ("my aunt is crazy about jazz", ["jazz"]),
        ("she could use some tea and a good book", ["book", "tea"]),
        ("he would love a new watch", ["watch"]),
        ("my gran really misses proper coffee", ["coffee"]),
        ("she does pilates twice a week", ["yoga"]),
        ("he practises karate", ["martial-arts"]),
        ("she's trying to meditate more", ["meditation"]),
        ("he basically lives in his garden", ["gardening"]),
        ("something cosy for my mum", ["cozy"]),
        ("elle est folle de jardinage", ["gardening"]),
        ("quelque chose de relaxant pour ma mère", ["wellness"]),
        ("il est dingue de randonnée", ["hiking"]),
    ],
)
def test_keenness_in_other_words(text: str, expected: list[str]) -> None:
    assert set(expected) <= set(interests(text)), interests(text)


@pytest.mark.parametrize(
    "text",
    [
        "she lives in Lyon with her cat",  # a place, not a taste
        "I would love some help choosing",
        "he does not care much",
        "how long does delivery take?",  # "does" in a question names no taste
    ],
)
def test_keenness_words_that_name_no_taste(text: str) -> None:
    assert "interests" not in facts(text, profile={"recipient": "friend"})


# --- the kind of person they are: "a coffee guy", "a chocoholic" ---------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("my brother, total cycling + hiking guy", ["cycling", "hiking"]),
        ("she is such a cat person", ["cat"]),
        ("he's a real coffee snob", ["coffee"]),
        ("my dad is a bit of a bookaholic", ["book"]),
        ("she's a complete chocaholic", ["chocolate"]),
        ("my nephew is a total gaming junkie", ["video-game"]),
        ("c'est une vraie fana de photo", ["photography"]),
    ],
)
def test_the_kind_of_person(text: str, expected: list[str]) -> None:
    assert set(expected) <= set(interests(text)), interests(text)


# --- owning a pet: "has two dogs", "just adopted a kitten" --------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        ("my neighbour has two dogs", "en", ["dog"]),
        ("she just adopted a kitten", "en", ["cat"]),
        ("he owns three cats and a parrot", "en", ["cat"]),
        ("ma voisine a deux chats", "fr", ["cat"]),
        ("il vient d'adopter un chiot", "fr", ["dog"]),
    ],
)
def test_a_pet_they_own(text: str, locale: str, expected: list[str]) -> None:
    assert set(expected) <= set(interests(text, locale=locale)), interests(text, locale=locale)


def test_someone_minding_a_pet_does_not_love_it() -> None:
    assert "interests" not in facts("ma voisine garde mon chat", profile={"recipient": "ami"})


# --- "not X, only Y": the contrast after a refusal is a taste --------------------------------


@pytest.mark.parametrize(
    ("text", "liked", "refused"),
    [
        ("he never drinks wine, only whisky", ["whisky"], ["wine"]),
        ("no chocolate, just tea", ["tea"], ["chocolate"]),
        ("she doesn't read novels, only comics", ["comic"], ["novel"]),
        ("pas de vin, seulement du whisky", ["whisky"], ["wine"]),
        ("pas de bougies, uniquement du thé", ["tea"], ["candle"]),
    ],
)
def test_only_after_a_refusal(text: str, liked: list[str], refused: list[str]) -> None:
    found = facts(text)
    assert set(liked) <= set(found.get("interests", [])), found
    assert set(refused) <= set(found.get("dislikes", [])), found
    assert not set(liked) & set(found.get("dislikes", []))


# --- typos in taste and relation words ------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("she loves paintnig and pottery", ["painting"]),
        ("he's into photgraphy", ["photography"]),
        ("loves chocolat and cofee", ["chocolate", "coffee"]),
        ("elle adore le jardinnage", ["gardening"]),
    ],
)
def test_typos_in_tastes(text: str, expected: list[str]) -> None:
    assert set(expected) <= set(interests(text)), interests(text)


@pytest.mark.parametrize(
    "text",
    [
        "he loves them more than anything",  # "them" is no taste
        "like fourty dolars",
        "she has plans this weekend",  # a real word is never "corrected" into a taste
    ],
)
def test_typos_are_not_tastes(text: str) -> None:
    assert "interests" not in facts(text, profile={"recipient": "friend"})


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("a gift for my girlfreind", "girlfriend"),
        ("something for my neice", "niece"),
        ("pressie 4 my brohter", "brother"),
        ("un cadeau pour ma soeure", "soeur"),
    ],
)
def test_typos_in_relation_words(text: str, recipient: str) -> None:
    assert facts(text)["recipient"] == recipient


# --- who: a role with a taste, a workplace, English "son" -----------------------------------


@pytest.mark.parametrize(
    ("text", "recipient", "liked"),
    [
        ("a present for my piano student", "student", "piano"),
        ("for my chess coach", "chess coach", "chess"),
        ("a gift for my climbing buddy", "climbing buddy", "climbing"),
        ("pour mon élève de guitare", "élève", "guitar"),
    ],
)
def test_a_role_named_with_a_taste(text: str, recipient: str, liked: str) -> None:
    found = facts(text)
    assert recipient in found["recipient"]
    assert liked in found.get("interests", [])


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("a leaving present for an engineer on my team", "engineer"),
        ("something for a designer at work", "designer"),
        ("a gift for the new intern in our office", "intern"),
        ("un cadeau pour une graphiste de mon équipe", "graphiste"),
    ],
)
def test_someone_from_work(text: str, recipient: str) -> None:
    assert recipient in facts(text)["recipient"]


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("a gift for my son who is 12 and loves lego", 12),
        ("for my daughter who's 15", 15),
        ("my nephew, who turns 9 next week", 9),
    ],
)
def test_son_in_english_is_a_son_and_who_is_gives_the_age(text: str, age: int) -> None:
    found = facts(text)
    assert found.get("recipient") in ("son", "daughter", "nephew")
    assert found.get("age") == age


def test_french_son_is_still_a_possessive() -> None:
    found = facts("c'est sa sœur qui boit du thé", locale="fr", profile={"recipient": "amie"})
    assert "recipient" not in found


# --- saving a profile in other words -------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("store his profile under Grandpa Joe", "Grandpa Joe"),
        ("can you keep her details as Nadia?", "Nadia"),
        ("please hang on to his info as uncle Bob", "uncle Bob"),
        ("stocke son profil sous Tatie", "Tatie"),
    ],
)
def test_save_in_other_words(text: str, label: str) -> None:
    out = extract(text, today=TODAY)
    assert out.save_label == label
    assert "recipient" not in out.facts


@pytest.mark.parametrize("text", ["keep it under 40 quid", "store pickup is fine"])
def test_not_a_save(text: str) -> None:
    assert extract(text, today=TODAY).save_label is None


@pytest.mark.parametrize(
    "text",
    [
        "il ecoute de la musique",  # a French word typed without its accent is still a word
        "allo, oui cest bon",  # a short word with a letter changed is slang, not a typo
        "mon beauf adore le barbecue",
        "she has plans and loves Aoife's cooking",
    ],
)
def test_words_that_are_not_typos_stay(text: str) -> None:
    from giftgenius.offline.spelling import mend

    assert mend(text) == text


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("we live in galway", "IE"),
        ("my parents live in leeds", "GB"),
        ("elle habite à rouen", "FR"),
        ("I live in hope", None),
    ],
)
def test_a_lowercase_town_after_living_words(text: str, country: str | None) -> None:
    assert facts(text).get("country") == country


def test_a_mistyped_yes_still_confirms() -> None:
    assert extract("yess, thats perfect", today=TODAY).confirm


@pytest.mark.parametrize(
    ("text", "absent", "present"),
    [
        ("my nephew loves Harry Potter and fantasy novels", "pottery", "fantasy"),
        ("he's a big fan of The Lord of the Rings and of chess", "jewelry", "chess"),
    ],
)
def test_a_title_or_name_is_no_taste(text: str, absent: str, present: str) -> None:
    found = interests(text)
    assert absent not in found and present in found, found


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("he enjoys whisky tasting", ["whisky"]),  # a tasting of whisky, not any experience
        ("she loves coffee mugs", ["coffee"]),
        ("she loves yoga and candles", ["yoga", "candle"]),  # two tastes, not one's form
        ("il est fan de jeux coopératifs", ["cooperative"]),  # French: not dropped
    ],
)
def test_a_kind_of_gift_after_a_taste_is_its_form(text: str, expected: list[str]) -> None:
    locale = "fr" if "fan de" in text else "en"
    assert interests(text, locale=locale) == sorted(expected)
