"""The offline model's sentences read as a person would write them, in both languages:
babel's prices, numbers and dates, plurals, natural labels."""

from __future__ import annotations

from typing import Any

import pytest

from giftgenius.replies import texts as r

NBSP = "\xa0"


def candidate(i: int, **extra: Any) -> dict[str, Any]:
    return {
        "id": f"g-{i}",
        "title": f"Gift {i}",
        "price": 49.9,
        "currency": "EUR",
        "delivery_days": 1,
        **extra,
    }


def test_one_idea_is_singular_in_both_languages() -> None:
    budget = {"amount": 50, "currency": "EUR"}
    en = r.candidate_list([candidate(1)], budget, "en")
    fr = r.candidate_list([candidate(1)], budget, "fr")
    assert en.startswith("Here is 1 idea that fits (up to €50):")
    assert "€49.90, delivered in 1 day" in en and "Shall I record the order draft for it?" in en
    assert fr.startswith(f"Voici 1 idée qui convient (jusqu'à 50{NBSP}€) :")
    assert f"49,90{NBSP}€, livré en 1 jour" in fr
    assert "ideas" not in en and "idées" not in fr


def test_several_ideas_are_plural_and_prices_converted_in_the_locale() -> None:
    budget = {"amount": 60, "currency": "USD"}
    rows = [
        candidate(1, price_in_budget_currency=54.25, delivery_days=3),
        candidate(2, currency="USD", price=12.5),
    ]
    en = r.candidate_list(rows, budget, "en")
    fr = r.candidate_list(rows, budget, "fr")
    assert "Here are 2 ideas that fit (up to $60):" in en
    assert "€49.90 (≈ $54.25), delivered in 3 days" in en
    assert "Voici 2 idées qui conviennent" in fr
    assert f"49,90{NBSP}€ (≈ 54,25{NBSP}$US), livré en 3 jours" in fr
    assert "Which one would you like?" in en and "Lequel vous plaît ?" in fr


def test_profile_recap_uses_natural_labels_and_babel_dates() -> None:
    profile = {
        "recipient": "colleague",
        "budget": {"amount": 40, "currency": "EUR", "min_amount": 20},
        "interests": ["board-game", "coffee"],
        "age": 1,
        "country": "BE",
        "deadline": "2026-12-24",
    }
    en = r.profile_facts(profile, "en")
    fr = r.profile_facts(profile, "fr")
    assert en.startswith("for your colleague; budget from €20 to €40; likes board games and coffee")
    assert "1 year old" in en and "delivery to Belgium" in en
    assert "to arrive by December 24, 2026" in en
    assert fr.startswith(f"pour votre collègue ; budget de 20{NBSP}€ à 40{NBSP}€")
    assert "centres d'intérêt : jeux de société et café" in fr
    assert "1 an ;" in fr and "pays de livraison : Belgique" in fr
    assert "à recevoir au plus tard le 24 décembre 2026" in fr
    assert "·" not in fr and "pour :" not in fr


@pytest.mark.parametrize(
    ("said", "locale", "expected"),
    [
        ("uncle", "en", "your uncle"),
        ("my godmother", "en", "your godmother"),
        ("ma marraine", "fr", "votre marraine"),
        ("oncle", "fr", "votre oncle"),
        ("mes parents", "fr", "vos parents"),
        ("Marco", "fr", "Marco"),
        ("teen", "fr", "un ado"),
        ("anyone", "en", "someone"),
    ],
)
def test_the_recipient_is_named_as_the_person_named_them(
    said: str, locale: str, expected: str
) -> None:
    assert r.recipient(said, locale) == expected


def test_a_name_joins_the_relation() -> None:
    profile = {"recipient": "uncle", "recipient_name": "Dave", "audience": "anyone"}
    assert r.profile_facts(profile, "en") == "for your uncle Dave"
    assert r.profile_facts({**profile, "recipient": "oncle"}, "fr") == "pour votre oncle Dave"
    only_a_name = {"recipient": "Marco", "recipient_name": "Marco"}
    assert r.profile_facts(only_a_name, "fr") == "pour Marco"


def test_the_budget_example_is_in_the_persons_currency() -> None:
    assert "(for example $50)" in r.ask_missing(["budget"], "en")
    assert f"(par exemple 50{NBSP}€)" in r.ask_missing(["budget"], "fr")
    assert r.ask_missing(["recipient", "budget", "interests"], "en").count(",") == 2


def test_rejection_reasons_are_told_in_the_persons_words() -> None:
    rejected = {
        "over budget (max 50.00 USD)": 3,
        "does not ship to FR": 2,
        "cannot arrive by 2026-12-20": 1,
        "matches dislike 'mug'": 1,
    }
    assert r.rejection_reasons(rejected, "en") == (
        "over $50: 3; not delivered to France: 2; too late for December 20, 2026: 1; "
        "matching “mugs”: 1"
    )
    fr = r.rejection_reasons(rejected, "fr")
    assert fr.startswith(f"au-dessus de 50{NBSP}$US : 3 ; livraison impossible (France) : 2")
    assert "trop tard pour le 20 décembre 2026 : 1" in fr


def test_unserved_interests_are_said_plainly_with_alternatives() -> None:
    items = [
        {"interest": "birds", "in_catalog": False, "suggestions": ["gardening", "outdoors"]},
        {"interest": "whisky", "in_catalog": True, "suggestions": []},
    ]
    assert r.unserved_note(items, "en") == (
        "I have nothing for “birds” in the catalog. The closest I have: gardening and outdoors. "
        "Nothing for “whisky” fits your budget and your other criteria."
    )
    fr = r.unserved_note(items[:1], "fr")
    assert fr == (
        "Je n'ai rien pour « birds » dans le catalogue. "
        "Ce qui s'en rapproche le plus : gardening et outdoors."
    )


def test_choose_prompt_counts() -> None:
    assert r.choose_prompt(1, "en") == (
        "Shall I record the order draft for the idea above? Reply yes, or tell me what to change."
    )
    assert r.choose_prompt(4, "fr").startswith("Laquelle des 4 idées vous plaît ?")


def test_the_first_of_the_month_is_an_ordinal_in_french() -> None:
    from giftgenius.formats import date

    assert date("2026-12-01", "fr") == "1er décembre 2026"
    assert date("2026-12-01", "en") == "December 1, 2026"
    assert date("2026-12-24", "fr") == "24 décembre 2026"


def test_country_names_read_after_to() -> None:
    assert r.profile_facts({"country": "US"}, "en") == "delivery to the United States"
    assert r.profile_facts({"country": "FR"}, "en") == "delivery to France"
    assert r.profile_facts({"country": "US"}, "fr") == "pays de livraison : États-Unis"


def test_an_absurd_amount_is_still_written() -> None:
    """A model may send any number (-1e28 as a budget): the refusal must still say it."""
    from giftgenius import formats

    assert formats.money(-1e28, "EUR", "en") == "-1e+28 EUR"
    assert formats.money(float("inf"), "USD", "fr") == "inf USD"
    assert formats.money(1e14, "USD", "en") == "$100,000,000,000,000"
