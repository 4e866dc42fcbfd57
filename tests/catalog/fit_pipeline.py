"""The shortlist a profile gets, through the pure functions in the order the filter tool
runs them (``agent/tools/candidates.py``: pool, filters, reserve, band, shortlist), for
tests that judge every suggestion without a database."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from giftgenius.catalog import answers, check, load_products, load_rates, search_pool, shortlist
from giftgenius.catalog.models import Product
from giftgenius.catalog.search import FilterSpec, ProductList, band_fill, in_band, reserve
from giftgenius.domain import MAX_CANDIDATES, Locale
from giftgenius.language.relations import resolve_relation

TODAY = dt.date(2026, 12, 1)
SIZE = 6


def suggest(
    said: str,
    locale: Locale,
    interests: Sequence[str],
    spec: FilterSpec,
    *,
    age: int | None = None,
) -> list[Product]:
    """The shortlist for a recipient said as ``said`` (the relation words, as a profile keeps
    them) under the filters ``spec``."""
    rates = load_rates()
    source = ProductList(load_products(), rates)
    relation = resolve_relation(said, locale)
    kind = relation.audience if relation is not None else "anyone"
    ages = relation.ages if relation is not None else None
    pool = search_pool(source, interests, recipient=kind, age=age, ages=ages, limit=MAX_CANDIDATES)
    passing = [p for p in pool if not check(p, spec, rates)]
    passing += reserve(source, interests, passing, spec, recipient=kind, age=age, ages=ages)
    have = sum(1 for p in passing if in_band(p, spec, rates) and answers(p, interests))
    passing += band_fill(
        source,
        interests,
        spec,
        need=SIZE - have,
        exclude=[p.id for p in passing],
        recipient=kind,
        age=age,
        ages=ages,
    )
    preferred = {p.id for p in passing if in_band(p, spec, rates)}
    return shortlist(passing, interests, SIZE, preferred=preferred)


def spec_of(budget: float, currency: str = "USD", country: str | None = None) -> FilterSpec:
    return FilterSpec.model_validate(
        {"budget_max": budget, "currency": currency, "country": country, "today": TODAY}
    )
