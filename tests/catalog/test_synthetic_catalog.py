"""The synthetic catalog: deterministic, valid, varied, and found by search like a real one."""

from __future__ import annotations

import pytest

from giftgenius.catalog import TAGS, search_pool
from giftgenius.catalog.search import answers
from giftgenius.catalog.synthetic import (
    SYNTHETIC_ID_BASE,
    catalog_version,
    synthetic_product,
    synthetic_products,
)


def test_the_same_seed_gives_the_same_catalog_and_a_small_one_is_a_prefix() -> None:
    big = list(synthetic_products(300, seed=5))
    assert list(synthetic_products(300, seed=5)) == big
    assert list(synthetic_products(120, seed=5)) == big[:120]
    assert list(synthetic_products(300, seed=6)) != big
    assert synthetic_product(299, seed=5) == big[299]


@pytest.mark.slow
def test_products_are_valid_and_varied_with_the_vocabularys_tags() -> None:
    products = list(synthetic_products(2000))
    assert len({p.id for p in products}) == 2000
    assert products[0].id == f"g-{SYNTHETIC_ID_BASE}"
    assert all(set(p.tags) <= TAGS for p in products)
    assert {p.currency for p in products} == {"EUR", "USD", "GBP"}
    assert any(p.ships_anywhere() for p in products)
    assert len({c for p in products for c in p.ships_to}) > 10
    assert len({p.delivery_days for p in products}) > 5
    assert min(p.price for p in products) < 10 < 300 < max(p.price for p in products)
    assert any(p.max_age is not None and p.max_age <= 12 for p in products)
    assert len({r for p in products for r in p.recipients}) > 8
    assert any(not p.in_stock for p in products)


@pytest.mark.slow
def test_search_finds_a_synthetic_product_for_an_interest() -> None:
    products = list(synthetic_products(1500))
    wanted = products[7].tags[0]
    pool = search_pool(products, [wanted], limit=20)
    assert pool and all(answers(p, [wanted]) for p in pool[:3])


def test_versions_name_size_and_seed_and_bad_sizes_are_refused() -> None:
    assert catalog_version(100_000, 3) == "synthetic:100000:3"
    with pytest.raises(ValueError, match="1 to"):
        list(synthetic_products(0))
    with pytest.raises(ValueError, match="index"):
        synthetic_product(-1)
