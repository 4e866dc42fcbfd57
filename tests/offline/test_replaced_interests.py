"""An interest replaced by another is taken back (``remove_interests``), not kept beside the
new one and not refused as a dislike — in the kinds of sentences people use, in English and
French; a taste added, or one the person now dislikes, keeps its old reading."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)
BUDGET = {"amount": 50, "currency": "USD"}
COOKS = {"recipient": "brother", "budget": BUDGET, "interests": ["cooking"]}


def facts(text: str, locale: str, profile: dict[str, Any] = COOKS) -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale, profile=profile).facts


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("forget the cooking, he's into running now", "en"),
        ("not cooking anymore — running", "en"),
        ("not cooking anymore, running", "en"),
        ("scratch the cooking, he took up running", "en"),
        ("he gave up cooking and took up running", "en"),
        ("he doesn't cook anymore, he runs", "en"),
        ("oublie la cuisine, maintenant c'est la course à pied", "fr"),
        ("oublie la cuisine, maintenant c'est la course", "fr"),
        ("laisse tomber la cuisine, il fait du running maintenant", "fr"),
        ("il ne cuisine plus, il court", "fr"),
        ("il a arrêté la cuisine, maintenant il fait de la course à pied", "fr"),
        ("plus de cuisine, il court maintenant", "fr"),
    ],
)
def test_the_old_interest_goes_and_the_new_one_comes(text: str, locale: str) -> None:
    got = facts(text, locale)
    assert got.get("remove_interests") == ["cooking"]
    assert got.get("interests") == ["running"]
    assert "dislikes" not in got


@pytest.mark.parametrize(
    ("text", "locale", "expected"),
    [
        ("he also likes running", "en", {"interests": ["running"]}),
        ("he loves cooking more than ever", "en", {}),
        ("forget the deadline, he likes running", "en", {"interests": ["running"]}),
        ("il aime aussi la course à pied", "fr", {"interests": ["running"]}),
        ("il cuisine de plus en plus", "fr", {}),
        # disliking it now is a refusal too, as before
        ("he doesn't like cooking anymore", "en",
         {"dislikes": ["cooking"], "remove_interests": ["cooking"]}),
    ],
)  # fmt: skip
def test_near_misses_keep_the_old_interest(
    text: str, locale: str, expected: dict[str, Any]
) -> None:
    got = facts(text, locale)
    assert {k: got[k] for k in ("interests", "dislikes", "remove_interests") if k in got} == (
        expected
    )


def test_nothing_is_dropped_that_was_not_recorded() -> None:
    other = {**COOKS, "interests": ["tea"]}
    got = facts("forget the cooking, he's into running now", "en", other)
    assert "remove_interests" not in got and got["interests"] == ["running"]
