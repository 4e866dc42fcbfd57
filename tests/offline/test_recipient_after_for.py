"""Whom the gift is for, when the message names someone else first.

"My friend just had a baby, something for the baby": the first relation said is the
friend, but "for"/"pour" names the recipient. An occasion ("for Father's Day") is no
recipient, and without such a "for" the first relation named still wins.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract

TODAY = dt.date(2026, 12, 1)


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        (
            "my colleague Sam became a dad on Monday, I'd like a little gift for the baby",
            "en",
            "baby",
        ),
        (
            "ma collègue vient d'avoir un petit garçon, je cherche un cadeau pour le bébé",
            "fr",
            "bébé",
        ),
        ("mon frère se marie en juin, une idée pour ma future belle-sœur ?", "fr", "belle-sœur"),
    ],
)
def test_the_relation_after_for_is_the_recipient(text: str, locale: str, recipient: str) -> None:
    found = extract(text, today=TODAY, locale=locale).facts.get("recipient", "")
    assert recipient in found.lower()


@pytest.mark.parametrize(
    ("text", "locale", "recipient"),
    [
        ("my husband grills every weekend, something for Father's Day maybe", "en", "husband"),
        ("for my aunt, she babysits my cousin's kids", "en", "aunt"),
        ("ma sœur fait du yoga, je cherche un truc pour nos dix ans d'amitié", "fr", "sœur"),
    ],
)
def test_without_a_relation_after_for_the_first_one_stays(
    text: str, locale: str, recipient: str
) -> None:
    found = extract(text, today=TODAY, locale=locale).facts.get("recipient", "")
    assert recipient in found.lower()
