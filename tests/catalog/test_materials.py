"""A refused material is refused in both languages, wherever the product's text names it."""

from __future__ import annotations

import datetime as dt

import pytest
from product_factory import make

from giftgenius.catalog import FilterSpec, check, load_products, load_rates
from giftgenius.language.materials import material_of

TODAY = dt.date(2026, 11, 29)


@pytest.mark.parametrize(
    ("phrase", "material"),
    [
        ("argent", "silver"),
        ("pas d'argent", "silver"),
        ("sterling silver", "silver"),
        ("cuir", "leather"),
        ("no leather", "leather"),
        ("rien en plastique", "plastic"),
        ("laine", "wool"),
        ("silver ring", None),  # a ring, not a bare material
        ("argent liquide", None),  # cash
        ("mugs", None),
    ],
)
def test_material_of(phrase: str, material: str | None) -> None:
    assert material_of(phrase) == material


def passes(product_dislikes: list[str], **fields: object) -> bool:
    spec = FilterSpec(budget_max=500, currency="USD", today=TODAY, dislikes=product_dislikes)
    return not check(make("g-0001", **fields), spec, load_rates())  # type: ignore[arg-type]


@pytest.mark.parametrize("dislike", ["argent", "silver", "l'argent", "argenté"])
def test_silver_is_refused_by_its_french_name_even_when_only_the_description_says_it(
    dislike: str,
) -> None:
    assert not passes([dislike], title="Initial necklace", description="Sterling silver chain.")
    assert not passes([dislike], title="Silver-plated ring", tags=["jewelry"])
    assert passes([dislike], title="Gold hoop earrings", description="Solid 9-carat gold.")


def test_leather_and_plastic_in_either_language() -> None:
    assert not passes(["cuir"], title="Card wallet", description="A slim leather wallet.")
    assert not passes(["no leather"], title="Suede gloves")
    assert not passes(["plastique"], title="Desk tidy", description="Recycled plastic.")
    assert passes(["plastique"], title="Oak desk tidy", description="Solid oak.")


def test_no_silver_jewellery_is_left_in_the_real_catalog() -> None:
    spec = FilterSpec(budget_max=10_000, currency="EUR", today=TODAY, dislikes=["argent"])
    kept = [p for p in load_products() if "jewelry" in p.tags and not check(p, spec, load_rates())]
    assert kept and not any("silver" in f"{p.title} {p.description}".lower() for p in kept)
