"""A habit said with its time ("every dawn", "tous les matins") makes what follows a taste,
as "spends hours" does: the pastime is told by what the person keeps doing."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("she is out every dawn with her binoculars watching the birds on the marsh", "en", "bird"),
        ("every weekend he is at the allotment digging", "en", "gardening"),
        ("elle est dehors tous les matins avec ses jumelles à observer les oiseaux", "fr", "bird"),
    ],
)
def test_a_habit_with_its_time_tells_a_taste(text: str, locale: str, tag: str) -> None:
    assert tag in extract(text, today=TODAY, locale=locale).facts.get("interests", [])


def test_a_time_alone_tells_no_taste() -> None:
    facts = extract("every morning counts, 40 dollars for my mum", today=TODAY, locale="en").facts
    assert "interests" not in facts
