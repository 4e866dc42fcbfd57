"""A product's tags say what it is and whom it is for, not a word of its title.

A tag is a promise to the person who states that interest: "jewellery" must bring something
worn, "plants" something that grows. Tags once copied from the shop shelf a product sat on
(wallets and sunglasses under "jewelry") or from the picture it shows (a jigsaw of
wildflowers as "plants", a pasta poster as "Italian food") broke that promise.
"""

from __future__ import annotations

from giftgenius.catalog import load_products

# Things that are not jewellery, whatever shelf they were sold on.
_NOT_WORN_AS_JEWELLERY = frozenset({"wallet", "scarf", "eyewear", "watch"})
# Gifts that show a subject rather than serve it: a picture of a flower is not a plant.
_PICTURES = frozenset({"puzzle", "embroidery", "painting", "building-set"})
_LIVING_OR_EATEN = frozenset({"plant", "gardening", "italian-cuisine", "cooking", "bird"})


def test_jewellery_is_worn() -> None:
    wrong = [
        p.title
        for p in load_products()
        if "jewelry" in p.tags
        and (_NOT_WORN_AS_JEWELLERY & set(p.tags) or "umbrella" in p.title.lower())
    ]
    assert wrong == []


def test_a_picture_of_a_subject_is_not_the_subject() -> None:
    wrong = [
        (p.title, sorted(_LIVING_OR_EATEN & set(p.tags)))
        for p in load_products()
        if _PICTURES & set(p.tags) and _LIVING_OR_EATEN & set(p.tags)
    ]
    assert wrong == []


# What a kind of gift is used for: a cookbook is a cooking gift (or a baking one), whatever
# cuisine it teaches, so the person who states "cooking" is promised it too.
_USED_FOR = {"cookbook": frozenset({"cooking", "baking"})}


def test_a_kind_of_gift_carries_what_it_is_used_for() -> None:
    wrong = [
        (p.title, kind)
        for p in load_products()
        for kind, uses in _USED_FOR.items()
        if kind in p.tags and not uses & set(p.tags)
    ]
    assert wrong == []
