"""Deterministic synthetic products, for benchmarks on catalogs far larger than the shipped one.

``giftgenius catalog generate --products N`` and ``giftgenius bench turn`` need catalogs of
1,000 to 100,000 products that search treats like real ones: every product is a valid
``Product`` whose tags are the vocabulary's own (so interests find it), with prices,
currencies, shipping countries, delivery times, ages and audiences varied the way the
shipped catalog varies them.

Product ``i`` depends only on ``(seed, i)``, so the first N products of a larger catalog are
the catalog of N: growing a catalog only adds rows. Ids start at ``SYNTHETIC_ID_BASE`` and
never meet the shipped ids (``g-0001`` …). Pure: no I/O, nothing stored.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import lru_cache

from giftgenius.catalog.models import Product
from giftgenius.catalog.venues import EXPERIENCE_TAG
from giftgenius.language.vocabulary import INTERESTS, RECIPIENTS, TAGS, describe

SYNTHETIC_ID_BASE = 10_000_000
VERSION_PREFIX = "synthetic"
MAX_PRODUCTS = 10_000_000

# The shipped catalog's mix, roughly (see catalog/data/products): a third each.
CURRENCIES = ("EUR", "USD", "GBP")
COUNTRIES = (
    "FR", "BE", "LU", "IE", "DE", "NL", "ES", "IT", "AT", "PT", "GB", "DK", "SE", "FI", "PL",
    "CZ", "US", "CA", "CH", "NO", "AU", "JP",
)  # fmt: skip
ADJECTIVES = (
    "Classic", "Handmade", "Deluxe", "Compact", "Vintage", "Modern", "Travel", "Family",
    "Beginner's", "Collector's", "Eco", "Premium", "Mini", "Personalised", "Rustic", "Bright",
)  # fmt: skip
FORMS = ("set", "kit", "box", "collection", "bundle", "edition", "pack", "sampler")
# Audiences and the ages that go with them; "anyone" is added to most products, as shipped.
ADULT_RECIPIENTS = tuple(r for r in RECIPIENTS if r not in ("child", "teen", "anyone"))


def catalog_version(count: int, seed: int) -> str:
    """The catalog version a synthetic catalog is stored under: ``synthetic:N:SEED``."""
    return f"{VERSION_PREFIX}:{count}:{seed}"


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(interest tags, kind tags), sorted: frozenset order changes with the hash seed."""
    interests = tuple(sorted(INTERESTS))
    kinds = tuple(sorted(TAGS - INTERESTS))
    return interests, kinds


def synthetic_product(index: int, seed: int = 0) -> Product:
    """Product number ``index`` (from 0) of the synthetic catalog ``seed``."""
    if not 0 <= index < MAX_PRODUCTS:
        raise ValueError(f"a synthetic product index is 0 to {MAX_PRODUCTS - 1}, not {index}")
    rng = random.Random(f"{seed}:{index}")
    interests, kinds = _vocabulary()
    tags = rng.sample(interests, rng.choice((1, 1, 2, 2, 3)))
    if rng.random() < 0.4:
        tags.append(rng.choice(kinds))
    main = describe(tags[0])
    title = f"{rng.choice(ADJECTIVES)} {main} {rng.choice(FORMS)} no. {index + 1}"
    other = ", ".join(describe(t) for t in tags[1:]) or main
    description = (
        f"A {rng.choice(FORMS)} for people who love {main}; it also suits {other}. "
        f"Synthetic product {index + 1} of catalog {seed}, for benchmarks."
    )
    min_age, max_age, recipients = _audience(rng)
    anywhere = rng.random() < 0.4
    ships_to = ["*"] if anywhere else sorted(rng.sample(COUNTRIES, rng.randint(1, 10)))
    if anywhere and EXPERIENCE_TAG in tags:
        ships_to = _near_one_place(index, seed)  # held somewhere: offered near it only
    price = round(5 * (100 ** rng.random()), 0) - 0.01  # 4.99 to 499.99, log-uniform
    return Product(
        id=f"g-{SYNTHETIC_ID_BASE + index}",
        title=title,
        description=description,
        price=max(price, 1.99),
        currency=rng.choice(CURRENCIES),
        tags=tags,
        recipients=recipients,
        min_age=min_age,
        max_age=max_age,
        ships_to=ships_to,
        delivery_days=rng.choice((1, 2, 2, 3, 3, 4, 5, 5, 7, 10, 14, 21)),
        in_stock=rng.random() < 0.95,
    )


def _audience(rng: random.Random) -> tuple[int | None, int | None, list[str]]:
    """(min_age, max_age, recipients), consistent with each other."""
    kind = rng.random()
    if kind < 0.08:  # for children
        return rng.choice((0, 3, 6)), rng.choice((8, 10, 12)), ["child", "anyone"]
    if kind < 0.15:  # for teenagers
        return 12, rng.choice((17, 19, None)), ["teen", "anyone"]
    recipients = sorted(rng.sample(ADULT_RECIPIENTS, rng.randint(1, 4)))
    if rng.random() < 0.9:
        recipients.append("anyone")
    return rng.choice((None, None, None, 14, 18)), None, recipients


def _near_one_place(index: int, seed: int) -> list[str]:
    """Where an experience happens and the countries next to it: one to three of them (from
    a generator of its own, so the other products keep the values they always had)."""
    rng = random.Random(f"{seed}:{index}:venue")
    return sorted(rng.sample(COUNTRIES, rng.randint(1, 3)))


def synthetic_products(count: int, seed: int = 0) -> Iterator[Product]:
    """The synthetic catalog of ``count`` products, in id order."""
    if not 0 < count <= MAX_PRODUCTS:
        raise ValueError(f"a synthetic catalog holds 1 to {MAX_PRODUCTS:,} products, not {count}")
    for index in range(count):
        yield synthetic_product(index, seed)
