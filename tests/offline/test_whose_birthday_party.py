"""A child invited to a birthday party brings a gift for the one whose birthday it is: in
"ma fille est invitée à l'anniversaire d'un copain de classe" the gift is for the classmate,
not for the speaker's daughter. A classmate ("copain de classe") is a friend, never a
boyfriend. Only a birthday of someone named with "un"/"une"/"a" moves the gift: "pour
l'anniversaire de ma sœur" was already for the sister, and the speaker's own child stays
the recipient when no party of someone else is named."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.language.relations import resolve_relation
from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        (
            "Ma fille est invitée à l'anniversaire d'un copain de classe qui fête ses 6 ans.",
            "fr",
            "copain de classe",
        ),
        ("Mon fils est invité à l'anniversaire d'une copine de classe", "fr", "copine de classe"),
        ("mon fils va à l'anniv d'un copain samedi", "fr", "copain"),
        ("my son is going to the birthday party of a classmate", "en", "classmate"),
        (
            "My daughter is invited to a birthday party for a kid from her class, he's turning 6",
            "en",
            "kid",
        ),
    ],
)
def test_the_gift_is_for_whose_birthday_it_is(text: str, locale: str, recipient: str) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("recipient") == recipient


def test_a_classmate_is_a_friend_not_a_partner() -> None:
    relation = resolve_relation("un copain de classe", "fr")
    assert relation is not None and relation.audience == "friend"
    boyfriend = resolve_relation("mon copain", "fr")
    assert boyfriend is not None and boyfriend.audience == "partner"


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("un cadeau pour l'anniversaire de ma soeur", "fr", "soeur"),
        ("ma fille fête son anniversaire samedi", "fr", "fille"),
        ("my son loves parties, he's turning 8", "en", "son"),
    ],
)
def test_near_misses_keep_their_recipient(text: str, locale: str, recipient: str) -> None:
    assert extract(text, today=TODAY, locale=locale).facts.get("recipient") == recipient
