"""The bundled catalog: enough varied, valid, human-written products for every scenario."""

from __future__ import annotations

import re
from collections import Counter
from typing import get_args

import pytest

import giftgenius.catalog as catalog
from giftgenius.catalog import (
    RECIPIENTS,
    TAGS,
    canonical_tags,
    catalog_version,
    describe,
    load_products,
    load_rates,
    price_in,
    product_json,
)
from giftgenius.domain import Currency

# ISO 3166-1 alpha-2 codes the catalog ships to (a real subset; "*" means anywhere), and
# the countries where an experience happens far from these (a museum tour in Athens).
ISO_CODES = frozenset(
    [
        "GR",
        "CY",
        "MT",
        "MX",
        "HU",
        "SK",
        "AD",
        "MC",
        "FR",
        "BE",
        "LU",
        "CH",
        "DE",
        "NL",
        "ES",
        "IT",
        "AT",
        "PT",
        "IE",
        "GB",
        "US",
        "CA",
        "DK",
        "SE",
        "NO",
        "FI",
        "PL",
        "CZ",
        "AU",
        "NZ",
        "JP",
    ]
)
SINGULAR_ENDING_IN_S = frozenset(
    {"aeropress", "cactus", "chess", "fitness", "martial-arts", "tennis", "wellness"}
)
ADULT_TAGS = frozenset({"whisky", "cocktail", "beer", "gin", "rum", "champagne", "sake"})


@pytest.fixture(scope="module")
def products() -> tuple[catalog.Product, ...]:
    return load_products()


def test_catalog_is_large_and_identifiers_unique(products):
    assert len(products) >= 320
    ids = [p.id for p in products]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"g-\d{4}", i) for i in ids)
    assert ids == sorted(ids)


def test_titles_and_descriptions_are_distinct(products):
    titles = Counter(p.title.strip().lower() for p in products)
    descriptions = Counter(p.description.strip().lower() for p in products)
    assert [t for t, n in titles.items() if n > 1] == []
    assert [d for d, n in descriptions.items() if n > 1] == []
    assert not [p.title for p in products if re.fullmatch(r"(?i)product \d+", p.title)]
    assert all(len(p.description.split()) >= 6 for p in products)


def test_every_tag_is_canonical(products):
    for product in products:
        assert product.tags, product.id
        for tag in product.tags:
            assert tag in TAGS, (product.id, tag)
    for tag in TAGS:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", tag), tag
        assert not tag.endswith("s") or tag in SINGULAR_ENDING_IN_S, f"{tag} looks plural"
        assert canonical_tags(tag) == {tag}, tag


def test_every_tag_has_english_and_french_words():
    for tag in TAGS:
        for locale in ("en", "fr"):
            word = describe(tag, locale)
            assert word and tag in canonical_tags(word), (tag, locale, word)


def test_recipients_and_ages_are_valid(products):
    for product in products:
        assert set(product.recipients) <= set(RECIPIENTS), product.id
        if product.min_age is not None and product.max_age is not None:
            assert product.min_age <= product.max_age, product.id
        if ADULT_TAGS & set(product.tags):
            assert product.min_age is not None and product.min_age >= 18, product.title
            assert not {"child", "teen"} & set(product.recipients), product.title
    assert sum(1 for p in products if "child" in p.recipients and p.max_age) >= 15


def test_shipping_and_delivery_are_valid(products):
    for product in products:
        if "*" in product.ships_to:
            assert product.ships_to == ["*"], product.id
        else:
            assert set(product.ships_to) <= ISO_CODES, (product.id, product.ships_to)
        assert isinstance(product.delivery_days, int)
        assert 1 <= product.delivery_days <= 21, product.id
    worldwide = sum(p.ships_to == ["*"] for p in products)
    assert worldwide >= len(products) // 3


def test_prices_currencies_and_stock_are_varied(products):
    rates = load_rates()
    usd = [price_in(p, "USD", rates) for p in products]
    assert min(usd) >= 4 and max(usd) <= 450
    currencies = Counter(p.currency for p in products)
    assert set(currencies) == {"USD", "EUR", "GBP"}
    assert min(currencies.values()) >= 50
    out_of_stock = sum(not p.in_stock for p in products)
    assert 0.03 <= out_of_stock / len(products) <= 0.08


def test_many_cheap_board_games_and_coffee_items_ship_to_fr_us_gb(products):
    rates = load_rates()
    fitting = [
        p
        for p in products
        if p.in_stock
        and {"board-game", "coffee"} & set(p.tags)
        and not {"mug", "notebook"} & set(p.tags)
        and price_in(p, "USD", rates) < 50
        and all(p.ships_to_country(c) for c in ("FR", "US", "GB"))
    ]
    assert len(fitting) >= 15


def test_themed_mugs_and_notebooks_exist_so_dislikes_matter(products):
    themed = [
        p
        for p in products
        if {"mug", "notebook"} & set(p.tags) and {"developer", "coffee", "board-game"} & set(p.tags)
    ]
    assert len(themed) >= 5
    assert any({"mug", "coffee", "board-game"} <= set(p.tags) for p in themed)


def test_loading_is_cached_and_version_is_a_content_hash(monkeypatch):
    assert load_products() is load_products()
    version = catalog_version()
    assert re.fullmatch(r"[0-9a-f]{64}", version)
    real_read = catalog._read
    monkeypatch.setattr(
        catalog, "_read", lambda name: real_read(name) + (b" " if name == "rates.json" else b"")
    )
    catalog_version.cache_clear()
    try:
        assert catalog_version() != version
    finally:
        monkeypatch.undo()
        catalog_version.cache_clear()
    assert catalog_version() == version


def test_product_json_has_the_catalog_show_shape(products):
    data = product_json(products[0], load_rates())
    expected = {"id", "title", "description", "price", "currency", "prices", "tags"}
    assert expected <= set(data)
    assert set(data["prices"]) == set(get_args(Currency))  # every budget currency
    assert data["prices"][data["currency"]] == data["price"]
