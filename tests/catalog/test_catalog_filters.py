"""Filtering: every rejection reason with its edge, currency conversion, the seed scenario."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from pydantic import ValidationError

from giftgenius.catalog import (
    FilterSpec,
    Product,
    Rates,
    check,
    load_products,
    load_rates,
    price_in,
    search,
)
from giftgenius.domain import MAX_CANDIDATES
from giftgenius.errors import ToolError

TODAY = dt.date(2026, 11, 20)


@pytest.fixture(scope="module")
def rates() -> Rates:
    return load_rates()


def make(**fields: Any) -> Product:
    base: dict[str, Any] = {
        "id": "g-9001",
        "title": "Cipher Circle board game",
        "description": "A code-breaking board game for teams.",
        "price": 20.0,
        "currency": "USD",
        "tags": ["board-game", "game"],
        "recipients": ["colleague"],
        "ships_to": ["*"],
        "delivery_days": 5,
    }
    base.update(fields)
    return Product(**base)


def spec(**fields: Any) -> FilterSpec:
    base: dict[str, Any] = {"budget_max": 50, "currency": "USD", "today": TODAY}
    base.update(fields)
    return FilterSpec(**base)


def test_conversion_table(rates):
    assert rates.as_of == dt.date(2026, 11, 1)
    assert rates.per_usd == {
        "USD": 1.0,
        "EUR": 0.92,
        "GBP": 0.79,
        "CHF": 0.88,
        "CAD": 1.37,
        "AUD": 1.53,
        "NZD": 1.68,
    }
    assert rates.convert(100, "USD", "EUR") == 92.0
    assert rates.convert(92, "EUR", "USD") == 100.0
    assert rates.convert(79, "GBP", "EUR") == 92.0
    assert rates.convert(10, "EUR", "GBP") == 8.59  # 10 / 0.92 * 0.79 = 8.5869...
    assert rates.convert(1, "GBP", "EUR") == 1.16  # 0.92 / 0.79 = 1.1645...
    assert rates.convert(3.333, "USD", "USD") == 3.33
    assert price_in(make(price=46, currency="EUR"), "USD", rates) == 50.0


def test_unknown_currency_and_bad_tables_are_refused(rates):
    with pytest.raises(ToolError) as refused:
        rates.convert(1, "JPY", "USD")
    assert refused.value.code == "currency.no_rate" and refused.value.params["currency"] == "JPY"
    with pytest.raises(ValidationError):
        Rates(as_of=TODAY, per_usd={"USD": 1.1, "EUR": 0.9})
    with pytest.raises(ValidationError):
        Rates(as_of=TODAY, per_usd={"USD": 1.0, "EUR": 0})


def test_a_good_product_passes(rates):
    assert check(make(), spec(country="FR", deadline=TODAY + dt.timedelta(days=10)), rates) == []


def test_out_of_stock(rates):
    assert check(make(in_stock=False), spec(), rates) == ["out of stock"]
    assert check(make(in_stock=True), spec(), rates) == []


def test_over_budget_is_judged_after_conversion(rates):
    # 46 EUR is exactly 50.00 USD: at the limit passes; one cent more fails.
    assert check(make(price=46.0, currency="EUR"), spec(), rates) == []
    assert check(make(price=46.01, currency="EUR"), spec(), rates) == [
        "over budget (max 50.00 USD)"
    ]
    # 45 GBP is 56.96 USD: fine in pounds, over in dollars.
    assert check(make(price=45, currency="GBP"), spec(budget_max=45, currency="GBP"), rates) == []
    assert check(make(price=45, currency="GBP"), spec(), rates) == ["over budget (max 50.00 USD)"]


def test_under_budget_min(rates):
    assert check(make(price=20), spec(budget_min=20), rates) == []
    assert check(make(price=19.99), spec(budget_min=20), rates) == ["under budget (min 20.00 USD)"]
    assert check(make(price=5), spec(), rates) == []  # no minimum, no floor


def test_shipping_country(rates):
    assert check(make(ships_to=["*"]), spec(country="JP"), rates) == []
    assert check(make(ships_to=["US", "CA"]), spec(country="CA"), rates) == []
    assert check(make(ships_to=["US", "CA"]), spec(country="FR"), rates) == ["does not ship to FR"]
    assert check(make(ships_to=["US"]), spec(country=None), rates) == []
    with pytest.raises(ValidationError):
        spec(country="fr")


def test_deadline(rates):
    five_days = make(delivery_days=5)
    assert check(five_days, spec(deadline=TODAY + dt.timedelta(days=5)), rates) == []
    assert check(five_days, spec(deadline=TODAY + dt.timedelta(days=4)), rates) == [
        "cannot arrive by 2026-11-24"
    ]
    assert check(five_days, spec(deadline=None), rates) == []
    assert check(five_days, spec(deadline=TODAY - dt.timedelta(days=1)), rates) == [
        "cannot arrive by 2026-11-19"
    ]


def test_dislikes_by_tag_by_french_word_and_by_title_word(rates):
    mug = make(title="Meeple Coffee Mug", tags=["mug", "coffee", "board-game"])
    assert check(mug, spec(dislikes=["mugs"]), rates) == ["matches dislike 'mugs'"]
    assert check(mug, spec(dislikes=["tasses"]), rates) == ["matches dislike 'tasses'"]
    assert check(mug, spec(dislikes=["mug"]), rates) == ["matches dislike 'mug'"]
    # A word the vocabulary does not know still counts when it is in the title.
    assert check(mug, spec(dislikes=["Meeples"]), rates) == ["matches dislike 'Meeples'"]
    # A tag that only appears in the title (not in tags) counts too.
    cup = make(title="Espresso cup pair", tags=["coffee"])
    assert check(cup, spec(dislikes=["mugs"]), rates) == ["matches dislike 'mugs'"]
    # Unrelated dislikes, and a word found only in the description, do not reject.
    assert check(mug, spec(dislikes=["notebooks", "candles", ""]), rates) == []
    plain = make(description="Best enjoyed with a mug of tea.")
    assert check(plain, spec(dislikes=["mugs"]), rates) == []


def test_a_refused_taste_rules_out_a_description_that_names_it(rates):
    # Tea "with notes of cocoa": the taste is in the product, whatever its tags say.
    tea = make(
        title="Smoky Lapsang Leaves",
        description="Pine-smoked black tea with notes of cocoa and dried cherry.",
        tags=["tea", "gourmet"],
    )
    assert check(tea, spec(dislikes=["chocolat"]), rates) == ["matches dislike 'chocolat'"]
    assert check(tea, spec(dislikes=["cocoa"]), rates) == ["matches dislike 'cocoa'"]
    # A refused kind of gift still needs the gift to be one ("no mugs" keeps this tea).
    assert check(tea, spec(dislikes=["whisky", "mugs"]), rates) == []
    # Only what a product contains counts there: a coffee-table book holds no coffee.
    posters = make(
        title="Rally Posters 1970-1990",
        description="A heavy coffee-table book of rally posters, with a reading guide.",
        tags=["art", "history"],
    )
    assert check(posters, spec(dislikes=["café", "livres"]), rates) == []
    evening = make(
        title="Blues Cellar Night",
        description="Two seats at a blues cellar with a glass of wine each.",
        tags=["music", "experience"],
    )
    assert check(evening, spec(dislikes=["alcool", "vin"]), rates) == ["matches dislike 'vin'"]
    # What a product is free of is not in it.
    balm = make(
        title="Oat Hand Balm",
        description="An unscented, fragrance-free balm for dry hands.",
        tags=["skincare"],
    )
    assert check(balm, spec(dislikes=["parfums"]), rates) == []
    assert check(balm, spec(dislikes=["perfume"]), rates) == []


def test_refusing_sweet_things_refuses_chocolate_and_honey(rates):
    honey = make(title="Acacia Honey Jar", description="Raw acacia honey.", tags=["honey"])
    bar = make(title="Dark 85% Bar", description="Bitter cocoa for purists.", tags=["chocolate"])
    fudge = make(title="Clotted Cream Fudge", description="Butter fudge cubes.", tags=["gourmet"])
    olives = make(title="Olive Trio", description="Three cured olives.", tags=["gourmet"])
    for said in ("sucreries", "sucré", "sweets", "sugary"):
        refused = [
            p.title for p in (honey, bar, fudge, olives) if check(p, spec(dislikes=[said]), rates)
        ]
        assert refused == ["Acacia Honey Jar", "Dark 85% Bar", "Clotted Cream Fudge"], said
    # Liking chocolate is no refusal of sweets: the other way round holds nothing.
    assert check(olives, spec(dislikes=["chocolate"]), rates) == []
    assert check(honey, spec(dislikes=["chocolate"]), rates) == []


def test_reasons_accumulate_in_a_stable_order(rates):
    bad = make(
        in_stock=False,
        price=80,
        ships_to=["GB"],
        delivery_days=15,
        tags=["notebook"],
        title="Grid notebook",
    )
    reasons = check(
        bad,
        spec(country="FR", deadline=TODAY + dt.timedelta(days=3), dislikes=["carnets"]),
        rates,
    )
    assert reasons == [
        "out of stock",
        "over budget (max 50.00 USD)",
        "does not ship to FR",
        "cannot arrive by 2026-11-23",
        "matches dislike 'carnets'",
    ]


@pytest.mark.parametrize(
    ("interests", "dislikes", "recipient"),
    [
        (["board games", "coffee"], ["mugs", "notebooks"], "colleague developer"),
        (["jeux de société", "café"], ["tasses", "carnets"], "mon collègue développeur"),
        (["board-game", "coffee"], ["mug", "notebook"], "colleague"),  # as the agent stores them
    ],
)
def test_seed_scenario(rates, interests, dislikes, recipient):
    found = search(load_products(), interests, recipient=recipient, limit=MAX_CANDIDATES)
    filters = spec(budget_max=50, currency="USD", country="FR", dislikes=dislikes)
    passing = [p for p in found if not check(p, filters, rates)]
    assert len(passing) >= 5
    assert not [p.title for p in passing if {"mug", "notebook"} & set(p.tags)]
    for product in passing:
        assert {"board-game", "coffee"} & set(product.tags)
        assert price_in(product, "USD", rates) <= 50
    # The dislike filter visibly matters: a themed mug was among the candidates.
    disliked = [p for p in found if any("dislike" in r for r in check(p, filters, rates))]
    assert disliked
