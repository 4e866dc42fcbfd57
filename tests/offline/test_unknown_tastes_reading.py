"""Not knowing what the recipient likes is read as such, in both languages: said in full
anywhere ("no idea what she likes"), or said bare ("whatever", "peu importe") as the answer
to the question about tastes — and not knowing what to *give*, or a taste said with doubt,
is no such word."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)
ASKED = {"recipient": "colleague", "budget": {"amount": 25, "currency": "EUR"}}


def facts(text: str, locale: str, profile: dict[str, Any] | None = None) -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale, profile=profile or {}).facts


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("no idea what she likes", "en"),
        ("Secret Santa for Priya from accounts, £15, I haven't a clue what she's into", "en"),
        ("I honestly don't know what my cousin enjoys", "en"),
        ("not sure what kind of stuff he'd like, really", "en"),
        ("I barely know the guy, 20 bucks max", "en"),
        ("no idea about his hobbies at all", "en"),
        ("je ne sais pas du tout ce qu'il aime", "fr"),
        ("aucune idée de ce qu'elle aime, 30 euros", "fr"),
        ("je connais pas ses goûts, c'est une collègue", "fr"),
        ("je le connais à peine, c'est le nouveau du service", "fr"),
        ("franchement j'en sais rien de ce qui lui plaît", "fr"),
    ],
)
def test_said_in_full_it_is_read_anywhere(text: str, locale: str) -> None:
    assert facts(text, locale).get("tastes_unknown") is True


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("honestly not a clue", "en"),
        ("whatever", "en"),
        ("um, no idea sorry", "en"),
        ("anything really", "en"),
        ("dunno tbh", "en"),
        ("aucune idée", "fr"),
        ("peu importe", "fr"),
        ("bof, je sais pas trop", "fr"),
        ("honnêtement, aucune idée", "fr"),
    ],
)
def test_said_bare_it_answers_the_question_about_tastes(text: str, locale: str) -> None:
    assert facts(text, locale, ASKED).get("tastes_unknown") is True
    # the first thing said, or once tastes are known, it answers nothing about tastes
    assert "tastes_unknown" not in facts(text, locale)
    known = {**ASKED, "interests": ["tea"]}
    assert "tastes_unknown" not in facts(text, locale, known)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("no idea what to get her", "en"),  # what to give, not what she likes
        ("not sure about the budget", "en"),
        ("I don't know if she likes candles", "en"),
        ("dunno, she likes tea I think", "en"),
        ("no idea what she likes, maybe gardening?", "en"),  # a taste said after all
        ("je ne sais pas quoi lui offrir", "fr"),
        ("aucune idée pour le budget", "fr"),
        ("je sais pas trop, elle aime le thé", "fr"),
        ("elle aime tout ce qui est jardinage", "fr"),
    ],
)
def test_near_misses_say_nothing_of_unknown_tastes(text: str, locale: str) -> None:
    assert "tastes_unknown" not in facts(text, locale, ASKED)


def test_the_words_of_not_knowing_cue_no_taste_and_keep_who() -> None:
    got = facts("no clue what she's into honestly", "en", ASKED)
    assert got == {"tastes_unknown": True}  # "into" cues no taste "honestly"
    got = facts("I have no idea what my boss is into, 50 dollars", "en")
    assert got["recipient"] == "boss" and got["tastes_unknown"] is True
    got = facts("we've talked like twice, no clue what he's into", "en", ASKED)
    assert "interests" not in got
    # a colleague "from IT" is from a department, not from Italy
    got = facts("Secret Santa at work, drew a guy from IT, no idea what he likes", "en")
    assert "country" not in got and got["tastes_unknown"] is True
