"""One table of currency words, read by the offline model (and by the checkpoint upgrade, tested
with the codec in tests/persistence)."""

from __future__ import annotations

import re

import pytest

from giftgenius.language.currency import CURRENCY_WORDS, currency_code, currency_pattern


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("€", "EUR"),
        ("eur", "EUR"),
        ("euro", "EUR"),
        ("euros", "EUR"),
        ("£", "GBP"),
        ("gbp", "GBP"),
        ("pounds", "GBP"),
        ("quid", "GBP"),
        ("livres sterling", "GBP"),
        ("livres  sterling", "GBP"),
        ("usd", "USD"),
        ("us$", "USD"),
        ("tomatoes", None),
    ],
)
def test_currency_code(word: str, code: str | None) -> None:
    assert currency_code(word) == code


def test_a_bare_dollar_sign_is_the_configured_currency() -> None:
    assert currency_code("$") == "USD"
    assert currency_code("$", dollar="EUR") == "EUR"


@pytest.mark.parametrize("word", ["dollar", "dollars", "bucks"])
def test_dollar_words_are_the_configured_dollar_or_us_dollars(word: str) -> None:
    assert currency_code(word) == "USD"
    assert currency_code(word, dollar="CAD") == "CAD"
    assert currency_code(word, dollar="EUR") == "USD"  # "50 bucks" is never euros


def test_slang_units_follow_the_conversation() -> None:
    assert currency_code("balles") == "EUR"
    assert currency_code("balles", dollar="CHF") == "CHF"
    assert currency_code("piasses") == "CAD"


def test_within_keeps_only_the_currencies_a_budget_can_hold() -> None:
    budget = {"USD", "EUR", "GBP"}
    assert currency_code("chf", within=budget) is None
    assert currency_code("quid", within=budget) == "GBP"
    assert not re.fullmatch(rf"(?:{currency_pattern(within=budget)})", "chf")


def test_the_pattern_matches_every_word_whole() -> None:
    pattern = re.compile(rf"(?:{currency_pattern()})")
    for word in CURRENCY_WORDS:
        assert pattern.match(word)[0] == word  # type: ignore[index]
    before = re.compile(rf"(?:{currency_pattern(before_the_amount=True)})")
    assert before.fullmatch("us$") and before.fullmatch("€")
    assert not before.fullmatch("quid")
