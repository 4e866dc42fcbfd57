"""An age said as a bare figure of a relation ("my little brother is 7 and…", "my niece's 9
now") is the recipient's age; a figure of money or of a quantity is not."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "age"),
    [
        ("my niece's 9 now and mad about horses", 9),
        ("my godson is 12, loves football", 12),
        ("our grandad is 81 and still gardens", 81),
        ("the twins' big sister is 15 but acts 30", 15),
        ("my goddaughter just turned 11!", 11),
    ],
)
def test_a_bare_figure_said_of_a_relation_is_an_age(text: str, age: int) -> None:
    assert extract(text, today=TODAY, locale="en").facts.get("age") == age


@pytest.mark.parametrize(
    "text",
    [
        "my budget's 30, for my nephew",
        "for my nephew, it's 30",
        "my brother is 2 hours away",
        "my son's limit is 25 and he likes lego",
        "my sister is 5 foot tall",
        "the budget for my nephew is 25",
    ],
)
def test_a_figure_of_money_or_distance_is_no_age(text: str) -> None:
    assert "age" not in extract(text, today=TODAY, locale="en").facts
