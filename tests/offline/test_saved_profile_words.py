"""Coming back for someone saved before: "c'est pour papa ours, je l'avais enregistré" asks
for the saved profile, and a relation said without a determiner ("pour tonton Marc") is read
like a saved label — "pour" is no "our"."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    "text",
    [
        "c'est pour papa jardin, je l'avais enregistré",
        "c'est pour tonton Marc, je l'ai sauvegardé la dernière fois",
        "pour mamie Jo, tu l'as en mémoire",
        "gift for grandpa Joe, I saved him last month",
        "it's for auntie Sue again, I have saved her",
    ],
)
def test_a_saved_recipient_is_asked_for(text: str) -> None:
    found = extract(text, today=TODAY)
    assert found.load and found.labelled


@pytest.mark.parametrize(
    ("text", "labelled"),
    [
        ("c'est pour papa jardin", True),
        ("pour tata Lou", True),
        ("c'est pour mon frère", False),
        ("for our neighbour", False),
    ],
)
def test_a_relation_without_a_determiner_reads_as_a_label(text: str, labelled: bool) -> None:
    assert extract(text, today=TODAY).labelled is labelled


@pytest.mark.parametrize(
    "text", ["enregistre-le sous « papa jardin »", "save him as grandpa Joe", "c'est pour papa"]
)
def test_saving_or_naming_someone_is_no_load(text: str) -> None:
    assert not extract(text, today=TODAY).load
