"""Where a gift happens: an experience held in one place is a gift only for people near it.

A brewery visit in Bruges "delivered in 1 day" to someone in Denver is no gift, however
quickly its voucher arrives. So an in-person experience (tagged ``experience``, its text
naming no way to take it from afar: ``lexicons/<lang>/venues.toml``) says where it happens
through ``ships_to``: the countries near it, never ``*``. One taken online ("an online
course") or at home (a tasting kit) may go anywhere. The shipped catalog and the synthetic
one both keep to it (``tests/catalog/test_venues.py``), and so does every shortlist, as the
filters read ``ships_to`` alone.
"""

from __future__ import annotations

import re
from functools import lru_cache

from giftgenius.catalog.models import Product
from giftgenius.language import lexicon
from giftgenius.language.folding import alternation, fold

EXPERIENCE_TAG = "experience"


@lru_cache(maxsize=1)
def _afar() -> re.Pattern[str]:
    """The words of taking an experience from afar, both languages, folded."""
    words = alternation(fold(w) for w in lexicon.union("venues", "not_in_person"))
    return re.compile(rf"(?<![\w])(?:{words})(?![\w])")


def taken_from_afar(product: Product) -> bool:
    """Its title or description says it is taken online or at home."""
    return _afar().search(fold(f"{product.title} {product.description}")) is not None


def in_person(product: Product) -> bool:
    """An experience the recipient must go to."""
    return EXPERIENCE_TAG in product.tags and not taken_from_afar(product)


def placeless(product: Product) -> bool:
    """An in-person experience offered anywhere: wrong, it happens somewhere."""
    return in_person(product) and product.ships_anywhere()
