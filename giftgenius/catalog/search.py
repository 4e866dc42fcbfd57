"""Candidate search and filtering: pure functions over a list of products, no I/O.

Search ranks by meaning, not spelling: every query word is first mapped to canonical tags,
and titles and descriptions are read through the same vocabulary, so "jeux de société" and
"board games" find the same items in the same order. Filtering explains each rejection so
the agent can tell the user what to relax.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from giftgenius.catalog.models import Product, Rates
from giftgenius.catalog.vocabulary import (
    RECIPIENTS,
    analyze,
    canonical_recipient,
    canonical_tags,
    describe,
    lemmas,
)
from giftgenius.domain import Currency

ADULT_AGE = 18
_YOUNG = frozenset({"child", "teen"})

# Words too common to mean anything on their own in a query (English and French).
_STOPWORD_TEXT = """
    a an and any are as at be but by for from gift gifts has have he her him his i in into is
    it its like likes love loves me my of on or our she some something that the their them
    they this to very we what who with would you your also really much more most
    au aux avec ce ces cadeau cadeaux cette dans de des du elle en est et il ils je la le les
    leur lui ma mais me mes mon ne nous ou par pas plus pour qu que qui sa se ses son sur ta
    te tes ton tres trop tu un une vos votre aime adore bien beaucoup aussi
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


class FilterSpec(BaseModel):
    """What a candidate must satisfy; built from the run's profile at filtering time."""

    budget_max: float = Field(gt=0, description="Upper bound, in ``currency``")
    budget_min: float | None = Field(None, ge=0)
    currency: Currency = "USD"
    country: str | None = Field(None, pattern=r"^[A-Z]{2}$", description="ISO alpha-2")
    deadline: dt.date | None = None
    today: dt.date
    dislikes: list[str] = Field(default_factory=list)


@lru_cache(maxsize=4096)
def _text_index(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Tags and word lemmas of a title or description (cached: the catalog is static)."""
    return frozenset(analyze(text).tags), frozenset(lemmas(text))


def _product_text(product: Product) -> tuple[frozenset[str], frozenset[str]]:
    title_tags, title_words = _text_index(product.title)
    desc_tags, desc_words = _text_index(product.description)
    return title_tags | desc_tags, title_words | desc_words


def _query_words(words: Iterable[str]) -> frozenset[str]:
    return frozenset(w for w in words if len(w) >= 3 and w not in _STOPWORDS and not w.isdigit())


def _recipient_kind(recipient: str | None) -> str | None:
    if recipient is None:
        return None
    return canonical_recipient(recipient) or (recipient if recipient in RECIPIENTS else None)


def _recipient_fit(product: Product, kind: str | None) -> int:
    """How well the product suits the audience: 2 made for it, 1 for anyone, 0 not for it.

    The audience "anyone" (a relation that tells nothing of age or tastes: "uncle", "my
    hairdresser") is suited alike by every product except those made only for children.
    """
    if kind is None:
        return 0
    if kind == "anyone":
        return 0 if set(product.recipients) <= _YOUNG else 1
    if kind in product.recipients:
        return 2
    return 1 if "anyone" in product.recipients else 0


def _age_allows(product: Product, age: int | None, kind: str | None) -> bool:
    if age is not None:
        return product.fits_age(age)
    # No age given for a child: still keep adult-only products (spirits, knives) away.
    return not (kind in _YOUNG and (product.min_age or 0) >= ADULT_AGE)


def search(
    products: Sequence[Product],
    words: str | Iterable[str],
    *,
    recipient: str | None = None,
    age: int | None = None,
    limit: int | None = None,
) -> list[Product]:
    """Products matching the words, best first.

    Rank: canonical tag matches, then matches in title/description, then recipient fit,
    then id. With no meaningful words, products are ranked by recipient fit alone.
    """
    query = analyze(words)
    raw = _query_words(query.words)
    kind = _recipient_kind(recipient)
    ranked: list[tuple[tuple[int, int, int, str], Product]] = []
    for product in products:
        if not _age_allows(product, age, kind):
            continue
        text_tags, text_words = _product_text(product)
        tag_hits = len(query.tags.intersection(product.tags))
        text_hits = len(query.tags & text_tags) + len(raw & text_words)
        fit = _recipient_fit(product, kind)
        if query.tags or raw:
            if tag_hits + text_hits == 0:
                continue
        elif kind is not None and fit == 0:
            continue
        ranked.append(((-tag_hits, -text_hits, -fit, product.id), product))
    ranked.sort(key=lambda pair: pair[0])
    found = [product for _, product in ranked]
    return found if limit is None else found[:limit]


def price_in(product: Product, currency: str, rates: Rates) -> float:
    """The product's price in ``currency`` with the catalog's table, rounded to cents."""
    return rates.convert(product.price, product.currency, currency)


def _dislike_hit(product: Product, dislike: str) -> bool:
    """A dislike hits when one of its tags is the product's, or its words are in the title."""
    meaning = analyze(dislike)
    if meaning.tags & set(product.tags):
        return True
    title_tags, title_words = _text_index(product.title)
    if meaning.tags & title_tags:
        return True
    significant = _query_words(meaning.words)
    return bool(significant) and significant <= title_words


def check(product: Product, spec: FilterSpec, rates: Rates) -> list[str]:
    """Why the product fails the spec; [] means it passes.

    Reasons are short, stable phrases (the same for every product failing the same way),
    so callers can count them: "out of stock", "over budget (max 50.00 USD)",
    "under budget (min 20.00 USD)", "does not ship to FR", "cannot arrive by 2026-12-20",
    "matches dislike 'mug'".
    """
    reasons: list[str] = []
    if not product.in_stock:
        reasons.append("out of stock")
    price = price_in(product, spec.currency, rates)
    if price > round(spec.budget_max, 2):
        reasons.append(f"over budget (max {spec.budget_max:.2f} {spec.currency})")
    if spec.budget_min is not None and price < round(spec.budget_min, 2):
        reasons.append(f"under budget (min {spec.budget_min:.2f} {spec.currency})")
    if spec.country is not None and not product.ships_to_country(spec.country):
        reasons.append(f"does not ship to {spec.country}")
    if spec.deadline is not None:
        arrives = spec.today + dt.timedelta(days=product.delivery_days)
        if arrives > spec.deadline:
            reasons.append(f"cannot arrive by {spec.deadline.isoformat()}")
    for dislike in spec.dislikes:
        if dislike.strip() and _dislike_hit(product, dislike):
            reasons.append(f"matches dislike '{dislike.strip()}'")
    return reasons


_WHY = {"en": "matches: {}", "fr": "correspond à : {}"}


def why_it_fits(product: Product, interests: list[str], locale: str) -> str:
    """A short reason in the user's language, naming the interests this product meets."""
    text_tags, text_words = _product_text(product)
    product_tags = set(product.tags) | text_tags
    shown: list[str] = []
    for interest in interests:
        tags = canonical_tags(interest)
        if tags:
            # Order by the product's own tags first: they are the strongest match.
            hits = sorted(tags & product_tags, key=lambda t: (t not in product.tags, t))
            labels = [describe(tag, locale) for tag in hits]
        else:
            words = _query_words(lemmas(interest))
            labels = [interest.strip()] if words and words <= text_words else []
        shown.extend(label for label in labels if label not in shown)
    if not shown:
        return ""
    return _WHY["fr" if locale == "fr" else "en"].format(", ".join(shown))
