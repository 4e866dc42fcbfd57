"""Tastes read from how people describe someone, in French and English: passion and habit
("fou de", "passe ses week-ends à", "carbure au", "mad about", "spends her weekends"), what
they are or do for a living ("il est chef", "she's a nurse… a chef"), and the gift wished for
("lui envoyer un bijou", "un truc rigolo", "something for travel"). Each with negatives: a
thing described ("la livraison est à Lyon") or a place is no taste."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


def interests(text: str, locale: str, **kwargs: Any) -> list[str]:
    return list(extract(text, today=TODAY, locale=locale, **kwargs).facts.get("interests", []))


@pytest.mark.parametrize(
    ("text", "locale", "tag"),
    [
        # passion and habit
        ("Mon oncle est complètement fou de pêche", "fr", "fishing"),
        ("ma tante est folle de jardinage depuis sa retraite", "fr", "gardening"),
        ("mon grand-père est un mordu d'astronomie", "fr", "astronomy"),
        ("elle raffole du thé vert", "fr", "tea"),
        ("mon père carbure au thé du matin au soir", "fr", "tea"),
        ("ma voisine passe ses soirées devant des puzzles", "fr", "puzzle"),
        ("il passe tout son temps sur les échecs", "fr", "chess"),
        ("ma nièce est dans sa phase dinosaures", "fr", "dinosaur"),
        ("mon chum tripe sur la pêche", "fr", "fishing"),
        ("my uncle is mad about fishing", "en", "fishing"),
        ("she spends her weekends gardening", "en", "gardening"),
        ("he is hooked on chess these days", "en", "chess"),
        ("my niece is going through a dinosaur phase", "en", "dinosaur"),
        # a habit describes the person
        ("il fait son café à l'italienne tous les matins", "fr", "coffee"),
        ("mon père sort son télescope chaque soir", "fr", "astronomy"),
        ("my aunt walks her dog every morning", "en", "dog"),
        ("ma tante vient d'adopter un chiot", "fr", "dog"),
        ("my brother just adopted a kitten", "en", "cat"),
        ("mon neveu est fan de foot", "fr", "football"),
        # what someone is or does for a living
        ("mon beau-frère est développeur", "fr", "developer"),
        ("Julien est chef dans une brasserie", "fr", "cooking"),
        ("she's a chef in a small bistro", "en", "cooking"),
        ("he works as a developer", "en", "developer"),
        # the gift wished for
        ("je voudrais lui envoyer des chocolats", "fr", "chocolate"),
        ("je cherche un truc drôle pour mon collègue", "fr", "humor"),
        ("on voudrait une peluche pour le bébé", "fr", "plush"),
        ("something funny for my brother", "en", "humor"),
        ("on aimerait qu'il puisse écouter ses vinyles", "fr", "vinyl"),
        ("a gift so she can listen to her vinyl records", "en", "vinyl"),
        ("avez-vous des puzzles pour adultes ?", "fr", "puzzle"),
        ("do you have chess sets?", "en", "chess"),
    ],
)
def test_tastes_in_descriptions(text: str, locale: str, tag: str) -> None:
    assert tag in interests(text, locale)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("la livraison est à Lyon", "fr"),
        ("le bureau est fermé le lundi", "fr"),
        ("elle est en France depuis mars", "fr"),
        ("il est fou de joie", "fr"),
        ("le premier est très bien", "fr"),
        ("the office is closed on Mondays", "en"),
        ("she's in Paris until June", "en"),
        ("elle fait sa valise ce soir", "fr"),
    ],
)
def test_things_and_places_described_are_no_tastes(text: str, locale: str) -> None:
    assert interests(text, locale) == []


def test_a_foot_massager_is_no_football() -> None:
    assert "football" not in interests("she would love a foot massager", "en")
