"""A place said as a bare piece of a terse list ("…, 45 dollars, Denver", "…, à bordeaux"):
where the gift goes, in any case, in English and French — but a name where a name goes (the
message's first piece, right after the relation it names), and a taste is a taste."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def country(text: str, locale: str) -> str | None:
    found = extract(text, today=TODAY, locale=locale).facts.get("country")
    return None if found is None else str(found)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("for my godmother, 45 dollars, Denver", "US"),
        ("for my nephew who sails, 50 pounds, glasgow", "GB"),
        ("present for my boss, 80 dollars, in seattle", "US"),
        ("my cousin, 40 pounds, Reading", "GB"),
        ("for my grandad, he paints, Manchester, 35 pounds", "GB"),
    ],
)
def test_a_bare_english_place_in_a_terse_list(text: str, expected: str) -> None:
    assert country(text, "en") == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("pour ma marraine, 35 euros, Rennes", "FR"),
        ("pour mon neveu qui nage, 25 euros, à bordeaux", "FR"),
        ("mon cousin, 40 francs, genève", "CH"),
        ("ma tante, 30 €, Nice.", "FR"),
        ("pour mon filleul, il dessine, Toulouse, 20 euros", "FR"),
    ],
)
def test_a_bare_french_place_in_a_terse_list(text: str, expected: str) -> None:
    assert country(text, "fr") == expected


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Victoria, 30 dollars, she loves tea", "en"),
        ("for my sister, Austin, 40 dollars", "en"),
        ("for my aunt, 30 dollars, reading", "en"),
        ("for my uncle, 20 dollars, nice", "en"),
        ("Florence, 25 €, elle adore le café", "fr"),
        ("pour ma tante, Florence, 30 euros", "fr"),
        ("pour mon père, 40 euros, yoga", "fr"),
        ("pour Lincoln, 30 euros, il aime la voile", "fr"),
    ],
)
def test_a_name_or_a_taste_in_a_terse_list_is_no_place(text: str, locale: str) -> None:
    assert country(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("my daughter will be 8 in March", "en"),
        ("he turns 10 in May, loves chess", "en"),
        ("ma nièce aura 9 ans en mai", "fr"),
        ("il fête ses 7 ans en juin", "fr"),
    ],
)
def test_a_month_after_in_is_no_place(text: str, locale: str) -> None:
    """ "In March" was the town of March in Cambridgeshire: a child's birthday month sent
    the gift to Britain."""
    assert country(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [("delivery in December please", "en"), ("I need it by January", "en"),
     ("livraison en Décembre svp", "fr")],
)  # fmt: skip
def test_a_month_no_one_is_named_is_no_recipient(text: str, locale: str) -> None:
    assert "recipient" not in extract(text, today=TODAY, locale=locale).facts
