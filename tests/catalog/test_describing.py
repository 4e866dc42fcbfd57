"""Naming a gift in words: descriptions read in either language, met against products.

Product records are written in English; people describe a gift by its kind, material,
feature or title words, in English or French. Sentences are our own.
"""

from __future__ import annotations

import datetime as dt

import pytest

from giftgenius.catalog import FilterSpec, load_rates
from giftgenius.catalog.describing import (
    best_fits,
    described_query,
    fit,
    of_the_kind_named,
    read_description,
)
from giftgenius.catalog.search import ProductList
from tests.catalog.product_factory import make

LAMP = make(
    "g-9001",
    title="Walnut Desk Lamp",
    description="A small lamp turned from walnut with a warm LED bulb.",
    tags=["home-decor"],
)
KETTLE = make(
    "g-9002",
    title="Gooseneck Kettle",
    description="An electric kettle that holds the water at the temperature you set.",
    tags=["tea", "coffee"],
    price=45.0,
)
SPEAKER = make(
    "g-9003",
    title="Pocket Speaker",
    description="A wireless speaker with twelve hours of battery.",
    tags=["music", "tech"],
    price=35.0,
)
TEAPOT = make(
    "g-9004",
    title="Cast Iron Teapot",
    description="A heavy teapot that keeps tea hot on the table.",
    tags=["tea"],
    price=30.0,
)
PRODUCTS = [LAMP, KETTLE, SPEAKER, TEAPOT]


@pytest.mark.parametrize(
    ("words", "product"),
    [
        ("la lampe en bois", LAMP),  # a material in French, "walnut" in the record
        ("the wooden one", LAMP),
        ("celle qui règle la température", KETTLE),  # a feature, in French
        ("the electric one", KETTLE),
        ("l'enceinte sans fil", SPEAKER),
        ("the bluetooth speaker", SPEAKER),
        ("la théière en fonte", TEAPOT),  # the vocabulary's tea, then the title's "teapot"
    ],
)
def test_a_description_picks_the_product_it_names(words: str, product) -> None:
    assert best_fits(PRODUCTS, read_description(words)) == [product]


def test_terms_are_read_in_both_languages() -> None:
    french = read_description("le moulin en bois numérique")
    english = read_description("the digital wooden grinder")
    assert french.tags == english.tags == {"grinder"}
    assert french.materials == english.materials == {"wood"}
    assert french.features == english.features == {"digital"}
    assert read_description("si vous en avez un, s'il vous plaît").size == 0


def test_too_few_terms_met_is_no_match() -> None:
    described = read_description("the purple velvet juggling balls")
    assert all(fit(p, described) == 0 for p in PRODUCTS)
    assert best_fits(PRODUCTS, described) == []


def test_the_catalog_lookup_keeps_the_constraints() -> None:
    """The same terms rank the catalog (materials and features in the records' words), and
    the filters apply before anything is offered."""
    catalog = ProductList(PRODUCTS, load_rates())
    query = described_query(read_description("la bouilloire électrique"))
    assert [p.id for p in catalog.ranked(query, limit=3)][:1] == ["g-9002"]
    tight = FilterSpec(budget_max=40, currency="USD", today=dt.date(2026, 12, 1))
    assert "g-9002" not in [p.id for p in catalog.ranked(query, limit=3, spec=tight)]


def test_off_the_shortlist_a_find_must_be_of_the_kind_named() -> None:
    """Half the words is enough among the ideas shown, not in the whole catalog: a tank
    thermometer meets half of "the thermometer for the roast", an atlas half of "a book of
    sea stories", yet neither is the thing asked for."""
    tank = make(
        "g-9101",
        title="Aquarium Thermometer Strip",
        description="A stick-on strip that shows the water temperature of a fish tank.",
        tags=["aquarium"],
    )
    atlas = make(
        "g-9102",
        title="Atlas of Tea Gardens",
        description="Maps and photographs of tea estates, as a large hardback book.",
        tags=["tea", "book"],
    )
    sea_book = make(
        "g-9103",
        title="Tales of the Sea",
        description="Stories of sailors and storms, a hardback book for long evenings.",
        tags=["book", "sailing"],
    )
    roast = read_description("the thermometer for the roast")
    assert fit(tank, roast) and not of_the_kind_named(tank, roast)
    sea = read_description("le livre sur la voile")
    assert of_the_kind_named(sea_book, sea) and not of_the_kind_named(atlas, sea)
