"""Answers to questions about the list say what get_gift_details found, in the person's
language: what each gift is, its price, its arrival day and whether that is in time."""

from __future__ import annotations

from typing import Any

from giftgenius.replies.answers import answer, then
from giftgenius.replies.outcomes import Outcome, present


def _gift(number: int, **extra: Any) -> dict[str, Any]:
    gift = {
        "number": number,
        "id": f"g-000{number}",
        "title": f"Gift {number}",
        "description": f"What gift {number} is, in its own words.",
        "price": 10.0 * number,
        "currency": "EUR",
        "price_in_budget_currency": 10.0 * number,
        "delivery_days": 3 + number,
        "arrives_on": f"2026-12-0{4 + number}",
        "in_time_for_deadline": None,
        "in_time_for_date": None,
        "min_age": None,
        "max_age": None,
        "answers": ["hiking"],
        "selected": False,
    }
    return gift | extra


def _result(*gifts: dict[str, Any], **extra: Any) -> dict[str, Any]:
    budget = {"amount": 60, "currency": "EUR"}
    return {"ok": True, "gifts": list(gifts), "state": {"profile": {"budget": budget}}} | extra


def test_a_difference_says_what_each_is_and_which_is_cheaper_and_sooner() -> None:
    result = _result(_gift(1), _gift(2), cheapest=[1], soonest=[1])
    text = answer(result, {"difference"}, "en")
    assert "What gift 1 is" in text and "What gift 2 is" in text
    assert "December 5, 2026" in text and "December 6, 2026" in text
    assert "€10" in text and "€20" in text and "hiking" in text
    assert "The cheapest is number 1." in text and "Number 1 arrives first." in text
    french = answer(result, {"difference"}, "fr")
    assert "5 décembre 2026" in french and "Le moins cher est le numéro 1." in french


def test_a_date_asked_about_is_answered_yes_or_no_with_the_arrival_day() -> None:
    late = _gift(2, in_time_for_date=False)
    early = _gift(1, in_time_for_date=True)
    result = _result(early, late, by_date="2026-12-05", soonest=[1], cheapest=[1])
    text = answer(result, {"arrival"}, "en")
    assert "Yes: **1. Gift 1** should arrive on December 5, 2026" in text
    assert "No: **2. Gift 2** would arrive on December 6, 2026, too late" in text
    assert "What gift" not in text and "cheapest" not in text  # only what was asked
    french = answer(result, {"arrival"}, "fr")
    assert "Oui : **1. Gift 1** devrait arriver le 5 décembre 2026" in french
    assert "Non : **2. Gift 2** arriverait le 6 décembre 2026" in french


def test_without_a_date_asked_the_deadline_is_the_measure() -> None:
    result = _result(_gift(1, in_time_for_deadline=False), deadline="2026-12-04")
    text = answer(result, {"arrival"}, "en")
    assert "arrives on December 5, 2026, too late for December 4, 2026" in text
    assert "(in 4 days)" in answer(_result(_gift(1)), {"arrival"}, "en")


def test_prices_and_ages_alone() -> None:
    converted = _gift(1, price=12.0, currency="USD", price_in_budget_currency=11.04)
    assert "costs $12 (≈ €11.04)" in answer(_result(converted), {"price"}, "en")
    ages = _result(_gift(1, min_age=8, max_age=14), _gift(2, min_age=3))
    text = answer(ages, {"ages"}, "fr")
    assert "de 8 à 14 ans" in text and "à partir de 3 ans" in text


def test_what_comes_after_the_answer() -> None:
    assert "number" in then(None, "en")
    assert "Gift 2" in then("Gift 2", "en") and "confirm" in then("Gift 2", "en")


def test_a_round_with_a_question_goes_back_to_the_model_even_with_a_pick() -> None:
    state = {"step": "finalizing", "missing": [], "candidate_ids": ["g-0001"]}
    state["selected_gift_id"] = "g-0001"
    gift = {"id": "g-0001", "title": "Gift 1", "price": 10.0, "currency": "EUR"}
    picked = Outcome("select_gift", {"gift_id": "g-0001"}, {"ok": True, "selected": gift})
    asked = Outcome("get_gift_details", {"gift_ids": ["g-0001"]}, _result(_gift(1)))
    assert present([picked], state, "en", latest=1) is not None  # a pick alone is shown
    assert present([picked, asked], state, "en", latest=2) is None  # the model answers
    assert present([asked, picked], state, "en", latest=2) is None
