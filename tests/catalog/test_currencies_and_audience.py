"""Swiss francs and Canadian dollars in the conversion table and the filters; the search's
preference for products whose ``recipients`` fit the audience."""

from __future__ import annotations

import datetime as dt
from typing import Any, get_args

import pytest

from giftgenius.catalog import (
    RECIPIENTS,
    FilterSpec,
    Product,
    check,
    load_products,
    load_rates,
    price_in,
    product_json,
    search,
)
from giftgenius.domain import Currency
from giftgenius.language.currency import BUDGET_CURRENCIES

TODAY = dt.date(2026, 11, 20)


def make(**fields: Any) -> Product:
    base: dict[str, Any] = {
        "id": "g-9001",
        "title": "Loose-leaf tea sampler",
        "description": "Twelve loose-leaf teas from small estates, in tins.",
        "price": 30.0,
        "currency": "EUR",
        "tags": ["tea"],
        "recipients": ["anyone"],
        "ships_to": ["*"],
        "delivery_days": 5,
    }
    base.update(fields)
    return Product(**base)


def test_the_table_holds_every_budget_currency_and_no_other() -> None:
    rates = load_rates()
    assert set(rates.per_usd) == set(get_args(Currency)) == set(BUDGET_CURRENCIES)
    assert {"CHF", "CAD"} <= set(rates.per_usd)
    # Rates of the table's date, consistent with its EUR and GBP: a franc is worth a little
    # more than a euro, a Canadian dollar about 0.73 US dollars.
    assert 0.85 <= rates.per_usd["CHF"] < rates.per_usd["EUR"]
    assert 1.30 <= rates.per_usd["CAD"] <= 1.45


def test_francs_and_canadian_dollars_convert_both_ways() -> None:
    rates = load_rates()
    assert rates.convert(100, "USD", "CHF") == 88.0
    assert rates.convert(137, "CAD", "USD") == 100.0
    assert rates.convert(88, "CHF", "CAD") == 137.0
    assert rates.convert(30, "EUR", "CHF") == 28.7  # 30 / 0.92 * 0.88 = 28.695...
    assert rates.convert(30, "EUR", "CAD") == 44.67  # 30 / 0.92 * 1.37 = 44.673...


@pytest.mark.parametrize(
    ("budget", "currency", "reasons"),
    [
        (28.70, "CHF", []),  # 30 EUR is 28.70 CHF: exactly at the top
        (28.69, "CHF", ["over budget (max 28.69 CHF)"]),
        (44.67, "CAD", []),
        (40.00, "CAD", ["over budget (max 40.00 CAD)"]),
    ],
)
def test_a_budget_in_francs_or_canadian_dollars_is_checked_converted(
    budget: float, currency: str, reasons: list[str]
) -> None:
    spec = FilterSpec(budget_max=budget, currency=currency, today=TODAY)
    assert check(make(), spec, load_rates()) == reasons


def test_a_minimum_in_francs_is_checked_converted() -> None:
    spec = FilterSpec(budget_max=100, budget_min=30, currency="CHF", today=TODAY)
    assert check(make(), spec, load_rates()) == ["under budget (min 30.00 CHF)"]


def test_products_keep_their_currency_and_show_every_price() -> None:
    rates = load_rates()
    for product in load_products()[:25]:
        data = product_json(product, rates)
        assert data["currency"] == product.currency and data["price"] == product.price
        assert set(data["prices"]) == set(rates.per_usd)
        assert data["prices"]["CHF"] == price_in(product, "CHF", rates)
        assert data["prices"]["CAD"] == price_in(product, "CAD", rates)


# -- the audience ---------------------------------------------------------------------------


def _catalog() -> list[Product]:
    return [
        make(id="g-0001", recipients=["child"], title="Tea party set for kids"),
        make(id="g-0002", recipients=["anyone"]),
        make(id="g-0003", recipients=["mother", "grandparent"]),
        make(id="g-0004", recipients=["colleague"]),
        make(id="g-0005", recipients=["child", "teen"]),
    ]


def _ids(found: list[Product]) -> list[str]:
    return [p.id for p in found]


def test_the_products_made_for_the_audience_come_first() -> None:
    assert _ids(search(_catalog(), "tea", recipient="mother")) == [
        "g-0003",  # made for mothers
        "g-0002",  # for anyone
        "g-0004",
        # g-0001 and g-0005 are made for children only: never offered to a grown-up
    ]
    assert _ids(search(_catalog(), "thé", recipient="child")) == [
        "g-0001",
        "g-0005",
        "g-0002",
        "g-0003",
        "g-0004",
    ]


def test_the_audience_anyone_ranks_all_alike_but_childrens_products_last() -> None:
    # "uncle", "marraine", "my hairdresser": nothing tells their tastes, but they are adults.
    assert _ids(search(_catalog(), "tea", recipient="anyone")) == [
        "g-0002",
        "g-0003",
        "g-0004",
        "g-0001",
        "g-0005",
    ]


def test_with_no_words_only_products_that_suit_the_audience_are_found() -> None:
    assert _ids(search(_catalog(), [], recipient="colleague")) == ["g-0004", "g-0002"]
    assert _ids(search(_catalog(), [], recipient="anyone")) == ["g-0002", "g-0003", "g-0004"]


@pytest.mark.parametrize("audience", RECIPIENTS)
def test_every_audience_finds_gifts_in_the_real_catalog(audience: str) -> None:
    found = search(load_products(), "tea coffee books", recipient=audience, limit=20)
    assert found
    if audience != "anyone":
        top = found[0]
        assert audience in top.recipients or "anyone" in top.recipients
