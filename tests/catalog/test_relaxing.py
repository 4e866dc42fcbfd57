"""What to relax when nothing passes: the constraint that alone holds gifts back, the change
that brings some back, and how many."""

from __future__ import annotations

import datetime as dt

from product_factory import make

from giftgenius.catalog import FilterSpec, Rates
from giftgenius.catalog.relaxing import relaxations

TODAY = dt.date(2026, 11, 20)
RATES = Rates(as_of=TODAY, per_usd={"USD": 1.0, "EUR": 0.5})


def spec(**fields: object) -> FilterSpec:
    return FilterSpec(**{"budget_max": 20.0, "currency": "USD", "today": TODAY, **fields})


def test_a_budget_up_to_the_third_cheapest_held_back_by_price_alone() -> None:
    products = [
        make("g-0001", price=24.2),
        make("g-0002", price=14.0, currency="EUR"),  # $28 in the budget's currency
        make("g-0003", price=31.0),
        make("g-0004", price=90.0),
        make("g-0005", price=22.0, ships_to=["FR"]),  # held back twice: not offered
        make("g-0006", price=5.0),  # passes
    ]
    found = relaxations(products, spec(country="CA"), RATES)
    assert [r.constraint for r in found] == ["budget"]
    assert found[0].budget_max == 31.0 and found[0].currency == "USD"
    assert found[0].would_pass == 3


def test_deadline_country_and_dislike_each_counted_in_the_order_people_give_ground() -> None:
    products = [
        make("g-0001", delivery_days=9),
        make("g-0002", delivery_days=12),
        make("g-0003", ships_to=["FR"]),
        make("g-0004", tags=["mug"]),
        make("g-0005", price=25.0),
    ]
    found = relaxations(
        products, spec(country="CA", deadline=TODAY + dt.timedelta(days=5), dislikes=["mug"]), RATES
    )
    assert [r.constraint for r in found] == ["budget", "deadline", "country", "dislike"]
    late = found[1]
    assert late.deadline == TODAY + dt.timedelta(days=9) and late.would_pass == 1
    assert found[2].country == "CA" and found[2].would_pass == 1
    assert found[3].dislike == "mug"


def test_nothing_to_offer_when_stock_or_several_constraints_hold_everything() -> None:
    products = [make("g-0001", in_stock=False), make("g-0002", price=50.0, ships_to=["FR"])]
    assert relaxations(products, spec(country="CA"), RATES) == []
