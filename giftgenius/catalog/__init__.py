"""The gift catalog: bundled product data, the currency table, vocabulary and search.

Data files are read through ``importlib.resources`` so the catalog works the same from a
source checkout, an editable install or a wheel. Products live in ``data/products/*.json``,
one file per theme (``assorted.json`` holds the first, mixed catalog); every file there is
read, so a new theme is a new file and nothing else.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources

from pydantic import TypeAdapter, ValidationError

from giftgenius.catalog.models import Product, Rates
from giftgenius.catalog.search import (
    FilterSpec,
    ProductList,
    Unserved,
    answers,
    check,
    price_in,
    search,
    search_pool,
    shortlist,
    unserved,
    why_it_fits,
)
from giftgenius.errors import ConfigError
from giftgenius.language.vocabulary import (
    INTERESTS,
    RECIPIENTS,
    TAGS,
    canonical_recipient,
    canonical_tags,
    describe,
    interests,
)
from giftgenius.messages import speak

__all__ = [
    "INTERESTS",
    "RECIPIENTS",
    "TAGS",
    "FilterSpec",
    "Product",
    "ProductList",
    "Rates",
    "Unserved",
    "answers",
    "canonical_recipient",
    "canonical_tags",
    "catalog_version",
    "check",
    "describe",
    "interests",
    "load_products",
    "load_rates",
    "price_in",
    "prices_of",
    "product_json",
    "search",
    "search_pool",
    "shortlist",
    "unserved",
    "why_it_fits",
]

_DATA = "giftgenius.catalog.data"
_PRODUCTS = "products"
_RATES = "rates.json"


def _product_files() -> list[str]:
    """Names of the product files (``products/<theme>.json``), sorted so hashing is stable."""
    folder = resources.files(_DATA).joinpath(_PRODUCTS)
    names = sorted(entry.name for entry in folder.iterdir() if entry.name.endswith(".json"))
    if not names:
        raise ConfigError(speak("install", "catalog.no_products", folder=_PRODUCTS))
    return [f"{_PRODUCTS}/{name}" for name in names]


def _read(name: str) -> bytes:
    try:
        return resources.files(_DATA).joinpath(*name.split("/")).read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(speak("install", "catalog.missing", name=name)) from exc


@lru_cache(maxsize=1)
def load_products() -> tuple[Product, ...]:
    """Every bundled product of every theme file, in id order (read and validated once)."""
    adapter = TypeAdapter(list[Product])
    products: list[Product] = []
    for name in _product_files():
        try:
            products.extend(adapter.validate_json(_read(name)))
        except ValidationError as exc:
            raise ConfigError(
                speak(
                    "install",
                    "catalog.invalid",
                    name=name,
                    errors=exc.error_count(),
                    first=exc.errors()[0]["msg"],
                )
            ) from exc
    return tuple(sorted(products, key=lambda p: p.id))


@lru_cache(maxsize=1)
def load_rates() -> Rates:
    """The catalog's dated conversion table."""
    try:
        return Rates.model_validate_json(_read(_RATES))
    except ValidationError as exc:
        raise ConfigError(
            speak("install", "rates.invalid", name=_RATES, reason=exc.errors()[0]["msg"])
        ) from exc


@lru_cache(maxsize=1)
def catalog_version() -> str:
    """sha256 over every data file: the database reseeds its products when this changes.

    File names are hashed too, so moving a product between theme files also reseeds.
    """
    digest = hashlib.sha256()
    for name in (*_product_files(), _RATES):
        digest.update(name.encode())
        digest.update(_read(name))
    return digest.hexdigest()


def prices_of(product: Product, rates: Rates) -> dict[str, float]:
    """The product's price in every currency of the conversion table."""
    return {cur: price_in(product, cur, rates) for cur in sorted(rates.per_usd)}


def product_json(product: Product, rates: Rates) -> dict[str, object]:
    """The ``catalog show`` shape: the product plus its price in every currency."""
    data = json.loads(product.model_dump_json())
    data["prices"] = prices_of(product, rates)
    return data
