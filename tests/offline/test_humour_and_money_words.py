"""Two kinds of words the offline reading used to get wrong.

- A taste for the absurd said in everyday words ("goofy", "daft", "loufoque", "décalé") is
  the catalog's humour tag, like "funny" and "drôle".
- Words about the money ("spend", "afford", "limit", "dépenser", "plafond") are never a
  taste, even after a liking word ("I'd like to spend…") or next to a list of tastes.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def _facts(text: str, locale: str) -> dict[str, object]:
    return extract(text, today=TODAY, locale=locale, dollar="GBP").facts


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("my cousin is into goofy things", "en"),
        ("he loves anything wacky or daft", "en"),
        ("something whimsical for my niece", "en"),
        ("elle adore les trucs loufoques", "fr"),
        ("mon collègue aime tout ce qui est décalé", "fr"),
        ("pour mon frère, un truc farfelu", "fr"),
    ],
)
def test_everyday_words_for_the_absurd_are_humour(text: str, locale: str) -> None:
    assert "humor" in _facts(text, locale).get("interests", [])  # type: ignore[operator]


@pytest.mark.parametrize(
    ("text", "locale", "interests"),
    [
        ("she loves knitting, I can afford about 30", "en", ["knitting"]),
        ("for my gran, I like to spend roughly forty pounds", "en", None),
        ("he enjoys chess and jigsaws, £25 cap", "en", ["chess", "puzzle"]),
        ("my boss likes whisky, £40 limit", "en", ["whisky"]),
        ("elle aime le thé, je voudrais dépenser 30 euros", "fr", ["tea"]),
        ("il adore le golf, plafond 50 €", "fr", ["golf"]),
    ],
)
def test_money_words_are_no_taste(text: str, locale: str, interests: list[str] | None) -> None:
    facts = _facts(text, locale)
    assert facts.get("interests") == interests
    assert facts.get("budget_max") is not None
