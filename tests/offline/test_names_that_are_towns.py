"""A first name that is also a town somewhere ("Austin", "Florence", "Sydney", "Raj") names
the recipient; it is a place only as a country's own name or after a place word."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "locale", "name"),
    [
        ("a farewell present for Austin from accounts, he likes golf", "en", "Austin"),
        ("something for Ali in the warehouse, he's a keen cook", "en", "Ali"),
        ("a retirement gift for Sydney in marketing, she loves tea", "en", "Sydney"),
        ("un pot de départ pour Florence de la compta, elle aime le thé", "fr", "Florence"),
        (
            "un petit cadeau pour Victoria qui part en retraite, elle adore les plantes",
            "fr",
            "Victoria",
        ),
    ],
)
def test_a_name_that_is_also_a_town_is_the_recipient(text: str, locale: str, name: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert facts.get("recipient") == name
    assert "country" not in facts


@pytest.mark.parametrize(
    ("text", "locale", "country"),
    [
        ("my aunt lives in Austin", "en", "US"),
        ("pour ma sœur qui habite à Florence", "fr", "IT"),
    ],
)
def test_after_a_place_word_it_is_still_a_place(text: str, locale: str, country: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert facts.get("country") == country
