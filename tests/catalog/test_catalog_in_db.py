"""The database answers catalog lookups exactly as the pure functions do, on both backends.

``ProductList`` (in memory, over the shipped catalog) is the reference; the same profiles
through ``DbCatalog`` (SQLite, and a real Postgres with the ``postgres`` marker) must give the
same search pools, reserves, shortlists, rejection counts and unserved interests.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from giftgenius.catalog import (
    FilterSpec,
    Product,
    check,
    load_products,
    load_rates,
    search,
    search_pool,
    shortlist,
    unserved,
)
from giftgenius.catalog.search import (
    CatalogSource,
    band_fill,
    in_band,
    interest_query,
    reserve,
    words_query,
)
from giftgenius.domain import MAX_CANDIDATES
from giftgenius.language.relations import told_ages
from giftgenius.storage.db import Database

TODAY = dt.date(2026, 12, 1)


@dataclass(frozen=True)
class Profile:
    interests: tuple[str, ...]
    recipient: str | None = None
    age: int | None = None
    budget: float = 60.0
    currency: str = "USD"
    budget_min: float | None = None
    country: str | None = None
    days: int | None = None
    dislikes: tuple[str, ...] = ()
    extra: tuple[str, ...] = field(default=())

    def spec(self) -> FilterSpec:
        return FilterSpec(
            budget_max=self.budget,
            budget_min=self.budget_min,
            currency=self.currency,  # type: ignore[arg-type]
            country=self.country,
            deadline=None if self.days is None else TODAY + dt.timedelta(days=self.days),
            today=TODAY,
            dislikes=list(self.dislikes),
        )


PROFILES = [
    Profile(("board games", "coffee"), "colleague", budget=50, country="FR"),
    Profile(("jeux de société", "café"), "colleague", budget=50, country="FR"),
    Profile(("cooking", "jazz"), "mother", budget=80, currency="EUR", dislikes=("mugs",)),
    Profile(("tea",), "grandparent", age=82, budget=30, currency="GBP", country="GB"),
    Profile(("lego", "dinosaurs", "drawing"), "child", age=6, budget=40, days=4),
    Profile(("plush",), "child", budget=25),
    Profile(("whisky", "cocktails"), "dad", budget=120, currency="CHF", country="CH"),
    Profile(("running", "yoga", "tea"), "friend", budget=70, budget_min=20),
    Profile(("joggin", "tea"), "friend", budget=45),
    Profile(("zorblaxian",), "anyone", budget=30),
    Profile(("Lisbon lighthouses", "books"), None, budget=100, country="PT"),
    Profile(("gardening",), "grandparent", budget=60, dislikes=("gloves", "carnets")),
    Profile(("jardinage", "birds"), "grandparent", age=70, budget=35, currency="EUR", days=3),
    Profile(("photography", "travel", "maps"), "partner", budget=200, country="US"),
    Profile(("video games", "manga"), "teen", age=15, budget=50, currency="CAD", country="CA"),
    Profile(("knitting", "candles", "chocolate"), "sister", budget=40, dislikes=("chocolat",)),
    Profile(("music", "vinyl"), "uncle", budget=90, currency="CAD", budget_min=30),
    Profile(("wine",), "boss", budget=15, country="JP", days=2),
    Profile(("notebooks", "pens"), "colleague", budget=35, dislikes=("mug", "coffee")),
    Profile(("puzzles", "science", "space", "astronomy"), "child", age=11, budget=45),
    Profile(("camping", "hiking"), "brother", age=30, budget=150, extra=("outdoor", "lamp")),
    Profile(("cheese", "baking", "fromage"), "friend", budget=25, currency="EUR", country="BE"),
    # materials are refused wherever the text names them, in either language
    Profile(("jewelry",), "godmother", budget=80, currency="EUR", dislikes=("argent",)),
    Profile(("wallet", "bags"), "friend", budget=120, dislikes=("no leather",)),
    # the ages a relation tells, pets, and the budget's band
    Profile(("golf", "dinosaurs"), "great uncle", budget=60, currency="EUR"),
    Profile(("animals", "dogs"), "son", budget=30, country="US"),
    Profile(("animaux",), "fille", age=3, budget=30, currency="EUR"),
    Profile(("cats", "science"), "kid", budget=40, currency="GBP", country="GB"),
    Profile(("coffee", "chocolate"), "colleagues", budget=120, currency="CAD", country="CA"),
    Profile(("beer",), "parrain", budget=40, currency="EUR", country="US"),
]
QUERIES = ["jeux de société", "board games and coffee", "whisky cocktails", "plush", "", "thé"]


def _ids(products: list[Product]) -> list[str]:
    return [p.id for p in products]


def _funnel(catalog: CatalogSource | list[Product], profile: Profile) -> dict[str, object]:
    """What ``find_gifts`` (a search, then the filters) computes for the profile."""
    rates = load_rates()
    ages = told_ages(profile.recipient, "fr" if profile.recipient in ("fille", "parrain") else "en")
    pool = search_pool(
        catalog,
        list(profile.interests),
        extra_words=list(profile.extra),
        recipient=profile.recipient,
        age=profile.age,
        ages=ages,
        limit=MAX_CANDIDATES,
    )
    spec = profile.spec()
    rejected: Counter[str] = Counter()
    passing = []
    for product in pool:
        reasons = check(product, spec, rates)
        rejected.update(reasons)
        if not reasons:
            passing.append(product)
    kept = reserve(
        catalog,
        list(profile.interests),
        passing,
        spec,
        recipient=profile.recipient,
        age=profile.age,
        ages=ages,
    )
    band = band_fill(
        catalog,
        list(profile.interests),
        spec,
        need=6 - sum(1 for p in [*passing, *kept] if in_band(p, spec, rates)),
        exclude=_ids([*passing, *kept]),
        recipient=profile.recipient,
        age=profile.age,
        ages=ages,
    )
    every = [*passing, *kept, *band]
    preferred = {p.id for p in every if in_band(p, spec, rates)}
    chosen = shortlist(every, list(profile.interests), 6, preferred=preferred)
    return {
        "pool": _ids(pool),
        "unserved_pool": unserved(list(profile.interests), pool, catalog, "fr"),
        "rejected": dict(rejected),
        "reserve": _ids(kept),
        "band": _ids(band),
        "shortlist": _ids(chosen),
        "unserved": unserved(list(profile.interests), chosen, catalog, "en"),
    }


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def shipped(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A database holding the shipped catalog, on each backend."""
    if request.param == "sqlite":
        database = Database(f"sqlite:///{tmp_path / 'gg.db'}")
        database.ensure_catalog()
    else:
        database = Database(request.getfixturevalue("seeded_postgres_url"))
    yield database
    database.dispose()


@pytest.mark.slow
def test_the_database_gives_the_shortlists_the_pure_functions_give(shipped: Database) -> None:
    products = list(load_products())
    with shipped.read() as repos:
        catalog = repos.catalog.search()
        for profile in PROFILES:
            assert _funnel(catalog, profile) == _funnel(products, profile), profile


@pytest.mark.slow
def test_the_database_ranks_free_text_like_search(shipped: Database) -> None:
    products = list(load_products())
    rates = load_rates()
    spec = PROFILES[0].spec()
    with shipped.read() as repos:
        catalog = repos.catalog.search()
        for text in QUERIES:
            for recipient, age in [(None, None), ("child", 7), ("anyone", None), ("boss", 40)]:
                query = words_query(text, recipient=recipient, age=age)
                expected = search(products, text, recipient=recipient, age=age)
                assert _ids(catalog.ranked(query, limit=20)) == _ids(expected[:20]), text
                passing = [p for p in expected if not check(p, spec, rates)]
                found = catalog.ranked(query, limit=10, spec=spec)
                assert _ids(found) == _ids(passing[:10]), text


@pytest.mark.slow
def test_a_budget_at_the_cent_keeps_the_product(shipped: Database) -> None:
    """The SQL budget filter has a cent of slack; the exact check keeps a product priced at
    the budget once converted, and drops one a cent above."""
    rates = load_rates()
    product = next(p for p in load_products() if p.currency == "EUR" and p.in_stock)
    price = rates.convert(product.price, "EUR", "GBP")
    query = interest_query(product.tags[0])
    at = FilterSpec(budget_max=price, currency="GBP", today=TODAY)
    below = FilterSpec(budget_max=price - 0.01, currency="GBP", today=TODAY)
    with shipped.read() as repos:
        catalog = repos.catalog.search()
        assert product.id in _ids(catalog.ranked(query, limit=MAX_CANDIDATES * 20, spec=at))
        assert product.id not in _ids(catalog.ranked(query, limit=MAX_CANDIDATES * 20, spec=below))
