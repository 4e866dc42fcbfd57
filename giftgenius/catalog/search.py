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
import hashlib
import re
from collections import Counter
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import NamedTuple, Protocol

from pydantic import BaseModel, Field

from giftgenius.catalog.models import Product, Rates
from giftgenius.domain import Currency
from giftgenius.language import lexicon
from giftgenius.language.materials import MATERIALS, folded_words, material_of, mentions
from giftgenius.language.vocabulary import (
    INGREDIENTS,
    RECIPIENTS,
    TAGS,
    analyze,
    canonical_recipient,
    canonical_tags,
    describe,
    lemmas,
    synonyms,
    within,
)

ADULT_AGE = 18
YOUNG = frozenset({"child", "teen"})
# Recipient kinds that are grown-ups whatever their age: toys sized for a child never fit them.
GROWN_UP = frozenset(RECIPIENTS) - YOUNG - {"anyone"}

# Words too common to mean anything on their own in a query, in both languages: every
# function word, and the common words of ``lexicons/<lang>/stopwords.toml``, but those
# function words a query has always searched for.
_STOPWORDS = (
    frozenset(
        w
        for lang in lexicon.LANGUAGES
        for ws in lexicon.table("function_words", lang).values()
        for w in ws
    )
    | lexicon.union("stopwords", "common")
) - lexicon.union("stopwords", "kept_in_queries")


class FilterSpec(BaseModel):
    """What a candidate must satisfy; built from the run's profile at filtering time."""

    budget_max: float = Field(gt=0, description="Upper bound, in ``currency``")
    budget_min: float | None = Field(None, ge=0)
    currency: Currency = "USD"
    country: str | None = Field(None, pattern=r"^[A-Z]{2}$", description="ISO alpha-2")
    deadline: dt.date | None = None
    today: dt.date
    dislikes: list[str] = Field(default_factory=list)


# "fragrance-free", "sugar-free": what a product is free of is not what it is about.
_FREE_OF = re.compile(r"[^\W\d_]+-free\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def _text_index(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Tags and word lemmas of a title or description (cached: the catalog is static)."""
    text = _FREE_OF.sub(" ", text)
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
        return 0 if young_only(product) else 1
    if kind in product.recipients:
        return 2
    return 1 if "anyone" in product.recipients else 0


def young_only(product: Product) -> bool:
    """Offered to children and teens only (the audience "anyone" never fits it)."""
    return set(product.recipients) <= YOUNG


def children_only(product: Product) -> bool:
    """Made for children: capped below adulthood, or offered to children and teens only."""
    if product.max_age is not None and product.max_age < ADULT_AGE:
        return True
    return young_only(product)


AgeRange = tuple[int, int]
# The tag of products about pets; those not offered to children or teens are things for the
# pet (treats, collars, cat toys): gifts for a pet owner, not for a child who likes animals.
PET_TAG = "pet"


def for_pets(product: Product) -> bool:
    """A pet owner's gift: tagged for pets and offered to no child or teen (a kids' guide
    to aquariums or a pony grooming kit lists them, a dog's treats do not)."""
    return PET_TAG in product.tags and not YOUNG.intersection(product.recipients)


def grown_up_range(ages: AgeRange | None) -> bool:
    """Ages that are all grown-up ("uncle": 18 to 99)."""
    return ages is not None and ages[0] >= ADULT_AGE


def young_range(ages: AgeRange | None) -> bool:
    """Ages that are all under adulthood ("kid": 3 to 12, "teen": 13 to 17)."""
    return ages is not None and ages[1] < ADULT_AGE


def presumed_young(age: int | None, kind: str | None, ages: AgeRange | None) -> bool:
    """The recipient is, or is taken for, a child or a teenager: by the age said, else by
    the catalog audience or the ages the relation tells."""
    if age is not None:
        return age < ADULT_AGE
    return kind in YOUNG or young_range(ages)


def _meets(product: Product, ages: AgeRange) -> bool:
    """The product's age range meets the ages the relation tells (some age fits both)."""
    low, high = ages
    return (product.min_age is None or product.min_age <= high) and (
        product.max_age is None or product.max_age >= low
    )


def _meets_told(product: Product, ages: AgeRange | None) -> bool:
    """No age said, but the relation tells one: an uncle never gets a junior golf set, a kid
    never a product for 14 and up. Ages spanning both tell nothing (nephew, cousin)."""
    if ages is None or not (grown_up_range(ages) or young_range(ages)):
        return True
    return _meets(product, ages) and not (grown_up_range(ages) and children_only(product))


def _age_allows(
    product: Product, age: int | None, kind: str | None, ages: AgeRange | None = None
) -> bool:
    if for_pets(product) and presumed_young(age, kind, ages):
        return False  # dog treats are for the dog's owner, not a child who loves animals
    if age is not None:
        # A known adult never gets a child's product, even one with no upper age bound.
        return product.fits_age(age) and not (age >= ADULT_AGE and children_only(product))
    if not _meets_told(product, ages):
        return False
    if kind in YOUNG:
        # No age given for a child: still keep adult-only products (spirits, knives) away.
        return (product.min_age or 0) < ADULT_AGE
    # A grandparent, a boss, a mother…: grown-ups, whatever age was (not) said.
    return not (kind in GROWN_UP and children_only(product))


@dataclass(frozen=True)
class RankQuery:
    """One ranked lookup: which products match and in what order (``rank_key``).

    Built from what the person said by ``words_query`` or ``interest_query``; an in-memory
    list (``ProductList``) and the database (``storage/catalog_search.py``) both answer it,
    and the contract tests show they give the same products in the same order.
    """

    tags: frozenset[str]  # canonical tags of the query: tag and text hits
    words: frozenset[str]  # its significant leftover words: text hits
    kind: str | None  # canonical recipient kind: fit, and the age rule
    age: int | None
    answer_tags: frozenset[str] = frozenset()  # must carry one of these tags…
    answer_words: frozenset[str] = frozenset()  # …or (unknown interest) all these words
    must_answer: bool = False
    by_strength: bool = False  # the interest's own order: most defining tag first
    ages: AgeRange | None = None  # the ages the relation tells, when no age is said


def words_query(
    words: str | Iterable[str],
    *,
    recipient: str | None = None,
    age: int | None = None,
    ages: AgeRange | None = None,
) -> RankQuery:
    """What ``search`` ranks: products sharing a tag or a word with the query."""
    query = analyze(words)
    kind = _recipient_kind(recipient)
    return RankQuery(query.tags, _query_words(query.words), kind, age, ages=ages)


def interest_query(
    interest: str,
    *,
    recipient: str | None = None,
    age: int | None = None,
    by_strength: bool = True,
    ages: AgeRange | None = None,
) -> RankQuery:
    """Products that *answer* one stated interest (see the module docstring)."""
    base = words_query([interest], recipient=recipient, age=age)
    tags, words = _interest_terms(interest)
    return RankQuery(
        base.tags,
        base.words,
        base.kind,
        age,
        answer_tags=tags,
        answer_words=words,
        must_answer=True,
        by_strength=by_strength,
        ages=ages,
    )


RankKey = tuple[int, int, int, int, str]


def rank_key(product: Product, query: RankQuery) -> RankKey | None:
    """Where the product ranks for the query (smaller first), or None if it does not match.

    The order: the interest's strength (``by_strength`` only), canonical tag matches, then
    matches in title/description, then recipient fit, then id. With no meaningful words,
    products are ranked by recipient fit alone.
    """
    if not _age_allows(product, query.age, query.kind, query.ages):
        return None
    text_tags, text_words = _product_text(product)
    tag_hits = len(query.tags.intersection(product.tags))
    text_hits = len(query.tags & text_tags) + len(query.words & text_words)
    fit = _recipient_fit(product, query.kind)
    if query.tags or query.words:
        if tag_hits + text_hits == 0:
            return None
    elif query.kind is not None and fit == 0:
        return None
    strength = 0
    if query.must_answer:
        answering = _answering(product, query.answer_tags, query.answer_words)
        if answering is None:
            return None
        strength = answering
    return (strength if query.by_strength else 0, -tag_hits, -text_hits, -fit, product.id)


class CatalogSource(Protocol):
    """Where ranked lookups are answered: a list in memory, or the database.

    Only ``search_pool``, ``reserve`` and ``unserved`` need the catalog beyond a pool, and
    they ask it these bounded questions, so no caller needs every product.
    """

    def ranked(
        self,
        query: RankQuery,
        *,
        limit: int,
        spec: FilterSpec | None = None,
        exclude: Collection[str] = (),
    ) -> list[Product]:
        """The first ``limit`` matches in rank order, passing ``spec`` (if given)."""
        ...

    def ranked_ids(
        self, query: RankQuery, *, limit: int, exclude: Collection[str] = ()
    ) -> list[str]:
        """Ids of the first ``limit`` matches in rank order (no product rows read)."""
        ...

    def products(self, ids: Sequence[str]) -> dict[str, Product]:
        """The products with these ids (absent ones left out)."""
        ...

    def any_match(self, query: RankQuery) -> bool: ...

    def stocked(self, tags: Collection[str]) -> set[str]:
        """Which of these tags some product carries."""
        ...

    def mentioned(self, words: frozenset[str]) -> list[str]:
        """The first two tags of products whose text holds all ``words``, most common first
        (ties: in the order first met, products by id)."""
        ...


class ProductList:
    """A ``CatalogSource`` over products in memory: the reference the database must match."""

    def __init__(self, products: Iterable[Product], rates: Rates | None = None) -> None:
        self._products = sorted(products, key=lambda p: p.id)
        self._rates = rates

    def _table(self) -> Rates:
        if self._rates is None:
            from giftgenius.catalog import load_rates

            self._rates = load_rates()
        return self._rates

    def _matches(
        self, query: RankQuery, spec: FilterSpec | None, exclude: Collection[str]
    ) -> list[Product]:
        keyed: list[tuple[RankKey, Product]] = []
        for product in self._products:
            if product.id in exclude:
                continue
            key = rank_key(product, query)
            if key is None:
                continue
            if spec is not None and check(product, spec, self._table()):
                continue
            keyed.append((key, product))
        keyed.sort(key=lambda pair: pair[0])
        return [product for _, product in keyed]

    def ranked(
        self,
        query: RankQuery,
        *,
        limit: int | None = None,
        spec: FilterSpec | None = None,
        exclude: Collection[str] = (),
    ) -> list[Product]:
        found = self._matches(query, spec, exclude)
        return found if limit is None else found[:limit]

    def ranked_ids(
        self, query: RankQuery, *, limit: int, exclude: Collection[str] = ()
    ) -> list[str]:
        return [p.id for p in self.ranked(query, limit=limit, exclude=exclude)]

    def products(self, ids: Sequence[str]) -> dict[str, Product]:
        wanted = set(ids)
        return {p.id: p for p in self._products if p.id in wanted}

    def any_match(self, query: RankQuery) -> bool:
        return any(rank_key(p, query) is not None for p in self._products)

    def stocked(self, tags: Collection[str]) -> set[str]:
        wanted = set(tags)
        return {tag for p in self._products for tag in p.tags if tag in wanted}

    def mentioned(self, words: frozenset[str]) -> list[str]:
        counts = Counter(
            tag
            for p in self._products
            if words and words <= _product_text(p)[1]
            for tag in p.tags[:MENTION_TAGS]
        )
        return [tag for tag, _ in counts.most_common()]


MENTION_TAGS = 2  # how many of a product's first tags say what it is about


def search(
    products: Sequence[Product],
    words: str | Iterable[str],
    *,
    recipient: str | None = None,
    age: int | None = None,
    limit: int | None = None,
) -> list[Product]:
    """Products matching the words, best first (the order of ``rank_key``)."""
    query = words_query(words, recipient=recipient, age=age)
    return ProductList(products).ranked(query, limit=limit)


# The fields of the database's term index (``product_terms``): what ``index_terms`` writes.
TAG, TITLE_TAG, DESC_TAG, TITLE_WORD, DESC_WORD, AUDIENCE, SHIPS_TO, MATERIAL = (
    "tag",
    "ttag",
    "dtag",
    "tword",
    "dword",
    "aud",
    "ship",
    "mat",
)


def index_terms(product: Product) -> list[tuple[str, str, int]]:
    """(field, term, position) rows the database indexes a product by, computed once when
    the product is written: its canonical tags (position = rank among its tags), the tags
    and significant lemmas of its title and description, its shipping countries.

    These are exactly what ``rank_key``, ``check`` and ``unserved`` read from a product's
    text, so "jeux de société" and "board games" find the same rows on every backend.
    """
    rows: dict[tuple[str, str], int] = {}
    for i, tag in enumerate(product.tags):
        rows.setdefault((TAG, tag), i)
    for field_tag, field_word, text in (
        (TITLE_TAG, TITLE_WORD, product.title),
        (DESC_TAG, DESC_WORD, product.description),
    ):
        tags, words = _text_index(text)
        rows.update({(field_tag, tag): 0 for tag in tags})
        rows.update({(field_word, word): 0 for word in _query_words(words)})
    rows.update({(SHIPS_TO, c): 0 for c in product.ships_to})
    rows.update({(MATERIAL, m): 0 for m in materials_of(product)})
    return [(f, term, pos) for (f, term), pos in sorted(rows.items()) if len(term) <= TERM_MAX]


TERM_MAX = 200  # longer "words" (a pasted URL) are never a query; the column holds 200


@lru_cache(maxsize=1)
def index_version() -> str:
    """sha256 of what the index is computed from besides the products (this module, the
    vocabulary, the text folding, the stopwords and materials and their word lists, the
    currency table for ``price_base``): the database re-indexes its products when it
    changes."""
    from giftgenius.language import folding, materials, vocabulary

    lexicons = Path(lexicon.__file__).parent / "lexicons"
    words = [
        lexicons / lang / f"{topic}.toml"
        for lang in lexicon.LANGUAGES
        for topic in ("function_words", "stopwords", "materials")
    ]
    sources = [Path(__file__), *vocabulary.sources(), Path(folding.__file__)]
    digest = hashlib.sha256()
    for path in [*sources, Path(materials.__file__), *words]:
        digest.update(path.read_bytes())
    digest.update(resources.files("giftgenius.catalog.data").joinpath("rates.json").read_bytes())
    return digest.hexdigest()


def price_in(product: Product, currency: str, rates: Rates) -> float:
    """The product's price in ``currency`` with the catalog's table, rounded to cents."""
    return rates.convert(product.price, product.currency, currency)


@lru_cache(maxsize=4096)
def _text_names(text: str, material: str) -> bool:
    return mentions(material, folded_words(text))


def _made_of(product: Product, material: str) -> bool:
    return _text_names(f"{product.title} {product.description}", material)


def materials_of(product: Product) -> list[str]:
    """The materials the product's title or description names (what ``MATERIAL`` indexes)."""
    words = folded_words(f"{product.title} {product.description}")
    return [m for m in MATERIALS if mentions(m, words)]


class DislikeTerms(NamedTuple):
    """What a dislike hits (``dislike_terms``)."""

    tags: frozenset[str]  # a product carrying one, or whose title names one
    tastes: frozenset[str]  # also when only the description names one (``INGREDIENTS``)
    words: frozenset[str]  # a title holding all of them (words the vocabulary lacks)


def dislike_terms(dislike: str) -> DislikeTerms:
    """What a dislike hits. A thing refused ("no mugs", "no books") rules out the gifts that
    are one: their tags and title say so, while "best with a mug of tea" in a description is
    no mug. A refused ingredient ("pas de chocolat", "rien de sucré", "sans alcool") rules
    out what contains it, and a description says that: coffee beans "with chocolate notes"
    (``INGREDIENTS``). Refusing a kind of food refuses what it holds (``within``: sweets hold
    chocolate and honey)."""
    meaning = analyze(dislike)
    tags = within(meaning.tags)
    return DislikeTerms(tags, tags & INGREDIENTS, _query_words(meaning.words))


def _dislike_hit(product: Product, dislike: str) -> bool:
    """A dislike hits as ``dislike_terms`` says; a material ("argent", "no leather") hits
    wherever the title or description names it in either language, for a silver clasp is
    silver all the same."""
    material = material_of(dislike)
    if material is not None and _made_of(product, material):
        return True
    terms = dislike_terms(dislike)
    if terms.tags & set(product.tags):
        return True
    title_tags, title_words = _text_index(product.title)
    if terms.tags & title_tags:
        return True
    if terms.tastes & _text_index(product.description)[0]:
        return True
    return bool(terms.words) and terms.words <= title_words


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


@lru_cache(maxsize=1024)
def _interest_terms(interest: str) -> tuple[frozenset[str], frozenset[str]]:
    """What answering an interest takes: one of its tags, or (unknown to the vocabulary)
    all of its significant words."""
    tags = frozenset(canonical_tags(interest))
    return tags, frozenset() if tags else _query_words(lemmas(interest))


def _answering(product: Product, tags: frozenset[str], words: frozenset[str]) -> int | None:
    """How central the interest is to the product: 0 for its first tag (or a title word)…;
    None when the product does not answer it.

    Tags are listed most defining first, so a mug tagged ``mug, coffee, board-game`` is a
    weaker answer to "board games" than a game tagged ``game, board-game``. Only the
    product's own tags count for a known interest; unknown words must all be in its text.
    """
    if tags:
        return next((i for i, tag in enumerate(product.tags) if tag in tags), None)
    if words and words <= _product_text(product)[1]:
        return 0 if words <= _text_index(product.title)[1] else 1
    return None


def _answers_one(product: Product, interest: str) -> bool:
    return _answering(product, *_interest_terms(interest)) is not None


def _strength(product: Product, interest: str) -> int:
    found = _answering(product, *_interest_terms(interest))
    return 99 if found is None else found


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
    products: Sequence[Product] | CatalogSource,
    interests: Sequence[str],
    *,
    extra_words: Sequence[str] = (),
    recipient: str | None = None,
    age: int | None = None,
    ages: AgeRange | None = None,
    limit: int,
) -> list[Product]:
    """The pool the filters run over: every interest gets its turn, best products first.

    The products answering each interest are ranked on their own (``interest_query``), then
    taken in turns (first of each interest, second of each…), so "cooking and jazz" holds
    jazz as well as cooking however many cooking items rank higher; the rest of the search
    fills what is left. Only ids are ranked; the products of the pool alone are read.
    """
    source = _source(products)
    stated = [i for i in interests if i.strip()]
    per_interest = [
        source.ranked_ids(interest_query(i, recipient=recipient, age=age, ages=ages), limit=limit)
        for i in stated
    ]
    pool: list[str] = []
    for rank in range(max((len(found) for found in per_interest), default=0)):
        for found in per_interest:
            if rank < len(found) and found[rank] not in pool and len(pool) < limit:
                pool.append(found[rank])
    if len(pool) < limit:
        rest = words_query([*stated, *extra_words], recipient=recipient, age=age, ages=ages)
        pool += source.ranked_ids(rest, limit=limit - len(pool), exclude=pool)
    found_products = source.products(pool)
    return [found_products[i] for i in pool if i in found_products]


def reserve(
    products: Sequence[Product] | CatalogSource,
    interests: Sequence[str],
    passing: Sequence[Product],
    spec: FilterSpec,
    *,
    recipient: str | None = None,
    age: int | None = None,
    ages: AgeRange | None = None,
    exclude: Collection[str] = (),
) -> list[Product]:
    """For each stated interest no passing product answers, the best product for it that
    passes the filters (at most one per interest), never one of ``exclude``.

    The pool is capped, so filters may empty one interest's share of it while other
    products for that interest would pass: those are fetched here, so the shortlist never
    leaves out an interest the catalog can serve within the person's constraints.
    """
    source = _source(products)
    extra: list[Product] = []
    for interest in interests:
        if not interest.strip() or any(answers(p, [interest]) for p in [*passing, *extra]):
            continue
        query = interest_query(interest, recipient=recipient, age=age, by_strength=False, ages=ages)
        skip = [*exclude, *(p.id for p in passing)]
        extra += source.ranked(query, limit=1, spec=spec, exclude=skip)
    return extra


# Where a budget's band starts, as a share of its top: a shortlist prefers gifts priced in
# the band (40 to 100 % of "up to 120 CAD"), so it uses the budget the person gave rather
# than filling it with its cheapest items; cheaper ones still come after, when the band
# holds too few.
BAND_SHARE = 0.4


def _band_floor(spec: FilterSpec) -> float:
    return round(spec.budget_max * BAND_SHARE, 2)


def budget_band(spec: FilterSpec) -> FilterSpec:
    """``spec`` with its floor raised to the band's (a floor the person gave above it stays)."""
    floor = _band_floor(spec)
    if spec.budget_min is not None and spec.budget_min >= floor:
        return spec
    return spec.model_copy(update={"budget_min": floor})


def in_band(product: Product, spec: FilterSpec, rates: Rates) -> bool:
    """Priced within the budget's band (its top is the filters' business)."""
    return price_in(product, spec.currency, rates) >= _band_floor(spec)


def band_fill(
    products: Sequence[Product] | CatalogSource,
    interests: Sequence[str],
    spec: FilterSpec,
    *,
    need: int,
    exclude: Collection[str] = (),
    recipient: str | None = None,
    age: int | None = None,
    ages: AgeRange | None = None,
) -> list[Product]:
    """Up to ``need`` products in the budget's band that answer the stated interests and pass
    every filter, the interests taking turns, best first.

    The search pool is ranked without the budget, so for "120 CAD for the team" it may hold
    only €14 items while the catalog has better ones near the budget: this fetches them.
    At most ``need`` product rows are read (each interest asks for its share), whatever
    the catalog's size; the database applies the band before its LIMIT.
    """
    source = _source(products)
    stated = [i for i in interests if i.strip()]
    if need <= 0 or not stated:
        return []
    band = budget_band(spec)
    share = -(-need // len(stated))
    found: list[Product] = []
    for interest in stated:
        left = need - len(found)
        if left <= 0:
            break
        query = interest_query(interest, recipient=recipient, age=age, ages=ages)
        skip = [*exclude, *(p.id for p in found)]
        found += source.ranked(query, limit=min(share, left), spec=band, exclude=skip)
    return found


def _source(products: Sequence[Product] | CatalogSource) -> CatalogSource:
    return ProductList(products) if isinstance(products, Sequence) else products


def shortlist(
    passing: Sequence[Product],
    interests: Sequence[str],
    size: int,
    *,
    preferred: Collection[str] = (),
) -> list[Product]:
    """Up to ``size`` products: one per stated interest first, then the best of the rest,
    shown best first.

    Among products answering as many interests, those whose id is in ``preferred`` (priced
    in the budget's band: ``in_band``) come first, so the shortlist spreads toward the
    budget given; cheaper ones fill what is left.

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

    def score(product: Product) -> tuple[int, bool, int, int]:
        return (
            -len(answered[product.id]),
            product.id not in preferred,
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
    catalog: Sequence[Product] | CatalogSource,
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
    source = _source(catalog)
    out: list[Unserved] = []
    offered = Counter(tag for p in shown for tag in p.tags)
    for interest in interests:
        if not interest.strip() or any(_answers_one(p, interest) for p in shown):
            continue
        in_catalog = source.any_match(interest_query(interest))
        own = canonical_tags(interest)
        words = _query_words(lemmas(interest))  # a known interest may be mentioned too
        close = _closest_tags(interest)
        stocked = source.stocked(close)
        tags = [t for t in close if t not in own and t in stocked]
        mentioned = source.mentioned(words) if words else []
        for ranked in (mentioned, [t for t, _ in offered.most_common()]):
            tags += [t for t in ranked if t not in own and t not in tags]
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


@lru_cache(maxsize=1024)
def _closest_tags(interest: str) -> tuple[str, ...]:
    """Tags spelled nearly like the interest (difflib over the whole vocabulary: cached)."""
    wanted = " ".join(lemmas(interest))
    close = difflib.get_close_matches(wanted, list(_spellings()), n=6, cutoff=0.75)
    tags: list[str] = []
    for spelling in close:
        tag = _spellings()[spelling]
        if tag not in tags:
            tags.append(tag)
    return tuple(tags)
