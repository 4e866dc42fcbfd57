"""Typos repaired toward known words, and real words left alone (see ``offline/spelling.py``)."""

from __future__ import annotations

import datetime as dt
import subprocess
import sys

import pytest

from giftgenius.offline.nlu import extract
from giftgenius.offline.spelling import mend

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        ("ma tante adorre la randonée", "fr", "hiking"),
        ("il est passioné de photographie", "fr", "photography"),
        ("mon père aime le jardinnage", "fr", "gardening"),
        ("elle fait des puzles le soir", "fr", "puzzle"),
        ("mon oncle adore la muzique", "fr", "music"),
        ("my uncle loves gardenning", "en", "gardening"),
        ("she is into photograpy", "en", "photography"),
    ],
)
def test_a_slip_in_a_taste_or_a_liking_word_is_repaired(text: str, locale: str, tag: str) -> None:
    facts = extract(text, today=TODAY, locale=locale).facts
    assert tag in facts.get("interests", [])


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("il faut coller les photos", "fr"),  # coller is no collier
        ("elle aime bouger", "fr"),  # bouger is no bougie
        ("mon frère Jardinage arrive", "fr"),  # capitalised: a name, never touched
        ("the parcel is late", "en"),
    ],
)
def test_real_words_and_names_are_left_alone(text: str, locale: str) -> None:
    assert mend(text) == text


@pytest.mark.slow
def test_the_dictionary_loads_only_for_a_near_miss() -> None:
    code = (
        "import sys\n"
        "from giftgenius.offline.spelling import mend\n"
        "mend('mon frère adore les échecs et le thé')\n"
        "print('spellchecker' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True
    )
    assert result.stdout.strip() == "False"
