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


@pytest.mark.parametrize("text", ["1", "3", "2.", "max 4"])
def test_a_tiny_figure_without_a_currency_is_no_budget(text: str) -> None:
    """A lone "1" answering "who is it for?" once set a $1 budget and emptied every search."""
    assert "budget_max" not in extract(text, today=TODAY, locale="en").facts


@pytest.mark.parametrize(
    ("text", "locale", "amount"),
    [("5", "en", 5.0), ("3 euros", "fr", 3.0), ("4$", "en", 4.0), ("10", "fr", 10.0)],
)
def test_a_figure_from_five_or_with_a_currency_is_still_a_budget(
    text: str, locale: str, amount: float
) -> None:
    assert extract(text, today=TODAY, locale=locale).facts["budget_max"] == amount
