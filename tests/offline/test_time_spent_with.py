"""How someone spends their time says what they love: "spends every afternoon with a pot of
tea", "passe chaque dimanche avec un polar" — whoever's the stretch of time ("his", "every",
"most of her") and whether it is one or many ("afternoon", "Sundays")."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("text", "locale", "tags"),
    [
        ("my dad spends most of his Sundays with a crossword and a coffee", "en",
         ["word-game", "coffee"]),
        ("a friend who spends every evening with her knitting and some jazz", "en",
         ["knitting", "jazz"]),
        ("he spends each weekend with a camera and his bike", "en", ["camera", "cycling"]),
        ("ma sœur passe chaque samedi avec ses aquarelles", "fr", ["painting"]),
        ("mon parrain passe tous les dimanches avec ses mots fléchés", "fr", ["word-game"]),
    ],
)  # fmt: skip
def test_the_company_someone_keeps_is_a_taste(text: str, locale: str, tags: list[str]) -> None:
    found = extract(text, today=TODAY, locale=locale).facts.get("interests", [])
    assert [t for t in found if t in tags] == tags
