"""The shared amount reader on money as people say it (sentences our own, EN and FR): sums
named by a word, loose round figures, "at the very most", sums on top, things counted, and
figures of zero or less, which are no budget but are not dropped in silence either."""

from __future__ import annotations

from decimal import Decimal

import pytest

from giftgenius.language.amounts import parse_amount, refused_amount


@pytest.mark.parametrize(
    ("text", "locale", "amount", "kind"),
    [
        ("a tenner", "en", 10, "at_most"),
        ("a fiver tops", "en", 5, "at_most"),
        ("roughly a tenner", "en", 10, "about"),
        ("a couple hundred", "en", 200, "about"),
        ("a couple of hundred dollars", "en", 200, "about"),
        ("at the very most 60", "en", 60, "at_most"),
        ("45 and not a penny more", "en", 45, "at_most"),
        ("un billet de 50", "fr", 50, "at_most"),
        ("une couple de cents piasses", "fr", 200, "about"),
        ("grand maximum 35 euros", "fr", 35, "at_most"),
        ("35 euros tout au plus", "fr", 35, "at_most"),
    ],
)
def test_money_words(text: str, locale: str, amount: int, kind: str) -> None:
    found = parse_amount(text, locale, "EUR")
    assert found is not None and found.amount == amount and found.kind == kind


@pytest.mark.parametrize(
    ("text", "locale", "added"),
    [
        ("another fiver on top", "en", True),
        ("add 10", "en", True),
        ("15 more", "en", True),
        ("rajoute 10 balles", "fr", True),
        ("5 euros de plus", "fr", True),
        ("ajoute encore 5 euros", "fr", True),
        ("10 more than that", "en", None),  # "more than" is a floor, not a sum on top
        ("il me reste encore 50 euros", "fr", False),
        ("50 euros", "fr", False),
    ],
)
def test_a_sum_on_top_is_marked(text: str, locale: str, added: bool | None) -> None:
    found = parse_amount(text, locale, "EUR")
    assert (None if found is None else found.added) == added


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("about 20 guests", "en"),
        ("we'll be about twenty", "en"),
        ("she has 10 friends", "en"),
        ("10 more minutes", "en"),
        ("a score of films", "en"),
        ("une vingtaine d'invités", "fr"),
        ("on sera une douzaine", "fr"),
        ("une dizaine de roses", "fr"),
    ],
)
def test_things_counted_are_no_money(text: str, locale: str) -> None:
    assert parse_amount(text, locale, "EUR") is None


@pytest.mark.parametrize(
    ("text", "locale", "figure", "currency"),
    [
        ("-20 euros", "en", -20, "EUR"),
        ("0 dollars", "en", 0, "USD"),
        ("zero quid", "en", 0, "GBP"),
        ("budget: -15", "en", -15, "EUR"),
        ("zéro euro", "fr", 0, "EUR"),
        ("budget −30 balles", "fr", -30, "EUR"),
    ],
)
def test_a_figure_of_zero_or_less(text: str, locale: str, figure: int, currency: str) -> None:
    assert parse_amount(text, locale, "EUR") is None  # no budget of 20 from "-20"
    assert refused_amount(text, locale, "EUR") == (Decimal(figure), currency)


@pytest.mark.parametrize(
    "text", ["20-40 euros", "0,50 euros", "she's 0 for 3", "zero waste", "40 euros", "2-3 kids"]
)
def test_no_figure_of_zero_or_less(text: str) -> None:
    assert refused_amount(text, "en", "EUR") is None
