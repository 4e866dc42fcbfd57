"""Clipped verbs, fillers, qualifiers in lists, workplace gift exchanges, local dollars:
kinds of sentences the offline reader once misread.

Each kind is tried with sentences written for it (no line of any dialogue set), in English and
French where the kind exists in both, with a case that must still be read the old way.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


def facts(text: str, locale: str) -> dict[str, Any]:
    return extract(text, today=TODAY, locale=locale).facts


# --- a doing joined by "and" after a verb clipped onto its doer ---------------------------


@pytest.mark.parametrize(
    ("text", "locale", "interest"),
    [
        ("my stepson's 16 and surfs most days", "en", "surfing"),
        ("she's retired now and knits for hours", "en", "knitting"),
        ("je crois qu'elle brode beaucoup", "fr", "embroidery"),
    ],
)  # fmt: skip
def test_a_doing_after_a_clipped_verb_or_que_is_read(text: str, locale: str, interest: str) -> None:
    assert interest in facts(text, locale).get("interests", [])


def test_an_everyday_verb_after_a_clipped_verb_is_still_no_interest() -> None:
    assert "interests" not in facts("he's 30 and lives in Leeds", "en")


# --- a possessive pronoun opening a sentence is no one's name -----------------------------


@pytest.mark.parametrize(
    "text", ["Mine adores crime novels", "Hers is the hardest: she likes cycling"]
)
def test_a_possessive_pronoun_is_not_a_name(text: str) -> None:
    assert "recipient" not in facts(text, "en")


def test_a_name_opening_a_sentence_is_still_a_name() -> None:
    assert facts("Maya loves chess", "en")["recipient"] == "Maya"


# --- a taste for wordplay is a taste for humour --------------------------------------------


@pytest.mark.parametrize(
    ("text", "locale"),
    [("my cousin lives for wordplay", "en"), ("il raffole des calembours", "fr")],
)
def test_wordplay_is_humour(text: str, locale: str) -> None:
    assert facts(text, locale)["interests"] == ["humor"]


# --- French "bricolage" is work with tools, not yarn crafts --------------------------------


@pytest.mark.parametrize(
    "text", ["mon oncle est un bricoleur du dimanche", "elle bricole tout le temps"]
)
def test_bricolage_is_woodworking(text: str) -> None:
    assert facts(text, "fr")["interests"] == ["woodworking"]


def test_english_diy_stays_a_craft() -> None:
    assert facts("she's big on DIY", "en")["interests"] == ["craft"]


# --- "like" after a comma is a filler, not a liking ---------------------------------------


def test_like_after_a_comma_takes_no_free_word() -> None:
    assert facts("she's hooked on owls, like the whole hallway is covered", "en") == {
        "interests": ["owls"]
    }


def test_like_after_its_doer_is_still_a_liking() -> None:
    assert facts("they like chess", "en")["interests"] == ["chess"]


# --- a gift exchange at work: a colleague, and its day is the deadline --------------------


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("we do a Secret Santa at the office, budget 10 pounds", "en", "colleague"),
        ("Père Noël secret au taf, 10 €", "fr", "collègue"),
    ],
)  # fmt: skip
def test_a_workplace_draw_is_for_a_colleague(text: str, locale: str, recipient: str) -> None:
    assert facts(text, locale)["recipient"] == recipient


def test_a_workplace_draw_keeps_the_person_drawn_when_named() -> None:
    said = facts("Secret Santa at work, I got my manager, she likes tea", "en")
    assert said["recipient"] == "manager"


@pytest.mark.parametrize(
    ("text", "locale", "day"),
    [
        ("our office Secret Santa is on the 15th", "en", dt.date(2026, 12, 15)),
        ("le Père Noël secret du bureau a lieu le 16", "fr", dt.date(2026, 12, 16)),
    ],
)  # fmt: skip
def test_the_day_of_the_exchange_is_the_deadline(text: str, locale: str, day: dt.date) -> None:
    assert facts(text, locale)["deadline"] == day


# --- "we're in …" / "on est à …": the speaker's dollars are that country's -----------------


@pytest.mark.parametrize(
    ("text", "locale"),
    [("we're in Montreal, 40 dollars", "en"), ("on est à Montréal, 40 dollars", "fr")],
)
def test_dollars_of_where_we_are(text: str, locale: str) -> None:
    assert facts(text, locale)["currency"] == "CAD"


def test_dollars_of_where_the_recipient_is_stay_the_default() -> None:
    assert facts("he's in Toronto, 40 dollars", "en")["currency"] == "USD"


# --- a word that qualifies a named taste in a short list is no taste of its own ------------


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("he's into chess and ridiculous socks", "en", ["chess", "sock"]),
        ("il aime les échecs et les chaussettes ridicules", "fr", ["chess", "sock"]),
    ],
)  # fmt: skip
def test_a_qualifier_in_a_list_is_not_a_taste(text: str, locale: str, interests: list[str]) -> None:
    assert facts(text, locale)["interests"] == interests


def test_an_unknown_item_of_a_list_is_still_kept() -> None:
    assert facts("he loves jazz and pickleball", "en")["interests"] == ["jazz", "pickleball"]
