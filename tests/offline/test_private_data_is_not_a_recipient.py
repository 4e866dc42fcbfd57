"""Words that name a piece of private data ("my ssn is …", "mon numéro de sécu est …")
are not a recipient once the privacy filter replaced the data; a recipient said next to a
placeholder is still read."""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.offline.nlu import extract
from giftgenius.privacy import scrub


def _facts(text: str) -> dict:
    scrubbed = scrub(text)
    return extract(scrubbed, today=dt.date(2026, 12, 1), profile={}, locale=None).facts


@pytest.mark.parametrize(
    "text",
    [
        "my ssn is 123-45-6789 and my card 4111.1111.1111.1111",
        "my email is jo@example.com",
        "my phone is 555 123 4567",
        "mon numéro de sécu est 1 85 05 78 006 084 36",
        "my passport 12AB34567",
        "my iban FR76-3000-6000-0112-3456-7890-189",
    ],
)
def test_a_line_of_private_data_records_nothing(text: str) -> None:
    assert _facts(text) == {}


@pytest.mark.parametrize(
    ("text", "recipient"),
    [
        ("gift for my mum, she loves tea, my email is jo@example.com", "mum"),
        ("for my mum at 12 rue de la Paix, 75002 Paris", "mum"),
        ("c'est pour ma soeur, mon tel est 06 12 34 56 78", "soeur"),
    ],
)
def test_the_recipient_beside_private_data_is_still_read(text: str, recipient: str) -> None:
    assert _facts(text).get("recipient") == recipient
