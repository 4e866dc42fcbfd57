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


@pytest.mark.parametrize("word", ["$", "dollar", "dollars", "bucks"])
def test_a_bare_dollar_is_the_configured_currency(word: str) -> None:
    assert currency_code(word) == "USD"
    assert currency_code(word, dollar="EUR") == "EUR"


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
        ("100 bucks", 100, "EUR", (0, 9)),  # dollar=EUR below: the configured currency
    ],
)
def test_the_offline_budget_reader_uses_the_table(
    text: str, amount: float, currency: str, span: tuple[int, int]
) -> None:
    fact, spans = extract_budget(text, dollar="EUR")
    assert fact is not None
    assert (fact.amount, fact.currency) == (amount, currency)
    assert spans == [span]
