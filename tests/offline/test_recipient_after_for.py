"""Whom the gift is for, when the message names someone else first.

"My friend just had a baby, something for the baby": the first relation said is the
friend, but "for"/"pour" names the recipient. An occasion ("for Father's Day") is no
recipient, and without such a "for" the first relation named still wins.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        (
            "my colleague Sam became a dad on Monday, I'd like a little gift for the baby",
            "en",
            "baby",
        ),
        (
            "ma collègue vient d'avoir un petit garçon, je cherche un cadeau pour le bébé",
            "fr",
            "bébé",
        ),
        ("mon frère se marie en juin, une idée pour ma future belle-sœur ?", "fr", "belle-sœur"),
    ],
)
def test_the_relation_after_for_is_the_recipient(text: str, locale: str, recipient: str) -> None:
    found = extract(text, today=TODAY, locale=locale).facts.get("recipient", "")
    assert recipient in found.lower()


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("my husband grills every weekend, something for Father's Day maybe", "en", "husband"),
        ("for my aunt, she babysits my cousin's kids", "en", "aunt"),
        ("ma sœur fait du yoga, je cherche un truc pour nos dix ans d'amitié", "fr", "sœur"),
    ],
)
def test_without_a_relation_after_for_the_first_one_stays(
    text: str, locale: str, recipient: str
) -> None:
    found = extract(text, today=TODAY, locale=locale).facts.get("recipient", "")
    assert recipient in found.lower()


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("un petit pot de départ pour Hélène, ma cheffe de service", "fr", "Hélène"),
        ("something for Priya, my line manager, she's off to Canada", "en", "Priya"),
    ],
)
def test_a_name_just_before_a_possessive_relation_is_theirs(
    text: str, locale: str, recipient: str
) -> None:
    assert recipient in extract(text, today=TODAY, locale=locale).facts.get("recipient", "")


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Coucou Julie, ma mère adore les orchidées", "fr"),
        ("hey Sam, my wife is into pottery", "en"),
    ],
)
def test_the_person_greeted_is_not_the_recipient(text: str, locale: str) -> None:
    found = extract(text, today=TODAY, locale=locale).facts.get("recipient", "")
    assert found and found.split()[0].lower() in {"mère", "wife"} and len(found.split()) == 1


@pytest.mark.parametrize(
    ("text", "locale"),
    [("40 balles, il est sur Bordeaux", "fr"), ("50 quid, she's in Manchester", "en")],
)
def test_the_place_a_message_gives_is_not_a_name(text: str, locale: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert facts.get("country") in {"FR", "GB"}
    assert "recipient" not in facts


@pytest.mark.parametrize(
    ("text", "locale"), [("Impeccable, je valide", "fr"), ("impeccable, yes", "en")]
)
def test_a_whole_word_is_no_compound_of_a_fragment(text: str, locale: str) -> None:
    assert "interests" not in extract(text, today=TODAY, locale=locale).facts


@pytest.mark.parametrize(
    ("text", "locale", "name"),
    [
        ("Collecting for Grace in payroll, she only drinks herbal tea", "en", "Grace"),
        ("On se cotise pour Grace, elle part en retraite", "fr", "Grace"),
    ],
)
def test_a_name_one_letter_from_a_country_is_still_a_name(
    text: str, locale: str, name: str
) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("recipient") == name
