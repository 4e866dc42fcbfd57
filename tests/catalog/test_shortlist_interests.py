"""A shortlist answers every stated interest, on hand-made catalogs and
the real one: interests take turns, nothing off-topic, unserved interests come with
alternatives, and a grown-up never gets a child's product."""

from __future__ import annotations

import datetime as dt

import pytest
from product_factory import make

from giftgenius.catalog import (
    FilterSpec,
    Product,
    answers,
    check,
    load_products,
    load_rates,
    search_pool,
    shortlist,
    unserved,
    why_it_fits,
)

TODAY = dt.date(2026, 11, 29)


def passing(products: list[Product], budget: float = 60, currency: str = "EUR") -> list[Product]:
    spec = FilterSpec(budget_max=budget, currency=currency, today=TODAY)
    return [p for p in products if not check(p, spec, load_rates())]


def test_a_description_mention_does_not_answer_an_interest() -> None:
    novel = make(
        "g-0001",
        title="Starfall: a novel",
        description="A space opera told through the notebook of a stranded pilot.",
        tags=["book", "sci-fi", "novel"],
    )
    notebook = make("g-0002", title="Dot-grid journal", tags=["stationery", "notebook"])
    assert answers(novel, ["notebooks", "pens"]) == []
    assert answers(notebook, ["notebooks", "pens"]) == ["notebooks"]
    assert shortlist([novel, notebook], ["notebooks", "pens"], 6) == [notebook]
    assert why_it_fits(novel, ["notebooks"], "en") == ""


def test_coffee_is_not_labelled_tea_because_its_text_says_tea() -> None:
    beans = make(
        "g-0001",
        title="Single-origin coffee beans",
        description="Notes of black tea and citrus.",
        tags=["coffee", "gourmet"],
    )
    assert why_it_fits(beans, ["thé", "café"], "fr") == "correspond à : café"
    assert answers(beans, ["thé"]) == []


def test_each_interest_gets_a_place_before_the_best_scores_fill_up() -> None:
    cooking = [make(f"g-00{i:02d}", tags=["cooking"]) for i in range(1, 9)]
    jazz = make("g-0050", tags=["jazz", "music", "vinyl"], title="Jazz classics on vinyl")
    both = make("g-0060", tags=["cooking", "jazz"], title="Cooking to jazz: a playlist book")
    ranked = [*cooking, jazz, both]
    chosen = shortlist(ranked, ["cooking", "jazz"], 6)
    # the product answering both comes first, and jazz keeps its own place however many
    # cooking products outrank it
    assert chosen[:3] == [both, jazz, cooking[0]]
    assert len(chosen) == 6 and all(answers(p, ["cooking", "jazz"]) for p in chosen)


@pytest.mark.parametrize(
    ("interests", "first"),
    [
        (["dinosaurs", "plush toys"], "g-0030"),
        (["dinosaures", "peluches"], "g-0030"),
        (["cooking", "Italian food"], "g-0040"),
        (["cuisine", "pâtes"], "g-0040"),
    ],
)
def test_what_answers_most_of_what_was_said_is_shown_first(
    interests: list[str], first: str
) -> None:
    ranked = [
        make("g-0010", title="Dinosaur dig kit", tags=["dinosaur", "science"]),
        make("g-0020", title="Bunny plush", tags=["plush", "toy"]),
        make("g-0030", title="Dinosaur plush trio", tags=["toy", "plush", "dinosaur"]),
        make("g-0035", title="Pasta shapes poster", tags=["home-decor", "italian-cuisine"]),
        make("g-0038", title="Cast-iron skillet", tags=["cooking"]),
        make("g-0040", title="Fresh pasta kit", tags=["cooking", "italian-cuisine"]),
    ]
    chosen = shortlist(ranked, interests, 6)
    assert chosen[0].id == first
    assert len(chosen) == 3  # nothing that answers none of them


def test_the_pool_holds_every_interest_however_the_others_rank() -> None:
    catalog = [make(f"g-01{i:02d}", tags=["candle"]) for i in range(30)]
    catalog += [make(f"g-02{i:02d}", tags=["yoga"]) for i in range(5)]
    pool = search_pool(catalog, ["candles", "yoga"], limit=10)
    assert len(pool) == 10
    assert sum("yoga" in p.tags for p in pool) == 5
    assert sum("candle" in p.tags for p in pool) == 5


def test_off_topic_products_never_fill_a_shortlist() -> None:
    mug = make("g-0001", tags=["mug", "coffee"])
    game = make("g-0002", tags=["game", "board-game"])
    assert shortlist([mug, game], ["board games"], 6) == [game]
    assert shortlist([mug], ["board games"], 6) == []


@pytest.mark.parametrize(
    ("interests", "recipient"),
    [
        (["cooking", "jazz"], "friend"),
        (["yoga", "candles"], "sister"),
        (["notebooks", "pens"], "colleague"),
        (["jeux de société", "café"], "colleague"),
        (["photography", "thé", "board games"], "mother"),
    ],
)
def test_real_catalog_shortlists_answer_each_interest(interests: list[str], recipient: str) -> None:
    products = list(load_products())
    pool = search_pool(products, interests, recipient=recipient, limit=20)
    chosen = shortlist(passing(pool), interests, 6)
    served = {i for p in chosen for i in answers(p, interests)}
    assert served == set(interests)
    assert all(answers(p, interests) for p in chosen)


def test_a_90_year_old_never_gets_a_childs_product() -> None:
    kids = make("g-0001", title="Kids' Gardening Set", tags=["toy", "gardening"],
                recipients=["child", "anyone"], min_age=4, max_age=10)  # fmt: skip
    teen_only = make("g-0002", tags=["gardening"], recipients=["child", "teen"])
    tools = make("g-0003", title="Garden tool set", tags=["gardening"])
    catalog = [kids, teen_only, tools]
    assert search_pool(catalog, ["gardening"], recipient="grandparent", age=90, limit=20) == [tools]
    # No age said, but a grandparent is a grown-up all the same.
    assert search_pool(catalog, ["gardening"], recipient="grandparent", limit=20) == [tools]
    assert kids in search_pool(catalog, ["gardening"], recipient="child", age=6, limit=20)
    real = search_pool(list(load_products()), ["jardinage"], recipient="grandparent", limit=20)
    assert real and not any("Kids'" in p.title for p in real)


def test_an_interest_the_catalog_cannot_serve_is_named_with_alternatives() -> None:
    products = list(load_products())
    pool = search_pool(products, ["joggin", "tea"], recipient="friend", limit=20)
    chosen = shortlist(passing(pool), ["joggin", "tea"], 6)
    missing = unserved(["joggin", "tea"], chosen, products, "fr")
    assert [u.interest for u in missing] == ["joggin"]
    assert missing[0].in_catalog is False
    assert missing[0].suggestions[0] == "course à pied"  # the closest spelling it stocks
    nothing = unserved(["zorblaxian"], chosen, products, "en")
    assert nothing[0].suggestions == ["tea"] or "tea" in nothing[0].suggestions


def test_an_interest_only_the_filters_removed_is_told_apart() -> None:
    pricey = make("g-0001", tags=["whisky"], price=300.0)
    missing = unserved(["whisky"], [], [pricey], "en")
    assert missing[0].in_catalog is True
