"""Candidate search and filtering: pure functions over a list of products, no I/O.

Search ranks by meaning, not spelling: every query word is first mapped to canonical tags,
and titles and descriptions are read through the same vocabulary, so "jeux de société" and
"board games" find the same items in the same order. Filtering explains each rejection so
the agent can tell the user what to relax.

A shortlist must answer what the person said. A product *answers* a stated interest when
one of its own tags means that interest (or, for a word the vocabulary does not know, when
the word is in its title or description) — a mention in a description is not enough, so a
sci-fi novel whose blurb names a notebook does not answer "notebooks". ``search_pool``
gives every interest its share of the pool, ``shortlist`` takes one product per interest
before filling up by score and shows first those answering the most interests, and
``unserved`` names the interests left without a product, with the closest things the
catalog does have.
"""

from __future__ import annotations

import datetime as dt
import difflib
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache

from pydantic import BaseModel, Field

from giftgenius.catalog.materials import folded_words, material_of, mentions
from giftgenius.catalog.models import Product, Rates
from giftgenius.catalog.vocabulary import (
    RECIPIENTS,
    TAGS,
    analyze,
    canonical_recipient,
    canonical_tags,
    describe,
    lemmas,
    synonyms,
)
from giftgenius.domain import Currency

ADULT_AGE = 18
_YOUNG = frozenset({"child", "teen"})
# Recipient kinds that are grown-ups whatever their age: toys sized for a child never fit them.
_GROWN_UP = frozenset(RECIPIENTS) - _YOUNG - {"anyone"}

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


def _for_children_only(product: Product) -> bool:
    """Made for children: capped below adulthood, or offered to children and teens only."""
    if product.max_age is not None and product.max_age < ADULT_AGE:
        return True
    return set(product.recipients) <= _YOUNG


def _age_allows(product: Product, age: int | None, kind: str | None) -> bool:
    if age is not None:
        # A known adult never gets a child's product, even one with no upper age bound.
        return product.fits_age(age) and not (age >= ADULT_AGE and _for_children_only(product))
    if kind in _YOUNG:
        # No age given for a child: still keep adult-only products (spirits, knives) away.
        return (product.min_age or 0) < ADULT_AGE
    # A grandparent, a boss, a mother…: grown-ups, whatever age was (not) said.
    return not (kind in _GROWN_UP and _for_children_only(product))


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


@lru_cache(maxsize=4096)
def _text_names(text: str, material: str) -> bool:
    return mentions(material, folded_words(text))


def _made_of(product: Product, material: str) -> bool:
    return _text_names(f"{product.title} {product.description}", material)


def _dislike_hit(product: Product, dislike: str) -> bool:
    """A dislike hits when one of its tags is the product's, or its words are in the title;
    a material ("argent", "no leather") hits wherever the title or description names it in
    either language, for a silver clasp is silver all the same."""
    material = material_of(dislike)
    if material is not None and _made_of(product, material):
        return True
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


def _answers_one(product: Product, interest: str) -> bool:
    tags = canonical_tags(interest)
    if tags:
        return bool(tags & set(product.tags))
    words = _query_words(lemmas(interest))
    return bool(words) and words <= _product_text(product)[1]


def _strength(product: Product, interest: str) -> int:
    """How central the interest is to the product: 0 for its first tag (or a title word)…

    Tags are listed most defining first, so a mug tagged ``mug, coffee, board-game`` is a
    weaker answer to "board games" than a game tagged ``game, board-game``.
    """
    tags = canonical_tags(interest)
    if tags:
        return min((i for i, tag in enumerate(product.tags) if tag in tags), default=99)
    words = _query_words(lemmas(interest))
    return 0 if words and words <= _text_index(product.title)[1] else 1


def answers(product: Product, interests: Sequence[str]) -> list[str]:
    """The stated interests (as stated) this product answers, in the order they were stated.

    Only the product's own tags count for an interest the vocabulary knows; an unknown word
    must stand in the title or the description.
    """
    return [i for i in interests if i.strip() and _answers_one(product, i)]


def why_it_fits(product: Product, interests: list[str], locale: str) -> str:
    """A short reason in the user's language, naming the interests this product answers."""
    shown: list[str] = []
    for interest in answers(product, interests):
        tags = canonical_tags(interest)
        if tags:
            labels = [describe(tag, locale) for tag in sorted(tags & set(product.tags))]
        else:
            labels = [interest.strip()]
        shown.extend(label for label in labels if label not in shown)
    if not shown:
        return ""
    return _WHY["fr" if locale == "fr" else "en"].format(", ".join(shown))


def search_pool(
    products: Sequence[Product],
    interests: Sequence[str],
    *,
    extra_words: Sequence[str] = (),
    recipient: str | None = None,
    age: int | None = None,
    limit: int,
) -> list[Product]:
    """The pool the filters run over: every interest gets its turn, best products first.

    The products answering each interest are ranked on their own, then taken in turns
    (first of each interest, second of each…), so "cooking and jazz" holds jazz as well as
    cooking however many cooking items rank higher; the rest of the search fills what is left.
    """
    stated = [i for i in interests if i.strip()]
    per_interest: list[list[Product]] = []
    for interest in stated:
        found = search(products, [interest], recipient=recipient, age=age)
        strength = {p.id: _strength(p, interest) for p in found if _answers_one(p, interest)}
        answering = [p for p in found if p.id in strength]
        per_interest.append(sorted(answering, key=lambda p: strength[p.id]))  # stable: rank
    pool: list[Product] = []
    seen: set[str] = set()
    for rank in range(max((len(found) for found in per_interest), default=0)):
        for found in per_interest:
            if rank < len(found) and found[rank].id not in seen and len(pool) < limit:
                pool.append(found[rank])
                seen.add(found[rank].id)
    for product in search(products, [*stated, *extra_words], recipient=recipient, age=age):
        if len(pool) >= limit:
            break
        if product.id not in seen:
            pool.append(product)
            seen.add(product.id)
    return pool


def shortlist(passing: Sequence[Product], interests: Sequence[str], size: int) -> list[Product]:
    """Up to ``size`` products: one per stated interest first, then the best of the rest,
    shown best first.

    ``passing`` is in rank order. Products answering no interest are left out whenever any
    passing product answers one; "best" is the number of interests answered, then how
    central they are to the product, then rank. So a dinosaur plush comes before a dinosaur
    kit for "dinosaurs and plush toys", and a pasta kit before a pasta poster for "cooking
    and Italian food": whoever says "the first one" gets what answers most of what they said.
    """
    stated = [i for i in interests if i.strip()]
    answered = {p.id: answers(p, stated) for p in passing}
    relevant = [p for p in passing if answered[p.id]] if stated else list(passing)
    if stated and not relevant:
        return []
    rank = {p.id: i for i, p in enumerate(relevant)}

    def score(product: Product) -> tuple[int, int, int]:
        return (
            -len(answered[product.id]),
            min((_strength(product, i) for i in answered[product.id]), default=99),
            rank[product.id],
        )

    by_score = sorted(relevant, key=score)
    chosen: list[Product] = []
    for interest in stated:
        for product in by_score:
            if len(chosen) < size and interest in answered[product.id] and product not in chosen:
                chosen.append(product)
                break
    for product in by_score:
        if len(chosen) >= size:
            break
        if product not in chosen:
            chosen.append(product)
    return sorted(chosen, key=lambda p: -len(answered[p.id]))  # stable: interests keep turns


class Unserved(BaseModel):
    """A stated interest no shown product answers, and what the catalog has that is close."""

    interest: str
    in_catalog: bool = Field(
        description="Some product answers it, but none passes the person's filters"
    )
    suggestions: list[str] = Field(default_factory=list, description="Display names")


def unserved(
    interests: Sequence[str],
    shown: Sequence[Product],
    catalog: Sequence[Product],
    locale: str,
    *,
    limit: int = 3,
) -> list[Unserved]:
    """The stated interests none of ``shown`` answers, each with up to ``limit`` alternatives.

    Alternatives, closest first: vocabulary entries spelled nearly like the interest
    ("joggin" → running) that some product carries; the main tags of products whose text
    mentions it (a scarf with a bird print, for "birds"); then what the shown products are
    about, most common first, so the person hears what is on offer.
    """
    out: list[Unserved] = []
    stocked = Counter(tag for p in catalog for tag in p.tags)
    offered = Counter(tag for p in shown for tag in p.tags)
    for interest in interests:
        if not interest.strip() or any(_answers_one(p, interest) for p in shown):
            continue
        in_catalog = any(_answers_one(p, interest) for p in catalog)
        own = canonical_tags(interest)
        words = _query_words(lemmas(interest))
        mentioned = Counter(
            tag for p in catalog if words and words <= _product_text(p)[1] for tag in p.tags[:2]
        )
        tags = [t for t in _closest_tags(interest) if t not in own and stocked[t]]
        for ranked in (mentioned, offered):
            tags += [t for t, _ in ranked.most_common() if t not in own and t not in tags]
        names: list[str] = []
        for tag in tags:
            name = describe(tag, locale)
            if name not in names:
                names.append(name)
        out.append(
            Unserved(interest=interest.strip(), in_catalog=in_catalog, suggestions=names[:limit])
        )
    return out


@lru_cache(maxsize=1)
def _spellings() -> dict[str, str]:
    """Every folded synonym of the vocabulary → its tag (for near-miss spellings)."""
    return {" ".join(lemmas(word)): tag for tag in sorted(TAGS) for word in synonyms(tag)}


def _closest_tags(interest: str) -> list[str]:
    wanted = " ".join(lemmas(interest))
    close = difflib.get_close_matches(wanted, list(_spellings()), n=6, cutoff=0.75)
    tags: list[str] = []
    for spelling in close:
        tag = _spellings()[spelling]
        if tag not in tags:
            tags.append(tag)
    return tags
