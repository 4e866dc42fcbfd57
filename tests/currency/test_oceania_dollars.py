"""Australian and New Zealand dollars are budget currencies: the catalog ships to Australia,
and a grandmother in Melbourne was told "I can't compare prices in AUD"."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.catalog import load_rates, price_in
from giftgenius.offline.nlu import extract
from tests.catalog.product_factory import make

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale", "currency"),
    [
        ("no more than 60 aud", "en", "AUD"),
        ("up to 50 Australian dollars", "en", "AUD"),
        ("A$45 max", "en", "AUD"),
        ("40 NZ dollars", "en", "NZD"),
        ("pas plus de 70 dollars australiens", "fr", "AUD"),
        ("50 dollars néo-zélandais", "fr", "NZD"),
        # where the speaker lives makes their dollars local, as in Canada
        ("we live in Melbourne, 50 dollars", "en", "AUD"),
        ("we're in Auckland, 40 bucks", "en", "NZD"),
        # the recipient's town is where the gift goes, not which dollars the speaker has
        ("he lives in Sydney, 40 dollars", "en", "USD"),
    ],
)
def test_oceania_dollars_are_read(text: str, locale: str, currency: str) -> None:
    assert extract(text, today=TODAY, locale=locale).facts["currency"] == currency


def test_a_price_converts_to_oceania_dollars() -> None:
    rates = load_rates()
    assert price_in(make("g-9001", price=10, currency="USD"), "AUD", rates) == 15.3
    assert price_in(make("g-9001", price=10, currency="USD"), "NZD", rates) == 16.8
