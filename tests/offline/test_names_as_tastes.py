"""Names said as tastes: a band, a singer, an author, a title, a team or a brand.

A capitalised word is a person only where a person goes (the subject, after "for"/"pour",
after a relation, greeted). As the object of a taste verb, after "mostly"/"surtout", or
before "fan"/"nerd"/"supporter", it is a taste kept as said, with the tag its verb tells
(listening → music, reading → books, supporting → sport), and never the recipient nor a
place. A hyphenated word is one word: no relation, yes or name is read out of its parts.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


def _facts(text: str, locale: str) -> dict[str, object]:
    return extract(text, today=TODAY, locale=locale).facts


@pytest.mark.parametrize(
    ("text", "locale", "taste", "recipient"),
    [
        ("my nephew is a massive Pokemon fan", "en", "video-game", "nephew"),  # a game it knows
        ("she's become a real Doctor Who nerd", "en", "Doctor Who", None),
        ("ma nièce est fan d'Aya Nakamura", "fr", "Aya Nakamura", "nièce"),
        ("mon cousin kiffe le Barça", "fr", "football", "cousin"),  # a club the vocabulary knows
        ("my brother-in-law loves Star Trek", "en", "Star Trek", "brother-in-law"),
        ("elle regarde Friends en boucle", "fr", "Friends", None),
        ("grand fan du FC Nantes", "fr", "FC Nantes", None),  # no one named Nantes
        ("il adore le Real Madrid", "fr", "football", None),
    ],
)
def test_a_name_in_a_taste_is_the_taste_not_the_recipient(
    text: str, locale: str, taste: str, recipient: str | None
) -> None:
    facts = _facts(text, locale)
    assert taste in facts.get("interests", [])  # type: ignore[operator]
    assert facts.get("recipient") == recipient


@pytest.mark.parametrize(
    ("text", "locale", "taste", "tag"),
    [
        ("my aunt listens to Fleetwood Mac all day", "en", "Fleetwood Mac", "music"),
        ("ma tante écoute Francis Cabrel en boucle", "fr", "Francis Cabrel", "music"),
        ("my granddad reads a lot, mostly Terry Pratchett", "en", "Terry Pratchett", "book"),
        ("mon grand-père lit beaucoup, surtout Simenon", "fr", "Simenon", "book"),
        ("my uncle supports Arsenal", "en", "Arsenal", "sport"),
        ("mon oncle est supporter du Stade Toulousain", "fr", "Stade Toulousain", "sport"),
        ("hey, Tom is a Leeds supporter", "en", "Leeds", "sport"),
    ],
)
def test_the_verb_says_what_kind_of_thing_the_name_is(
    text: str, locale: str, taste: str, tag: str
) -> None:
    interests = _facts(text, locale).get("interests", [])
    assert taste in interests  # type: ignore[operator]
    assert tag in interests  # type: ignore[operator]


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("il est supporter de l'OL", "fr"),  # "OL" is no country either
        ("my dad supports Leeds", "en"),  # a team, not where the gift goes
        ("she loves Italy, mostly Sicily", "en"),
    ],
)
def test_a_name_said_as_a_taste_is_no_destination(text: str, locale: str) -> None:
    assert "country" not in _facts(text, locale)


@pytest.mark.parametrize(
    ("text", "locale", "recipient", "taste"),
    [
        ("Gift for Lucy Brown please", "en", "Lucy Brown", None),
        ("Lucy adores the Rolling Stones", "en", "Lucy", "Rolling Stones"),
        ("pour Chloé, fan de Orelsan", "fr", "Chloé", "Orelsan"),
        ("my colleague Priya", "en", "colleague Priya", None),
        ("ma copine Léa adore Zara", "fr", "copine Léa", "Zara"),
        ("Marie écoute Angèle", "fr", "Marie", "Angèle"),
    ],
)
def test_a_name_where_a_person_goes_is_still_the_recipient(
    text: str, locale: str, recipient: str, taste: str | None
) -> None:
    facts = _facts(text, locale)
    assert facts.get("recipient") == recipient
    if taste is not None:
        assert taste in facts.get("interests", [])  # type: ignore[operator]


def test_a_question_naming_a_town_names_no_one() -> None:
    assert "recipient" not in _facts("c'est pour Lyon ?", "fr")


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("my daughter is obsessed with k-pop and dance", "en"),
        ("ma fille adore la K-pop et le dessin", "fr"),
        ("she's big on KPOP these days", "en"),
    ],
)
def test_k_pop_is_one_word_and_a_taste(text: str, locale: str) -> None:
    found = extract(text, today=TODAY, locale=locale)
    assert "k-pop" in found.facts.get("interests", [])
    assert found.facts.get("recipient") not in ("pop", "Pop")  # no dad ("pop") in it
    assert not found.confirm  # its "k" is no "ok"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("he wants a pop-up book about dinosaurs", "en"),
        ("her go-to drink is gin", "en"),
        ("il porte toujours des t-shirts de groupes", "fr"),
    ],
)
def test_a_hyphenated_word_names_no_relation_and_says_no_yes(text: str, locale: str) -> None:
    found = extract(text, today=TODAY, locale=locale)
    assert "recipient" not in found.facts
    assert not found.confirm


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("something for my ex-boss", "en", "ex-boss"),
        ("un cadeau pour mon petit-frère", "fr", "frère"),
        ("a gift for my sister-in-law", "en", "sister-in-law"),
    ],
)
def test_a_relation_written_with_a_hyphen_is_still_read(
    text: str, locale: str, recipient: str
) -> None:
    assert recipient in str(_facts(text, locale).get("recipient", ""))


def test_a_k_pop_fan_finds_products() -> None:
    """The tag the reading gives has products behind it."""
    from giftgenius.catalog import load_products

    assert sum("k-pop" in p.tags for p in load_products()) >= 3


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("my stepdad listens to a lot of blues", "en", "jazz"),
        ("ma sœur écoute beaucoup de rap", "fr", "hip-hop"),
    ],
)
def test_what_someone_listens_to_is_a_taste(text: str, locale: str, tag: str) -> None:
    assert tag in _facts(text, locale).get("interests", [])  # type: ignore[operator]


@pytest.mark.parametrize(
    ("text", "locale", "name"),
    [("Aurora reads constantly", "en", "Aurora"), ("Valence écoute du rap", "fr", "Valence")],
)
def test_a_name_before_a_taste_verb_is_the_recipient_not_a_town(
    text: str, locale: str, name: str
) -> None:
    facts = _facts(text, locale)
    assert facts.get("recipient") == name
    assert "country" not in facts


def test_a_word_qualifying_the_taste_after_it_is_no_one_s_name() -> None:
    facts = _facts("a box of Belgian chocolates for Ana", "en")
    assert facts.get("recipient") == "Ana"


def test_a_word_qualifying_the_taste_after_it_is_no_taste_of_its_own() -> None:
    facts = _facts("my wife is into Greek food and Cuban rum", "en")
    assert facts.get("recipient") == "wife"
    assert "rum" in facts["interests"]
    assert not {"Greek", "Cuban"} & set(facts["interests"])


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("I adore Ruth, what can I get her?", "en", "Ruth"),
        ("on adore Mathilde, une idée ?", "fr", "Mathilde"),
    ],
)
def test_whom_the_speaker_loves_is_a_person(text: str, locale: str, recipient: str) -> None:
    assert _facts(text, locale).get("recipient") == recipient
