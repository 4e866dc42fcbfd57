"""A real word is a misspelt ordinal only where an ordinal stands, and a price end ranges
over a kind only when the words name one.

"send to Chicago" once chose the second gift ("send" is one letter pair from "second"), and
"the most expensive one that fits" searched the catalog for things that "fit".
"""

from __future__ import annotations

import pytest

from giftgenius.language.folding import fold
from giftgenius.offline import intents


def _choice(text: str) -> intents.Choice | None:
    return intents.choice(fold(text, keep_length=True), whole=True)


@pytest.mark.parametrize("text", ["send it to Denver please", "sends love, ship to Leeds"])
def test_a_real_word_in_a_sentence_is_no_ordinal(text: str) -> None:
    assert _choice(text) is None


@pytest.mark.parametrize(
    ("text", "position"),
    [("the fist one", 1), ("secnd pls", 2), ("le troisème", 3), ("forth one", 4)],
)
def test_slips_where_an_ordinal_stands_still_choose(text: str, position: int) -> None:
    found = _choice(text)
    assert found is not None and found.position == position


@pytest.mark.parametrize(
    "text", ["the priciest one that works", "le plus cher qui rentre dans le budget"]
)
def test_a_price_end_without_a_kind_ranges_over_the_list(text: str) -> None:
    assert intents.price_kind(text) is None


@pytest.mark.parametrize(
    ("text", "kind"),
    [("the cheapest of the scarves", "scarves"), ("la bougie la moins chère", "bougie")],
)
def test_a_price_end_with_a_kind_keeps_it(text: str, kind: str) -> None:
    assert kind in (intents.price_kind(text) or "")


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Oui voilà, c'est parfait, je le garde", "fr"),
        ("yep that's grand, I'll have it", "en"),
    ],
)
def test_a_yes_with_a_taking_verb_is_no_description(text: str, locale: str) -> None:
    import datetime as dt

    from giftgenius.offline.nlu import extract

    found = extract(
        text,
        today=dt.date(2026, 12, 1),
        locale=locale,
        candidate_titles=["Walnut Chess Set", "Tea Sampler"],
        choosing=True,
    )
    assert found.confirm and found.choice is None
