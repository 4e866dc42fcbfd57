"""Numbers read for what they are, with a list on show (sentences our own, EN and FR).

- A day of the month bound to a deadline or an occasion is no place in the list, and its
  deadline is kept; so is a town's district ("Paris 15e"), which is no budget of 15 € either.
- Money as people say it: a sum named by a word ("a tenner"), a round figure said loosely
  ("a couple hundred", "une vingtaine"), "at the very most", a sum on top of the budget
  known ("another fiver on top"); things or people counted are no budget; a figure of zero
  or less is passed on for the tool to refuse; a new single amount replaces a range.
- Near-misses that must not change: a bare ordinal, "number 4", "le 3e" still pick.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 2)
TITLES = ["Sencha Tin", "Earl Grey Box", "Herbal Sampler", "Glass Infuser", "Bamboo Chest"]
KNOWN = {"recipient": "sister", "interests": ["tea"], "country": "BE",
         "budget": {"amount": 40, "currency": "EUR"}}  # fmt: skip
RANGE = {**KNOWN, "budget": {"amount": 50, "currency": "EUR", "min_amount": 40}}


def _read(text: str, profile: dict[str, Any] | None = None, choosing: bool = True) -> Any:
    return extract(
        text,
        today=TODAY,
        profile=KNOWN if profile is None else profile,
        candidate_titles=TITLES if choosing else None,
        choosing=choosing,
    )


@pytest.mark.parametrize(
    ("text", "deadline"),
    [
        ("actually it has to arrive before the 20th", dt.date(2026, 12, 19)),
        ("she needs it by the 3rd", dt.date(2026, 12, 3)),
        ("oh and it must get there before the 15th", dt.date(2026, 12, 14)),
        ("her birthday is on the 20th", dt.date(2026, 12, 20)),
        ("il faut que ça arrive avant le 20", dt.date(2026, 12, 19)),
        ("c'est pour le 15 décembre", dt.date(2026, 12, 15)),
        ("d'ici le 3 si possible", dt.date(2026, 12, 3)),
        ("son anniversaire est le 20", dt.date(2026, 12, 20)),
        ("livraison avant le 1er janvier", dt.date(2026, 12, 31)),
    ],
)
def test_a_day_in_a_deadline_is_no_pick(text: str, deadline: dt.date) -> None:
    read = _read(text)
    assert read.choice is None
    assert read.facts.get("deadline") == deadline


@pytest.mark.parametrize(
    "text",
    [
        "she lives in Paris 15th",
        "elle habite Paris 15e",
        "Lyon 3e",
        "elle habite à Paris dans le 11e",
        "ship it to Marseille, in the 8th arrondissement",
        "c'est dans le 16e arrondissement",
    ],
)
def test_a_district_is_no_pick_and_no_budget(text: str) -> None:
    read = _read(text)
    assert read.choice is None
    assert "budget_max" not in read.facts


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("the 2nd", 2),
        ("le 3e", 3),
        ("number 4", 4),
        ("the 3rd please", 3),
        ("la 4e", 4),
        ("le 2", 2),
        ("dans le 2", 2),  # no town: a lead alone binds nothing
        ("I'll take the 20th", 20),  # no date cue: a pick, out of range (the agent says so)
        ("I'll take the 2nd, it has to arrive by the 20th", 2),
        ("the 3rd one, it arrives by the 5th?", 3),
    ],
)
def test_a_number_with_no_day_or_place_cue_still_picks(text: str, position: int) -> None:
    read = _read(text)
    assert read.choice is not None and read.choice.position == position


@pytest.mark.parametrize(
    ("text", "budget", "approximate"),
    [
        ("a tenner", 10.0, None),
        ("about a tenner", 10.0, 10.0),
        ("keep it to a fiver", 5.0, None),
        ("a tenner tops", 10.0, None),
        ("a couple hundred", 200.0, 200.0),
        ("a couple of hundred quid", 200.0, 200.0),
        ("at the very most 60", 60.0, None),
        ("60 at the absolute most", 60.0, None),
        ("60 tops", 60.0, None),
        ("une vingtaine d'euros", 20.0, 20.0),
        ("grand maximum 60 euros", 60.0, None),
        ("60 balles à tout casser", 60.0, None),
        ("un billet de vingt", 20.0, None),
        ("une couple de cents piasses", 200.0, 200.0),
    ],
)
def test_money_as_people_say_it(text: str, budget: float, approximate: float | None) -> None:
    read = _read(text, choosing=False, profile={})
    assert read.facts.get("budget_max") == budget
    assert read.approximate == approximate


@pytest.mark.parametrize(
    ("text", "budget"),
    [
        ("another fiver on top", 45.0),
        ("add another fiver", 45.0),
        ("add 10", 50.0),
        ("10 more", 50.0),
        ("rajoute 10 balles", 50.0),
        ("5 euros de plus", 45.0),
        ("rajoute un billet de 20", 60.0),
    ],
)
def test_a_sum_on_top_raises_the_known_cap(text: str, budget: float) -> None:
    assert _read(text, choosing=False).facts.get("budget_max") == budget


def test_a_sum_on_top_keeps_the_floor_known() -> None:
    facts = _read("another fiver on top", RANGE, choosing=False).facts
    assert facts["budget_max"] == 55.0 and facts["budget_min"] == 40.0


@pytest.mark.parametrize(
    "text",
    [
        "about ten of them",
        "a dozen roses",
        "she has 3 kids",
        "une dizaine de personnes",
        "une douzaine de roses",
        "une vingtaine d'invités",
        "on sera une vingtaine",
        "about 20 guests",
        "she already owns ten of them",
        "she has another 10 friends coming",
        "10 more minutes",
        "add 2 more books",
        "10 more than last year",
        "il me reste encore 50 pages",
        "she loves film scores",
        "zero waste is her thing",
    ],
)
def test_counting_is_no_budget(text: str) -> None:
    assert "budget_max" not in _read(text, choosing=False).facts


@pytest.mark.parametrize(
    ("text", "figure"),
    [("-20 euros", -20.0), ("0 dollars", 0.0), ("budget: -15", -15.0), ("zéro euro", 0.0),
     ("budget 0", 0.0)],
)  # fmt: skip
def test_a_figure_of_zero_or_less_is_passed_on_to_be_refused(text: str, figure: float) -> None:
    facts = _read(text, choosing=False).facts
    assert facts["budget_max"] == figure and "budget_min" not in facts


@pytest.mark.parametrize("text", ["make it 70", "say 70 max", "disons 70", "let's say 70 euros"])
def test_a_single_amount_replaces_a_range(text: str) -> None:
    facts = _read(text, RANGE, choosing=False).facts
    assert facts["budget_max"] == 70.0 and "budget_min" not in facts


@pytest.mark.parametrize("text", ["20-40 euros", "between 20 and 40", "entre 20 et 40 balles"])
def test_a_range_is_no_negative_figure(text: str) -> None:
    facts = _read(text, choosing=False, profile={}).facts
    assert facts["budget_max"] == 40.0 and facts["budget_min"] == 20.0
