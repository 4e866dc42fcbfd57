"""Questions about the gifts on show are read as questions, in English and French, and
requests put as questions are not (``offline/asking.py``)."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.asking import Question, gift_ids, read_question

TODAY = dt.date(2026, 12, 1)
TITLES = [
    "Blister Care Kit for Long Trails",
    "The Hiker's Guide to the Alps",
    "Ultralight Hiking Daypack (20 L)",
    "Compact Binoculars 8x25",
    "Topographic Map Poster of Mont Blanc",
    "Emergency Bivvy and First Aid Kit",
]


def _read(text: str, locale: str = "en") -> Question | None:
    return read_question(
        text,
        today=TODAY,
        locale=locale,  # type: ignore[arg-type]
        listed=len(TITLES),
        titles=TITLES,
        answers=[["hiking"]] * len(TITLES),
    )


# (sentence, what it asks, the places it names)
ENGLISH = [
    ("What's the difference between the first and the second one?", {"difference"}, (1, 2)),
    ("tell me more about the third", {"describe"}, (3,)),
    ("how much is the 4th?", {"price"}, (4,)),
    ("can you tell me more about #3?", {"describe"}, (3,)),
    ("compare 2 and 5", {"difference"}, (2, 5)),
    ("is number 2 ok for a 10 year old?", {"ages"}, (2,)),
    ("when would the 5th arrive?", {"arrival"}, (5,)),
    ("and the last one, how long does delivery take?", {"arrival"}, (6,)),
    ("is the daypack waterproof?", {"describe"}, (3,)),
    ("what's in the first aid kit?", {"describe"}, (6,)),
    ("describe the poster please", {"describe"}, (5,)),
    ("which of the first two is better for a beginner?", {"difference"}, (1, 2)),
    ("the first and the last, which one is lighter?", {"difference"}, (1, 6)),
    ("does it come with a case?", {"describe"}, ()),
    ("hold on, how long does delivery take?", {"arrival"}, ()),
    ("is it the cheapest?", {"price"}, ()),
    ("How long would the 2nd one take to get here?", {"arrival"}, (2,)),
    ("Can you compare the first two?", {"difference"}, (1, 2)),
    ("What's the Alps guide like?", {"describe"}, (2,)),
    ("Is #3 suitable for a beginner?", {"describe"}, (3,)),
    ("Any difference between 4 and 5?", {"difference"}, (4, 5)),
    ("the second one is better?", {"difference"}, (2,)),
    ("What are they made of?", {"describe"}, ()),  # "are" is no slip of "Care"
    ("isn't it too big?", {"describe"}, ()),
]
FRENCH = [
    ("c'est quoi la différence entre le 1 et le 2 ?", {"difference"}, (1, 2)),
    ("il arrive quand, le deuxième ?", {"arrival"}, (2,)),
    ("dis-m'en plus sur le premier", {"describe"}, (1,)),
    ("quelle différence entre la première et la dernière ?", {"difference"}, (1, 6)),
    ("combien coûte le 4 ?", {"price"}, (4,)),
    ("tu peux me décrire le 2 ?", {"describe"}, (2,)),
    ("c'est quoi le 3 ?", {"describe"}, (3,)),
    ("parle-moi des deux premiers", {"describe"}, (1, 2)),
    ("est-ce que ça convient à un enfant de 8 ans ?", {"ages"}, ()),
    ("et les jumelles, elles arrivent quand ?", {"arrival"}, ()),
    ("le sac à dos est-il étanche ?", {"describe"}, ()),
    ("Le 2, il fait quelle taille ?", {"describe"}, (2,)),
    ("Vous pouvez m'en dire plus sur le 4 ?", {"describe"}, (4,)),
    ("Ça coûte combien en euros, le dernier ?", {"price"}, (6,)),
    ("C'est adapté pour un enfant de 6 ans, le 3 ?", {"ages"}, (3,)),
    ("le poster est encadré ?", {"describe"}, (5,)),
    ("qu'est-ce qu'il y a dans la trousse de secours ?", {"describe"}, ()),
    ("Lequel conseillez-vous pour un débutant ?", {"difference"}, ()),
]


@pytest.mark.parametrize(("text", "asks", "places"), ENGLISH)
def test_english_questions_about_the_list(text: str, asks: set[str], places: tuple) -> None:
    question = _read(text)
    assert question is not None, text
    assert question.asks == asks and question.positions == places
    assert question.by_date is None  # no date asked: nothing to compare


@pytest.mark.parametrize(("text", "asks", "places"), FRENCH)
def test_french_questions_about_the_list(text: str, asks: set[str], places: tuple) -> None:
    question = _read(text, "fr")
    assert question is not None, text
    assert question.asks == asks and question.positions == places


@pytest.mark.parametrize(
    ("text", "locale", "day", "places"),
    [
        ("will it arrive before December 20?", "en", dt.date(2026, 12, 19), ()),
        ("will the binoculars get here by the 10th?", "en", dt.date(2026, 12, 10), (4,)),
        ("are both in time for Christmas?", "en", dt.date(2026, 12, 24), ()),
        ("Est-ce qu'il sera là pour Noël ?", "fr", dt.date(2026, 12, 24), ()),
        ("arrive-t-il avant le 20 décembre ?", "fr", dt.date(2026, 12, 19), ()),
        ("est-ce que le troisième arrivera avant le 15 ?", "fr", dt.date(2026, 12, 14), (3,)),
    ],
)
def test_a_date_asked_about_is_read_and_is_no_place(
    text: str, locale: str, day: dt.date, places: tuple
) -> None:
    question = _read(text, locale)
    assert question is not None and "arrival" in question.asks
    assert question.by_date == day and question.positions == places


@pytest.mark.parametrize(
    "text",
    ["which one arrives first?", "so what's the difference between them all?"],
)
def test_which_one_asks_about_the_whole_list(text: str) -> None:
    question = _read(text)
    assert question is not None and question.every and question.by_date is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # polite requests: done as said, "?" or not
        ("can I have the second one?", "en"),
        ("could you show cheaper ones?", "en"),
        ("can you make it under 40?", "en"),
        ("could you show me other ideas?", "en"),
        ("je peux avoir le deuxième ?", "fr"),
        ("tu peux me montrer des idées moins chères ?", "fr"),
        ("tu peux baisser le budget à 40 € ?", "fr"),
        # changes put as questions
        ("what about under 40?", "en"),
        ("is there anything cheaper?", "en"),
        ("any other ideas?", "en"),
        ("et si on mettait 50 euros ?", "fr"),
        ("vous avez d'autres idées ?", "fr"),
        # choices, with or without "?"
        ("the second one?", "en"),
        ("ok the second one", "en"),
        ("I'll take the second, does it arrive by Friday?", "en"),
        ("le deuxième ?", "fr"),
        ("je prends le 2", "fr"),
        ("Pouvez-vous me montrer le deuxième en détail ? Sinon je le prends directement.", "fr"),
        # a new deadline, said as one
        ("make it arrive by the 20th", "en"),
        ("il faut que ça arrive avant le 20", "fr"),
        # asking about something else than the gifts
        ("what's your name?", "en"),
        ("hi, I'm back, can you remind me of the options?", "en"),
        ("me revoilà, on en était où ?", "fr"),
        ("do you have a moka pot?", "en"),
        ("yes", "en"),
        ("oui", "fr"),
    ],
)
def test_near_misses_are_no_questions(text: str, locale: str) -> None:
    assert _read(text, locale) is None


def test_nothing_is_a_question_without_a_list() -> None:
    assert read_question("tell me more about the third", today=TODAY, locale="en", listed=0) is None


IDS = ["g-1", "g-2", "g-3", "g-4"]


def test_the_gifts_a_question_means() -> None:
    ask = frozenset({"describe"})
    assert gift_ids(Question(ask, (3,)), IDS, ["g-1"]) == ["g-3"]
    assert gift_ids(Question(ask), IDS, ["g-2"]) == ["g-2"]  # "it": the one discussed
    assert gift_ids(Question(ask), IDS, []) == IDS  # nothing meant yet: all of them
    assert gift_ids(Question(ask, every=True), IDS, ["g-2"]) == IDS
    assert gift_ids(Question(ask, both=True), IDS, ["g-2", "g-4"]) == ["g-2", "g-4"]
    assert gift_ids(Question(ask, both=True), IDS, ["g-2"]) == ["g-1", "g-2"]
    differ = frozenset({"difference"})
    assert gift_ids(Question(differ, (3,)), IDS, ["g-1"]) == ["g-1", "g-3"]
    assert gift_ids(Question(differ), IDS, ["g-1"]) == IDS
    assert gift_ids(Question(ask, (9,)), IDS, []) == IDS  # a place the list lacks names none
