"""Money words whose currency depends on where the speaker is (said in the same message) or
the place already known: "$" in Canada, "livres" in Britain; and "$
canadiens" written apart."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def facts(text: str, locale: str = "fr", **kwargs: Any) -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale, **kwargs).facts


@pytest.mark.parametrize(
    ("text", "currency"),
    [
        ("J'habite à Montréal, j'ai 40 $ à mettre", "CAD"),
        ("je vis à Sherbrooke et je peux mettre 35 $", "CAD"),
        ("I live in Toronto, 50 dollars max", "CAD"),
        # the recipient's town says where to ship, not which dollars the speaker has
        ("he lives in Toronto, 50 dollars max", "USD"),
        ("elle habite à Montréal, 40 $ max", "USD"),
        ("j'ai 70 $ canadiens", "CAD"),
        ("pas plus de 80 dollars canadiens", "CAD"),
        ("budget 30 $ CAD", "CAD"),
        # without a Canadian place, "$" stays the conversation's dollar
        ("il habite à Boston, 40 $ max", "USD"),
        ("45 $ max", "USD"),
    ],
)
def test_dollars_follow_the_place_in_the_same_message(text: str, currency: str) -> None:
    assert facts(text)["currency"] == currency


@pytest.mark.parametrize(
    ("text", "profile", "expected"),
    [
        ("max 40 livres", {"country": "GB"}, ("GBP", 40)),
        ("jusqu'à 25 livres", {"country": "GB"}, ("GBP", 25)),
        ("elle vit à Manchester, pas plus de 30 livres", {}, ("GBP", 30)),
        ("max 40 $", {"country": "CA"}, ("CAD", 40)),
    ],
)
def test_local_money_words_follow_the_known_place(
    text: str, profile: dict[str, Any], expected: tuple[str, int]
) -> None:
    found = facts(text, profile=profile)
    assert (found["currency"], found["budget_max"]) == expected


def test_livres_elsewhere_are_not_pounds() -> None:
    assert facts("max 40 livres", profile={"country": "FR"}).get("currency") != "GBP"


@pytest.mark.parametrize(
    "text",
    [
        "à Glasgow, elle lit 4 livres par mois",
        "elle vit à Leeds et lit deux livres chaque semaine",
    ],
)
def test_books_counted_by_the_week_or_month_are_no_pounds(text: str) -> None:
    found = facts(text)
    assert "budget_max" not in found and found["interests"] == ["book"]
