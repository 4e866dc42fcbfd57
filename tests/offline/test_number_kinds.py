"""The one rule for what binds a number (``offline/number_kinds``), on its own: a day of the
deadline its clause sets, a town's district; nothing else (sentences our own, EN and FR)."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.number_kinds import blank, bound_spans, districts

DUE = dt.date(2026, 12, 19)


def _due_when(cue: str):  # a stand-in for the deadline reader: due when the clause has a cue
    return lambda clause: DUE if cue in clause.folded else None


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("before the 20th", ["20th"]),
        ("avant le 20", ["20"]),
        ("by the 19th", ["19th"]),
        ("le 2, et avant le 20", ["20"]),  # the other clause sets no day
        ("the 3rd one before the 20th", ["20th"]),  # only the deadline's own day
    ],
)
def test_a_day_is_the_deadline_s_own(text: str, bound: list[str]) -> None:
    spans = bound_spans(text, "en", _due_when("20") if "20" in text else _due_when("19"))
    assert [text[a:b] for a, b in spans] == bound


@pytest.mark.parametrize(
    ("text", "bound"),
    [
        ("Paris 15e", ["15e"]),
        ("she lives in Paris 15th", ["15th"]),
        ("Lyon 3e, budget 40", ["3e"]),
        ("à Paris dans le 11e", ["11e"]),
        ("le 16e arrondissement", ["16e"]),
        ("Paris 20 euros", []),  # money after a town
        ("Austin, 40 dollars", []),  # a name where a name goes, then money
        ("Le 3", []),  # an article is no town
        ("dans le 2", []),  # a lead binds only with a town said
        ("the 2nd", []),
    ],
)
def test_a_district_follows_a_town(text: str, bound: list[str]) -> None:
    assert [text[a:b] for a, b in districts(text, "fr")] == bound


def test_blanking_keeps_the_length() -> None:
    text = "Paris 15e, avant le 20"
    spans = districts(text, "fr")
    assert blank(text, spans) == "Paris    , avant le 20"
