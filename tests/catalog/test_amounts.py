"""Amounts: figures in words or digits, currencies in slang or symbols, and what bounds they set."""

from __future__ import annotations

from decimal import Decimal

import pytest

from giftgenius.language.amounts import Amount, currency_words, parse_amount
from giftgenius.language.currency import CURRENCY_WORDS

# text, locale, default currency → amount, currency, kind, minimum, approximate
CASES = [
    # English
    ("no more than 50 bucks", "en", "USD", "50", "USD", "at_most", None, False),
    ("40 quid tops", "en", "USD", "40", "GBP", "at_most", None, False),
    ("about 30 euros", "en", "USD", "30", "EUR", "about", None, True),
    ("around 50", "en", "USD", "50", "USD", "about", None, True),
    ("30ish", "en", "USD", "30", "USD", "about", None, True),
    ("thirty-ish quid", "en", "USD", "30", "GBP", "about", None, True),
    ("something like 25 bucks or so", "en", "USD", "25", "USD", "about", None, True),
    ("between 20 and 40", "en", "EUR", "40", "EUR", "between", "20", False),
    ("from $20 to $40", "en", "USD", "40", "USD", "between", "20", False),
    ("20 to 40 bucks", "en", "USD", "40", "USD", "between", "20", False),
    ("at least 20 euros", "en", "USD", "20", "EUR", "at_least", "20", False),
    ("not less than 20", "en", "USD", "20", "USD", "at_least", "20", False),
    ("200 CHF", "en", "EUR", "200", "CHF", "at_most", None, False),
    ("up to 100 Swiss francs", "en", "USD", "100", "CHF", "at_most", None, False),
    ("5000 yen", "en", "USD", "5000", "JPY", "at_most", None, False),
    ("25 pounds", "en", "USD", "25", "GBP", "at_most", None, False),
    ("£1,200", "en", "USD", "1200", "GBP", "at_most", None, False),
    ("fifty bucks", "en", "USD", "50", "USD", "at_most", None, False),
    ("ten quid", "en", "GBP", "10", "GBP", "at_most", None, False),
    ("a hundred dollars", "en", "USD", "100", "USD", "at_most", None, False),
    ("C$ 30", "en", "USD", "30", "CAD", "at_most", None, False),
    ("30 CAD", "en", "USD", "30", "CAD", "at_most", None, False),
    ("US$ 20", "en", "CAD", "20", "USD", "at_most", None, False),
    ("Budget is 60 USD", "en", "EUR", "60", "USD", "at_most", None, False),
    ("budget: 75", "en", "USD", "75", "USD", "at_most", None, False),
    ("I can spend 80", "en", "USD", "80", "USD", "at_most", None, False),
    ("49.99", "en", "USD", "49.99", "USD", "at_most", None, False),
    ("50 — no, make it 60", "en", "USD", "60", "USD", "at_most", None, False),
    ("about a hundred bucks", "en", "USD", "100", "USD", "about", None, True),
    ("my budget is around fifty pounds", "en", "USD", "50", "GBP", "about", None, True),
    ("50 bucks for my sister who is 12", "en", "USD", "50", "USD", "at_most", None, False),
    ("€30-€50", "en", "EUR", "50", "EUR", "between", "30", False),
    ("$20–$40", "en", "USD", "40", "USD", "between", "20", False),
    ("between 20 and 40 dollars", "en", "CAD", "40", "CAD", "between", "20", False),
    ("50 USD or less", "en", "USD", "50", "USD", "at_most", None, False),
    ("50 bucks or more", "en", "USD", "50", "USD", "at_least", "50", False),
    ("USD 40", "en", "EUR", "40", "USD", "at_most", None, False),
    ("twenty five quid", "en", "USD", "25", "GBP", "at_most", None, False),
    # French
    ("pas plus de cinquante balles", "fr", "EUR", "50", "EUR", "at_most", None, False),
    ("cent balles", "fr", "CHF", "100", "CHF", "at_most", None, False),
    ("vingt piasses", "fr", "CAD", "20", "CAD", "at_most", None, False),
    ("vingt piasses", "fr", "EUR", "20", "CAD", "at_most", None, False),
    ("environ 40 €", "fr", "EUR", "40", "EUR", "about", None, True),
    ("40 € environ", "fr", "EUR", "40", "EUR", "about", None, True),
    ("dans les 50 balles", "fr", "EUR", "50", "EUR", "about", None, True),
    ("une cinquantaine d'euros", "fr", "EUR", "50", "EUR", "about", None, True),
    ("de 20 à 40 balles", "fr", "EUR", "40", "EUR", "between", "20", False),
    ("20-40€", "fr", "EUR", "40", "EUR", "between", "20", False),
    ("entre vingt et quarante euros", "fr", "EUR", "40", "EUR", "between", "20", False),
    ("1 234,50 €", "fr", "EUR", "1234.50", "EUR", "at_most", None, False),
    ("€12,50", "fr", "EUR", "12.50", "EUR", "at_most", None, False),
    ("no more than 1.500 €", "fr", "EUR", "1500", "EUR", "at_most", None, False),
    ("quatre-vingt-dix euros max", "fr", "EUR", "90", "EUR", "at_most", None, False),
    ("deux cents euros", "fr", "EUR", "200", "EUR", "at_most", None, False),
    ("mille balles", "fr", "EUR", "1000", "EUR", "at_most", None, False),
    ("50€ grand max", "fr", "EUR", "50", "EUR", "at_most", None, False),
    ("30 francs suisses", "fr", "EUR", "30", "CHF", "at_most", None, False),
    ("50 livres sterling", "fr", "EUR", "50", "GBP", "at_most", None, False),
    ("45 dollars canadiens", "fr", "EUR", "45", "CAD", "at_most", None, False),
    ("au moins 30 euros", "fr", "EUR", "30", "EUR", "at_least", "30", False),
    ("moins de 60 balles", "fr", "EUR", "60", "EUR", "at_most", None, False),
    ("septante francs", "fr", "CHF", "70", "CHF", "at_most", None, False),
    ("une centaine d'euros", "fr", "EUR", "100", "EUR", "about", None, True),
    ("genre 30 balles", "fr", "EUR", "30", "EUR", "about", None, True),
    ("trente euros et des poussières", "fr", "EUR", "30", "EUR", "about", None, True),
    ("pas plus de 50 balles, elle a 12 ans", "fr", "EUR", "50", "EUR", "at_most", None, False),
    ("un budget de 2 000 €", "fr", "EUR", "2000", "EUR", "at_most", None, False),
    ("deux mille euros", "fr", "EUR", "2000", "EUR", "at_most", None, False),
    ("40 dollars US", "fr", "EUR", "40", "USD", "at_most", None, False),
    ("40 $ US", "fr", "CAD", "40", "USD", "at_most", None, False),
    ("vingt-cinq euros", "fr", "EUR", "25", "EUR", "at_most", None, False),
]


@pytest.mark.parametrize(
    ("text", "locale", "default", "amount", "currency", "kind", "minimum", "approximate"), CASES
)
def test_amounts(text, locale, default, amount, currency, kind, minimum, approximate):
    found = parse_amount(text, locale, default)
    assert found is not None
    assert (found.amount, found.currency, found.kind, found.minimum, found.approximate) == (
        Decimal(amount),
        currency,
        kind,
        Decimal(minimum) if minimum else None,
        approximate,
    )


@pytest.mark.parametrize(
    ("text", "default", "currency"),
    [
        ("$40", "USD", "USD"),
        ("$40", "CAD", "CAD"),
        ("$40", "EUR", "EUR"),  # a bare "$" is whatever the conversation's currency is
        ("50 dollars", "CAD", "CAD"),
        ("50 dollars", "EUR", "USD"),  # dollars are a dollar, the local one if there is one
        ("50 bucks", "AUD", "AUD"),
        ("50 balles", "EUR", "EUR"),
        ("50 balles", "CHF", "CHF"),
    ],
)
def test_dollars_and_balles_follow_the_default_currency(text, default, currency):
    assert parse_amount(text, "en", default).currency == currency


def test_a_figure_without_currency_says_the_default_was_assumed():
    assert parse_amount("under 40", "en", "GBP") == Amount(
        amount=Decimal(40), currency="GBP", currency_assumed=True
    )
    assert parse_amount("50", "en", "GBP").currency_assumed
    assert not parse_amount("50 quid", "en", "USD").currency_assumed


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("", "en"),
        ("she's 12", "en"),
        ("number 3", "en"),
        ("under 12 years old", "en"),
        ("my sister is 30 and loves tea", "en"),
        ("2 kids", "en"),
        ("iPhone 15", "en"),
        ("by December 20", "en"),
        ("I'll think about it", "en"),
        ("a board game for 2 players", "en"),
        ("sous 10 jours", "fr"),
        ("elle a 12 ans", "fr"),
        ("un cadeau pour ma sœur", "fr"),
        ("livraison le 12/12", "fr"),
        ("50% off", "en"),
        ("0 euros", "fr"),
        ("it costs 3 times more", "en"),
        ("the 3 of us", "en"),
    ],
)
def test_numbers_that_are_not_money(text, locale):
    assert parse_amount(text, locale, "USD") is None


def test_the_currency_table_keeps_every_word_the_offline_reader_knew():
    """offline/money.py's words, and "us$" which the checkpoint upgrade knew: one table now."""
    old = {
        "$": "$", "€": "EUR", "£": "GBP", "usd": "USD", "us$": "USD", "eur": "EUR", "gbp": "GBP",
        "euro": "EUR", "euros": "EUR", "dollar": "$", "dollars": "$", "bucks": "$",
        "pound": "GBP", "pounds": "GBP", "quid": "GBP", "livre sterling": "GBP",
        "livres sterling": "GBP",
    }  # fmt: skip
    assert {word: CURRENCY_WORDS[word] for word in old} == old


def test_babel_adds_every_currency_name_in_both_languages():
    words = currency_words()
    assert words["swiss francs"] == "CHF"
    assert words["francs suisses"] == "CHF"
    assert words["couronnes suedoises"] == "SEK"
    assert words["swedish kronor"] == "SEK"
    assert words["nz$"] == "NZD"
    assert parse_amount("300 couronnes suédoises", "fr", "EUR").currency == "SEK"
