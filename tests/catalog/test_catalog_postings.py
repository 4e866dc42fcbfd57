"""Both SQL paths over the postings rank exactly as ``rank_key`` on a catalog full of ties.

The shipped catalog has few products per tag; a generated one has dozens that share the
interest's strength and text hit, so the order rests on the audience fit and the id — the
part the one-term path sorts within runs of equal keys. Every kind of query is played: one
tag (by strength or not), one word, several tags, several words, no words, with filters and
exclusions, for several audiences and ages, and the database must give the in-memory order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.catalog.search import FilterSpec, ProductList, interest_query, words_query
from giftgenius.catalog.synthetic import catalog_version, synthetic_products
from giftgenius.storage.db import Database

SIZE, SEED = 1500, 3
TODAY = dt.date(2026, 12, 1)
PRODUCTS = list(synthetic_products(SIZE, SEED))
# One tag (English, French), an unknown word of the titles, several of each, none.
TEXTS = ["board games", "thé", "jardinage", "vintage", "coffee and jazz", "vintage sampler", ""]
AUDIENCES = [(None, None), ("mother", None), ("child", 8), ("anyone", None), ("boss", 40)]
SPECS = [
    None,
    FilterSpec(budget_max=60, currency="EUR", country="FR", today=TODAY),
    FilterSpec(
        budget_max=200,
        budget_min=20,
        currency="GBP",
        deadline=TODAY + dt.timedelta(days=5),
        today=TODAY,
        dislikes=["mugs"],
    ),
]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def generated(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'gg.db'}"
    else:
        url = request.getfixturevalue("postgres_url")
        from giftgenius.storage import migrate

        migrate.upgrade(url)
    database = Database(url)
    database.ensure_catalog(PRODUCTS, catalog_version(SIZE, SEED))
    yield database
    database.dispose()


@pytest.mark.slow  # writes 1,500 products: a minute or more on a loaded machine
def test_every_kind_of_query_ranks_as_in_memory(generated: Database) -> None:
    reference = ProductList(PRODUCTS)
    with generated.read() as repos:
        catalog = repos.catalog.search()
        for text in TEXTS:
            for recipient, age in AUDIENCES:
                queries = [words_query(text, recipient=recipient, age=age)]
                if text:
                    for strength in (True, False):
                        queries.append(
                            interest_query(text, recipient=recipient, age=age, by_strength=strength)
                        )
                for query in queries:
                    expected = reference.ranked_ids(query, limit=25)
                    assert catalog.ranked_ids(query, limit=25) == expected, (text, query)
                    skip = expected[:3]
                    assert (
                        catalog.ranked_ids(query, limit=10, exclude=skip)
                        == [i for i in expected if i not in skip][:10]
                    ), (text, query)
                    for spec in SPECS[1:]:
                        want = [p.id for p in reference.ranked(query, limit=8, spec=spec)]
                        got = [p.id for p in catalog.ranked(query, limit=8, spec=spec)]
                        assert got == want, (text, query, spec)
