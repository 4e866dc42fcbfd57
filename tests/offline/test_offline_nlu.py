"""The offline model's reading of free text: facts, intents, numbers and language."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.lang import detect_locale
from giftgenius.offline.nlu import extract
from giftgenius.offline.numbers import words_to_digits

TODAY = dt.date(2026, 11, 29)  # a Sunday
KNOWN_BUDGET = {"budget": {"amount": 50, "currency": "USD"}, "interests": ["tea"]}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # budgets and currencies
        ("budget 50 $", {"budget_max": 50, "currency": "USD"}),
        ("$50 tops", {"budget_max": 50, "currency": "USD"}),
        ("€50", {"budget_max": 50, "currency": "EUR"}),
        ("50 euros", {"budget_max": 50, "currency": "EUR"}),
        ("50€", {"budget_max": 50, "currency": "EUR"}),
        ("£30", {"budget_max": 30, "currency": "GBP"}),
        ("30 pounds", {"budget_max": 30, "currency": "GBP"}),
        ("50 USD", {"budget_max": 50, "currency": "USD"}),
        ("max 120", {"budget_max": 120}),
        ("up to 70", {"budget_max": 70}),
        ("jusqu'à 50", {"budget_max": 50}),
        ("under 40", {"budget_max": 40}),
        ("between 30 and 60", {"budget_max": 60, "budget_min": 30}),
        ("entre 30 et 60 €", {"budget_max": 60, "budget_min": 30, "currency": "EUR"}),
        ("around 40", {"budget_max": 44}),
        ("fifty dollars", {"budget_max": 50, "currency": "USD"}),
        ("cinquante euros", {"budget_max": 50, "currency": "EUR"}),
        ("quatre-vingts euros max", {"budget_max": 80, "currency": "EUR"}),
        ("a hundred bucks", {"budget_max": 100, "currency": "USD"}),
        ("budget de soixante-dix euros", {"budget_max": 70, "currency": "EUR"}),
        # recipients and corrections
        ("a gift for my sister", {"recipient": "sister"}),
        ("c'est pour mon père", {"recipient": "father"}),
        ("no, my brother not my sister", {"recipient": "brother"}),
        # interests and dislikes
        ("she's into hiking and photography", {"interests": ["hiking", "photography"]}),
        ("loves coffee", {"interests": ["coffee"]}),
        ("il aime les jeux de société et la caféine", {"interests": ["board-game", "coffee"]}),
        ("il déteste les mugs", {"dislikes": ["mug"]}),
        ("no candles please", {"dislikes": ["candle"]}),
        ("pas de bougies", {"dislikes": ["candle"]}),
        ("a déjà trop de carnets", {"dislikes": ["notebook"]}),
        (
            "il aime le café mais déteste les bougies",
            {"interests": ["coffee"], "dislikes": ["candle"]},
        ),
        # ages
        ("she's 12", {"age": 12}),
        ("il a 40 ans", {"age": 40}),
        ("turning thirty", {"age": 30}),
        ("a 12-year-old", {"age": 12}),
        # countries
        ("livraison en Belgique", {"country": "BE"}),
        ("ships to Germany", {"country": "DE"}),
        ("in the UK", {"country": "GB"}),
        ("delivery to FR", {"country": "FR"}),
        ("France", {"country": "FR"}),
        # deadlines, relative to the state's today
        ("by December 20", {"deadline": dt.date(2026, 12, 20)}),
        ("avant le 24 décembre", {"deadline": dt.date(2026, 12, 24)}),
        ("next Friday", {"deadline": dt.date(2026, 12, 4)}),
        ("in 5 days", {"deadline": dt.date(2026, 12, 4)}),
        ("dans deux semaines", {"deadline": dt.date(2026, 12, 13)}),
        ("pour Noël", {"deadline": dt.date(2026, 12, 24)}),
        ("by January 5", {"deadline": dt.date(2027, 1, 5)}),
    ],
)
def test_facts(text: str, expected: dict[str, Any]) -> None:
    facts = extract(text, today=TODAY).facts
    assert {k: facts.get(k) for k in expected} == expected
    assert set(facts) <= set(expected) | {"currency"}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("actually make it 70", {"budget_max": 70}),
        ("finalement 80 €", {"budget_max": 80, "currency": "EUR"}),
        ("he doesn't like tea anymore", {"dislikes": ["tea"], "remove_interests": ["tea"]}),
    ],
)
def test_corrections_use_the_known_profile(text: str, expected: dict[str, Any]) -> None:
    assert extract(text, today=TODAY, profile=KNOWN_BUDGET).facts == expected


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("Is the third one good for someone who plays with friends on weekends?", None),
        ("would my sister like the second one?", None),
        ("Actually it's for my brother", "brother"),
        ("no, my brother not my sister", "brother"),
        ("finalement c'est pour ma mère", "mother"),
    ],
)
def test_a_known_recipient_changes_only_when_the_gift_is_retargeted(
    text: str, recipient: str | None
) -> None:
    facts = extract(text, today=TODAY, profile={"recipient": "colleague"}).facts
    assert facts.get("recipient") == recipient


def test_a_bare_number_is_not_a_budget_without_one() -> None:
    assert extract("actually 70", today=TODAY).facts == {}
    assert extract("actually 70", today=TODAY, profile=KNOWN_BUDGET).facts == {"budget_max": 70}


def test_seed_example() -> None:
    first = extract(
        "J'ai besoin d'un cadeau pour un collègue développeur, budget jusqu'à 50 $, il aime "
        "les jeux de société et la caféine",
        today=TODAY,
    )
    assert first.facts["recipient"] == "colleague"
    assert first.facts["budget_max"] == 50
    assert first.facts["currency"] == "USD"
    assert {"board-game", "coffee"} <= set(first.facts["interests"])
    assert "dislikes" not in first.facts
    second = extract("Il déteste les mugs et a déjà trop de carnets", today=TODAY)
    assert second.facts == {"dislikes": ["mug", "notebook"]}


def test_dollar_follows_the_configured_currency() -> None:
    facts = extract("budget 40 $", today=TODAY, dollar="EUR").facts
    assert facts["currency"] == "EUR"
    assert extract("40 USD", today=TODAY, dollar="EUR").facts["currency"] == "USD"


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("the second one", 2),
        ("je prends le premier", 1),
        ("number 3", 3),
        ("option 2", 2),
        ("le dernier", -1),
        ("I'll take the first one", 1),
        ("3", 3),
        ("la troisième", 3),
    ],
)
def test_choices(text: str, choice: int) -> None:
    assert extract(text, today=TODAY).choice == choice


def test_a_date_is_not_a_choice() -> None:
    out = extract("le premier décembre", today=TODAY)
    assert out.choice is None
    assert out.facts == {"deadline": dt.date(2026, 12, 1)}


def test_title_fragment_picks_the_one_distinct_title() -> None:
    titles = ["Wingspan board game", "Catan board game", "Ethiopian coffee beans"]
    assert extract("the Wingspan looks great", today=TODAY, candidate_titles=titles).choice_title
    assert extract("a board game", today=TODAY, candidate_titles=titles).choice_title is None


@pytest.mark.parametrize(
    ("text", "confirm"),
    [
        ("yes", True),
        ("oui", True),
        ("confirm", True),
        ("c'est parfait, valide", True),
        ("I'll take the first one, confirm it", True),
        ("not yet", False),
        ("no, wait", False),
        ("she loves tea", False),
    ],
)
def test_confirmation(text: str, confirm: bool) -> None:
    assert extract(text, today=TODAY).confirm is confirm


@pytest.mark.parametrize(
    "text", ["I'll come back later", "je reviendrai plus tard", "bye", "à plus", "see you"]
)
def test_leaving(text: str) -> None:
    assert extract(text, today=TODAY).leave


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("save this profile as sister", "sister"),
        ("enregistre ce profil sous 'papa'", "papa"),
        ("please remember him as my boss", "boss"),
    ],
)
def test_save_profile(text: str, label: str) -> None:
    out = extract(text, today=TODAY)
    assert out.save_label == label
    assert "recipient" not in out.facts


@pytest.mark.parametrize(
    ("text", "label", "facts"),
    [
        ("same friend as last time", "friend", {}),
        ("comme la dernière fois pour ma sœur", "sœur", {}),
        ("same friend as last time but a bigger budget: 80", "friend", {"budget_max": 80}),
        ("Same friend as last time (sam), but 90 dollars", "sam", {"budget_max": 90}),
    ],
)
def test_load_profile(text: str, label: str, facts: dict[str, Any]) -> None:
    out = extract(text, today=TODAY)
    assert out.load_label == label
    assert {k: v for k, v in out.facts.items() if k != "currency"} == facts


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("quatre-vingt-dix-neuf", "99"),
        ("soixante et onze", "71"),
        ("between thirty and sixty", "between 30 and 60"),
        ("one thousand two hundred", "1200"),
        ("the first one", "the first one"),
        ("by Sept 20", "by Sept 20"),
    ],
)
def test_number_words(text: str, digits: str) -> None:
    assert words_to_digits(text) == digits


@pytest.mark.parametrize(
    ("text", "default", "locale"),
    [
        ("Il déteste les mugs", "en", "fr"),
        ("She loves hiking", "fr", "en"),
        ("oui", "en", "fr"),
        ("ok", "fr", "fr"),
        ("42", "en", "en"),
    ],
)
def test_detect_locale(text: str, default: str, locale: str) -> None:
    assert detect_locale(text, default=default) == locale  # type: ignore[arg-type]
