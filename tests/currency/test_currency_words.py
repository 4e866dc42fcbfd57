"""One table of currency words, read by the offline model (and by the checkpoint upgrade, tested
with the codec in tests/persistence)."""

from __future__ import annotations

import re

import pytest

from giftgenius.currency import CURRENCY_WORDS, currency_code, currency_pattern
from giftgenius.offline.money import extract_budget


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


@pytest.mark.parametrize(
    ("text", "amount", "currency", "span"),
    [
        ("50 euros", 50, "EUR", (0, 8)),  # the whole word is read, no stray "os" left behind
        ("40 quid", 40, "GBP", (0, 7)),
        ("us$30", 30, "USD", (0, 5)),
        ("60 livres sterling", 60, "GBP", (0, 18)),
        ("100 bucks", 100, "USD", (0, 9)),  # dollar=EUR below: bucks are still dollars
        ("$100", 100, "EUR", (0, 4)),  # a bare "$" is the configured currency
    ],
)
def test_the_offline_budget_reader_uses_the_table(
    text: str, amount: float, currency: str, span: tuple[int, int]
) -> None:
    fact, spans = extract_budget(text, dollar="EUR")
    assert fact is not None
    assert (fact.amount, fact.currency) == (amount, currency)
    assert spans == [span]
