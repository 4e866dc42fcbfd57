"""What a child spends their days on, said without a liking verb: "basically lives on
Minecraft", "has just started doing magic tricks". And "watch" the verb ("who'll watch",
"loves to watch birds") is no wristwatch; the watch someone wears or collects still is."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


def facts(text: str, locale: str = "en") -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale).facts


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("my nephew, 10, basically lives on Fortnite", "video-game"),
        ("she practically lives in the pool all summer", "swimming"),
        ("he literally lives for football these days", "football"),
        ("he has just started doing magic tricks at dinner", "magic-trick"),
        ("she's been doing origami since the holidays", "origami"),
    ],
)
def test_what_they_spend_their_days_on_is_a_taste(text: str, tag: str) -> None:
    assert tag in facts(text).get("interests", [])


@pytest.mark.parametrize(
    "text",
    [
        "he lives on a farm near Leeds",  # an address, no adverb
        "she is doing well at school",
        "what are you doing for her birthday?",
    ],
)
def test_where_someone_lives_or_how_they_do_names_no_taste(text: str) -> None:
    assert "interests" not in facts(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("he does card tricks for anyone who'll watch", {"magic-trick"}),
        ("she loves to watch birds from the window", {"bird"}),
        ("they'd watch football all day", {"football"}),
    ],
)
def test_watch_the_verb_is_no_wristwatch(text: str, expected: set[str]) -> None:
    assert set(facts(text).get("interests", [])) == expected


@pytest.mark.parametrize(
    "text", ["he collects watches", "he loves his old watch", "il adore les montres"]
)
def test_a_watch_worn_or_collected_is_still_a_watch(text: str) -> None:
    assert "watch" in facts(text, "fr" if "montres" in text else "en").get("interests", [])
