"""Every suggestion fits the recipient: age, audience, place and budget, for any profile.

Profiles are generated (hypothesis): a relation word of either language's lexicon, an age
or none, a delivery country, one to three interests, a budget. Whatever the mix, no
shortlisted product may be outside the age said (or the ages the relation tells), be a
child's product for a grown-up or a pet's for a child, be an experience held far from
the country, or cost more than the budget.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from giftgenius.catalog import INTERESTS, load_rates, price_in
from giftgenius.catalog.models import Product
from giftgenius.catalog.search import children_only, for_pets, young_only
from giftgenius.catalog.venues import placeless
from giftgenius.language import lexicon
from giftgenius.language.relations import resolve_relation
from giftgenius.language.vocabulary import relation_words
from tests.catalog.fit_pipeline import spec_of, suggest

ADULT = 18
COUNTRIES = ("US", "GB", "FR", "DE", "CA", "IE", "BE", "ES", "IT", "CH", "NL", "AU", "JP")
RELATIONS = sorted(
    {("en", w) for w in relation_words("en")}
    | {("fr", w) for w in relation_words("fr")}
    | {(lang, w) for lang in lexicon.LANGUAGES for w in ("Sam",)}
)


def _fits(product: Product, said: str, lang: str, age: int | None) -> str | None:
    """Why the product does not fit the recipient, or None."""
    relation = resolve_relation(said, lang)  # type: ignore[arg-type]
    ages = relation.ages if relation is not None else None
    kind = relation.audience if relation is not None else "anyone"
    if age is not None:
        young = age < ADULT
    else:
        young = kind in ("child", "teen") or bool(ages and ages[1] < ADULT)
    if age is not None:
        if not product.fits_age(age):
            return f"outside its ages for {age}"
        if age >= ADULT and children_only(product):
            return "a child's product for a grown-up"
    elif ages is not None and (ages[0] >= ADULT or ages[1] < ADULT):
        low, high = ages
        oldest = product.max_age if product.max_age is not None else 120
        if (product.min_age or 0) > high or oldest < low:
            return f"cannot meet the ages {ages} of {said!r}"
        if low >= ADULT and children_only(product):
            return "a child's product for a grown-up relation"
    if kind not in ("anyone", "child", "teen") and age is None and young_only(product):
        return f"made for the young, offered to {kind}"
    if young and for_pets(product):
        return "a pet's gift for a child"
    return None


@pytest.mark.slow
@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    relation=st.sampled_from(RELATIONS),
    age=st.one_of(st.none(), st.integers(min_value=1, max_value=90)),
    country=st.sampled_from(COUNTRIES),
    interests=st.lists(st.sampled_from(sorted(INTERESTS)), min_size=1, max_size=3, unique=True),
    budget=st.integers(min_value=10, max_value=300),
    currency=st.sampled_from(["USD", "EUR", "GBP"]),
)
def test_every_suggestion_fits_age_audience_place_and_budget(
    relation: tuple[str, str],
    age: int | None,
    country: str,
    interests: list[str],
    budget: int,
    currency: str,
) -> None:
    lang, said = relation
    spec = spec_of(budget, currency, country)
    rates = load_rates()
    for product in suggest(said, lang, interests, spec, age=age):  # type: ignore[arg-type]
        why = _fits(product, said, lang, age)
        assert why is None, (product.id, product.title, said, age, why)
        assert product.ships_to_country(country), (product.id, country)
        assert not placeless(product), product.id
        assert price_in(product, currency, rates) <= budget, (product.id, budget)
