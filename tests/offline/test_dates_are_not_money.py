"""The year of a date is no budget: "by December 20, 2026" once set a $2,026 budget."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("a watch for my grandad, it has to be there by January 9, 2027", "en"),
        ("pour mon parrain, livré avant le 8 janvier 2027 si possible", "fr"),
    ],
)
def test_the_year_of_a_dated_deadline_sets_no_budget(text: str, locale: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert facts.get("deadline") is not None
    assert "budget_max" not in facts


@pytest.mark.parametrize(
    ("text", "locale", "amount"),
    [
        ("for my godson, by January 9, 2027, 45 dollars", "en", 45.0),
        ("pour ma filleule, 2000 euros, c'est pour ses 18 ans", "fr", 2000.0),
    ],
)
def test_money_said_beside_a_date_is_still_money(text: str, locale: str, amount: float) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("budget_max") == amount
