"""Whatever a model or a person sends, the normalizers answer a valid value or None.

Tools will call them on arbitrary arguments; an exception there would be a failed turn.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from giftgenius.language.amounts import parse_amount
from giftgenius.language.places import resolve_country
from giftgenius.language.relations import resolve_relation
from giftgenius.language.vocabulary import RECIPIENTS
from giftgenius.language.when import is_leaving, parse_deadline

FAST = settings(max_examples=150, deadline=None)

# Text made of the pieces the normalizers react to, so the inputs reach their deep paths.
PIECES = st.sampled_from(
    [
        "my", "ma", "mon", "uncle", "tante", "Dave", "Léa", "'s", "de", ",", "(", ")", "by",
        "avant", "le", "the", "12th", "15", "Friday", "vendredi", "décembre", "within", "a",
        "week", "jours", "about", "environ", "50", "1 234,50", "€", "$", "bucks", "balles",
        "between", "and", "et", "-", "Paris", "Texas", "NYC", "États-Unis", "UK", "in", "to",
        "I'll", "think", "about", "it", "je", "reviens", "demain", "year-old", "ans", "named",
        "s'appelle", "ish", "tops", "max", "au", "plus", "tard", "…", "😀", "", " ", "0", "99",
    ]
)  # fmt: skip
PHRASES = st.lists(PIECES, max_size=12).map(" ".join) | st.text(max_size=80)
LOCALES = st.sampled_from(["en", "fr"])
TODAY = dt.date(2026, 12, 1)


@pytest.mark.slow
@FAST
@given(PHRASES, LOCALES)
def test_resolve_country_answers_an_iso_code_or_none(text, locale):
    code = resolve_country(text, locale)
    assert code is None or (len(code) == 2 and code.isupper())


@pytest.mark.slow
@FAST
@given(PHRASES, LOCALES)
def test_resolve_relation_answers_a_valid_relation_or_none(text, locale):
    relation = resolve_relation(text, locale)
    if relation is not None:
        assert relation.audience in RECIPIENTS
        assert relation.said is None or 0 < len(relation.said) <= 60
        assert relation.said is not None or relation.name is not None


@pytest.mark.slow
@FAST
@given(PHRASES, LOCALES)
def test_parse_deadline_answers_today_or_later_or_none(text, locale):
    when = parse_deadline(text, TODAY, locale)
    assert when is None or when >= TODAY
    assert isinstance(is_leaving(text, locale), bool)


@pytest.mark.slow
@FAST
@given(PHRASES, LOCALES, st.sampled_from(["USD", "EUR", "GBP", "CAD", "CHF"]))
def test_parse_amount_answers_a_positive_amount_or_none(text, locale, default):
    amount = parse_amount(text, locale, default)
    if amount is not None:
        assert amount.amount > 0
        assert amount.minimum is None or amount.minimum <= amount.amount
        assert len(amount.currency) == 3
