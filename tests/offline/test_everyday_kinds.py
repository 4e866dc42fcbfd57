"""Everyday kinds of sentences a second held-out set of dialogues showed misread.

Each kind is tried with sentences of our own (none from the held-out set or the corpus), in
English and French where the kind exists in both, with a case that must still be read the
old way.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.catalog.when import parse_deadline
from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 30)
TITLES = ["Cedar Pencil Set", "Walnut Desk Lamp", "Linen Apron", "Copper Kettle"]


def facts(text: str, **kwargs: Any) -> dict[str, Any]:
    return extract(text, today=TODAY, **kwargs).facts


def choosing(text: str, locale: str) -> Any:
    return extract(text, today=TODAY, locale=locale, choosing=True, candidate_titles=TITLES)


# --- answer words one after the other: the last one says it ------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "yes"),
    [
        ("yeah nah, not feeling it", "en", False),
        ("nah yeah, sounds good to me", "en", True),
        ("yep no, hold off", "en", False),
        ("ouais non, pas convaincue", "fr", False),
        ("non ouais, vas-y", "fr", True),
        # one answer, or the same answer twice, reads as before
        ("yeah no worries, go ahead", "en", True),
        ("oui oui, parfait", "fr", True),
        ("nope", "en", False),
    ],
)
def test_a_run_of_answer_words_means_its_last(text: str, locale: str, yes: bool) -> None:
    found = choosing(text, locale)
    assert (found.confirm, found.decline) == (yes, not yes)


# --- a gift refused before the one chosen, without "but" ---------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "position", "price"),
    [
        ("not number 1, number 4 please", "en", 4, None),
        ("not that one, the cheapest", "en", None, "min"),
        ("pas la deuxième, la dernière", "fr", -1, None),
        ("non pas celui-ci ; le 4", "fr", 4, None),
        # the refusal after the choice leaves the choice as it is
        ("the third, not the first", "en", 3, None),
    ],
)
def test_the_choice_is_what_follows_a_refused_one(
    text: str, locale: str, position: int | None, price: str | None
) -> None:
    choice = choosing(text, locale).choice
    assert choice is not None
    assert (choice.position, choice.price) == (position, price)


# --- taking back what was just said, without "but" ---------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("he's into chess. never mind that, he's really into astronomy", "en", ["astronomy"]),
        ("she likes candles, oh wait no, puzzles", "en", ["puzzle"]),
        ("elle aime la poterie, euh non, le dessin", "fr", ["drawing"]),
        ("il adore le jazz. Laisse tomber, il est fan d'opéra", "fr", ["opera"]),
        # a correction that adds keeps what came before
        ("she likes jazz. actually she also likes opera", "en", ["jazz", "opera"]),
    ],
)
def test_a_taste_taken_back_in_the_same_message_is_gone(
    text: str, locale: str, interests: list[str]
) -> None:
    found = facts(text, locale=locale)
    assert found.get("interests") == interests
    assert "dislikes" not in found


@pytest.mark.parametrize(
    ("text", "locale", "budget"),
    [("hmm no, 55 tops", "en", 55.0), ("non attends, 70 € grand max", "fr", 70.0)],
)
def test_taking_back_a_budget_refuses_nothing(text: str, locale: str, budget: float) -> None:
    found = facts(text, locale=locale, profile={"budget": {"max": 90}})
    assert found.get("budget_max") == budget
    assert "dislikes" not in found


# --- short names of tastes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("my niece loves her Nintendo Switch", "en", "video-game"),
        ("mon filleul adore sa PS4", "fr", "video-game"),
        ("my boss is partial to a G and T", "en", "gin"),
        ("ma cousine joue à D&D avec ses amis", "fr", "role-playing"),
        ("he spends his weekends at the allotment", "en", "gardening"),
    ],
)
def test_short_names_of_tastes(text: str, locale: str, tag: str) -> None:
    assert tag in facts(text, locale=locale).get("interests", [])


# --- keenness in other words -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("she never says no to a good whisky", "en", "whisky"),
        ("mon père ne dit jamais non à un bon fromage", "fr", "cheese"),
        ("my nephew devours fantasy novels", "en", "fantasy"),
        ("ma sœur dévore les polars", "fr", "mystery"),
        ("she just joined a climbing gym", "en", "climbing"),
        ("mon fils s'est inscrit au club de tennis", "fr", "tennis"),
        ("she runs the chess club at her school", "en", "chess"),
        ("il kiff les mangas", "fr", "manga"),
    ],
)
def test_keenness_in_other_words(text: str, locale: str, tag: str) -> None:
    found = facts(text, locale=locale)
    assert tag in found.get("interests", [])
    assert tag not in found.get("dislikes", [])


def test_to_run_something_is_not_running_but_running_still_is() -> None:
    assert "running" not in facts("she runs a pottery studio", locale="en").get("interests", [])
    assert "running" in facts("she runs every evening", locale="en").get("interests", [])


def test_a_plain_never_still_refuses() -> None:
    assert "wine" in facts("he never drinks wine", locale="en").get("dislikes", [])


# --- deadlines ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale", "due"),
    [
        ("within the week please", "en", dt.date(2026, 12, 7)),
        ("dans la semaine si possible", "fr", dt.date(2026, 12, 7)),
        ("it has to be there before January 9th", "en", dt.date(2027, 1, 9)),
        ("avant le 12 janvier", "fr", dt.date(2027, 1, 12)),
        ("by the 9th", "en", dt.date(2026, 12, 9)),
        ("d'ici le 9", "fr", dt.date(2026, 12, 9)),
    ],
)
def test_deadline_kinds(text: str, locale: str, due: dt.date) -> None:
    assert parse_deadline(text, TODAY, locale) == due  # type: ignore[arg-type]


def test_a_week_without_a_cue_is_no_deadline() -> None:
    assert parse_deadline("la semaine dernière elle m'en a parlé", TODAY, "fr") is None


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("something for my aunt before January 6th", "en", "aunt"),
        ("avant Noël svp, c'est pour mon parrain", "fr", "parrain"),
        ("needs to arrive before Valentine's Day", "en", None),
    ],
)
def test_a_month_or_a_holiday_is_no_name(text: str, locale: str, recipient: str | None) -> None:
    assert facts(text, locale=locale).get("recipient") == recipient
