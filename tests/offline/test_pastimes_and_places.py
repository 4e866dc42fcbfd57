"""Tastes said through what people keep doing, tend or train for, and places read right:
a landmark says which namesake is meant, and where someone lives is no taste. Our own
sentences in English and French, with near-misses that must not change."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.language.places import near_country, resolve_country
from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


def facts(text: str, locale: str) -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale).facts


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("she spends hours watching birds with her binoculars", "en", "bird"),
        ("he dotes on his dog", "en", "dog"),
        ("my mum is devoted to her dog", "en", "dog"),
        ("he's training for his first half marathon", "en", "running"),
        ("he is always repotting something", "en", "plant"),
        ("he spends weekends at the crag", "en", "climbing"),
        ("she's in the Ramblers", "en", "hiking"),
        ("elle passe des heures à observer les oiseaux", "fr", "bird"),
        ("elle est aux petits soins pour son chien", "fr", "dog"),
        ("elle prépare son premier semi-marathon", "fr", "running"),
        ("elle rempote toujours quelque chose", "fr", "plant"),
        ("il bidouille toujours quelque chose", "fr", "maker"),
    ],
)
def test_a_pastime_said_through_what_someone_does(text: str, locale: str, tag: str) -> None:
    assert tag in facts(text, locale).get("interests", [])


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("she's always late", "en"),
        ("he always complains about work", "en"),
        ("he's a member of the Rotary", "en"),
        ("elle est toujours en retard", "fr"),
        ("il est au Rotary", "fr"),
    ],
)
def test_near_misses_name_no_pastime_and_no_one(text: str, locale: str) -> None:
    got = facts(text, locale)
    assert "interests" not in got and "recipient" not in got


@pytest.mark.parametrize(
    ("text", "locale", "country"),
    [
        ("my aunt lives in Salem, just north of Boston", "en", "US"),
        ("she lives just north of Boston, in Andover", "en", "US"),
        ("he lives in Kingston, near Toronto", "en", "CA"),
        ("he lives in Waterloo, not far from Toronto", "en", "CA"),
        ("she's in Cambridge, near Boston", "en", "US"),
        ("elle habite à Salem, juste au nord de Boston", "fr", "US"),
        ("il habite à Waterloo, pas loin de Toronto", "fr", "CA"),
        ("elle habite à Laval, près de Montréal", "fr", "CA"),
    ],
)
def test_a_landmark_says_which_namesake(text: str, locale: str, country: str) -> None:
    got = facts(text, locale)
    assert got["country"] == country
    assert got.get("recipient") in (None, "aunt")  # the landmark is nobody's name
    assert resolve_country(text, locale) == country


@pytest.mark.parametrize(
    ("text", "country"),
    [
        ("she lives just north of Boston", "US"),  # the landmark alone
        ("she moved from Toronto to London", "GB"),  # two places, none near the other
        ("Paris, Texas", "US"),
        ("she lives near Paris", "FR"),
        ("Kingston", "JM"),
    ],
)
def test_near_misses_read_as_before(text: str, country: str) -> None:
    assert resolve_country(text, "en") == country
    if "near" not in text or "," not in text:
        assert near_country(text, "en") is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("gift for my sister in Tokyo, 50 dollars", "en"),
        ("my brother lives in Kyoto and loves hiking", "en"),
        ("pour ma cousine à Kyoto, 40 euros", "fr"),
        ("elle vit à Tokyo depuis deux ans", "fr"),
    ],
)
def test_living_somewhere_is_a_place_not_a_taste(text: str, locale: str) -> None:
    got = facts(text, locale)
    assert got["country"] == "JP" and "japan" not in got.get("interests", [])


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("she loves Japan", "en"),
        ("he's obsessed with Tokyo", "en"),
        ("elle adore le Japon", "fr"),
        ("elle est fan de Tokyo", "fr"),
    ],
)
def test_loving_a_place_is_a_taste(text: str, locale: str) -> None:
    assert "japan" in facts(text, locale).get("interests", [])
