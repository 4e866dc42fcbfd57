"""Interests: what people say a recipient loves, each covered by varied, hand-written gifts.

A shortlist can only answer a taste the catalog stocks, with a choice of price and a
product that ships where the person is: so the catalog holds at least 150 interests with
at least five products each, spread over price bands, currencies and shipping regions,
reachable in English and French, with no templated or repeated titles and descriptions.
These tests hold the data to that.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from importlib import resources

import pytest

import giftgenius.catalog as catalog
from giftgenius.catalog import (
    INTERESTS,
    TAGS,
    canonical_tags,
    catalog_version,
    describe,
    interests,
    load_products,
    load_rates,
    price_in,
)
from giftgenius.language.vocabulary import fold, synonyms

# Price bands, in the product's own currency: what "cheap", "mid" and "treat" mean.
BANDS = ((0, 25), (25, 80), (80, float("inf")))

# An everyday budget ("30 euros at most", "under 25 pounds"), in USD at the catalog's rates,
# and the countries most gifts are sent to: an interest must be served in each of them.
EVERYDAY_USD = 35.0
MAIN_COUNTRIES = ("US", "GB", "FR", "DE", "CA", "IE", "BE", "ES", "IT", "AU", "CH")


def band(price: float) -> int:
    return next(i for i, (low, high) in enumerate(BANDS) if low < price <= high)


def folded(text: str) -> str:
    """Case, accents, punctuation and spacing removed: "Café-Crème!" and "cafe creme" meet."""
    return " ".join(re.findall(r"\w+", fold(text)))


@pytest.fixture(scope="module")
def by_interest() -> dict[str, list[catalog.Product]]:
    found: dict[str, list[catalog.Product]] = defaultdict(list)
    for product in load_products():
        for tag in product.tags:
            found[tag].append(product)
    return found


def test_there_are_at_least_150_interests_apart_from_product_kinds():
    assert len(interests()) >= 150
    assert interests() == sorted(INTERESTS)
    assert INTERESTS < TAGS
    # What a gift is, or how it is made, is not something a recipient "loves".
    assert {"mug", "notebook", "gift-card", "handmade", "experience"}.isdisjoint(INTERESTS)
    assert {"jazz", "wine", "knitting", "bird", "yoga"} <= INTERESTS


@pytest.mark.parametrize("interest", interests())
def test_every_interest_has_five_available_gifts_at_varied_prices_and_places(interest, by_interest):
    products = by_interest[interest]
    available = [p for p in products if p.in_stock]
    assert len(available) >= 5, f"{interest}: {len(available)} products in stock"
    assert len({band(p.price) for p in products}) >= 2, f"{interest}: one price band"
    assert len({p.currency for p in products}) >= 2, f"{interest}: one currency"
    assert len({tuple(p.ships_to) for p in products}) >= 2, f"{interest}: one shipping region"
    assert len({p.delivery_days for p in products}) >= 2, f"{interest}: one delivery time"


@pytest.mark.parametrize("interest", interests())
def test_every_interest_has_three_everyday_gifts_in_each_main_country(interest, by_interest):
    """People ask for "the second" or "another one": at an everyday budget a shortlist for any
    interest, sent to any main country, must have more than one idea to offer."""
    rates = load_rates()
    everyday = [
        p for p in by_interest[interest] if p.in_stock and price_in(p, "USD", rates) <= EVERYDAY_USD
    ]
    for country in MAIN_COUNTRIES:
        reaching = [p.title for p in everyday if p.ships_to_country(country)]
        assert len(reaching) >= 3, f"{interest} to {country}: {reaching}"


def test_interests_as_a_whole_cover_every_band_currency_and_region(by_interest):
    covered = [p for interest in interests() for p in by_interest[interest]]
    assert {band(p.price) for p in covered} == {0, 1, 2}
    assert {p.currency for p in covered} == {"EUR", "USD", "GBP"}
    regions = {tuple(p.ships_to) for p in covered}
    assert {("*",), ("US", "CA"), ("GB",)} <= regions
    assert any("FR" in r and "DE" in r for r in regions)  # the EU-wide list


def test_no_two_products_share_a_folded_title_or_description():
    products = load_products()
    for field in ("title", "description"):
        seen = Counter(folded(getattr(p, field)) for p in products)
        assert [text for text, n in seen.items() if n > 1] == [], field
    # Titles that differ only by a number ("Gift Box 1", "Gift Box 2") are templated.
    numberless = Counter(re.sub(r"[\d\W_]+", " ", fold(p.title)).strip() for p in products)
    assert [title for title, n in numberless.items() if n > 1] == []


def test_descriptions_are_not_filled_in_templates():
    """No run of six words is shared by three descriptions: each was written for its product."""
    runs: Counter[tuple[str, ...]] = Counter()
    for product in load_products():
        words = folded(product.description).split()
        runs.update({tuple(words[i : i + 6]) for i in range(len(words) - 5)})
    assert [" ".join(run) for run, n in runs.items() if n >= 3] == []


@pytest.mark.parametrize("interest", interests())
def test_english_and_french_words_find_each_interest(interest):
    english, french = describe(interest, "en"), describe(interest, "fr")
    assert english and french
    assert set(synonyms(interest)) - {interest, english, french}, f"{interest}: no synonyms"
    for word in synonyms(interest):
        assert canonical_tags(word) == {interest}, word
        # People type without accents too; "thé" → "the" is the one fold left ambiguous.
        if fold(word).split()[0] != "the":
            assert canonical_tags(fold(word)) == {interest}, fold(word)
        assert canonical_tags(word.upper()) == {interest}, word.upper()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("il adore le jazz et les vinyles", {"jazz", "vinyl"}),
        ("she's into birdwatching and pottery", {"bird", "pottery"}),
        ("elle fait de la poterie", {"pottery"}),
        ("un atelier de poterie", {"pottery", "experience"}),
        ("mon père adore la pêche à la mouche", {"fishing"}),
        ("arts martiaux", {"martial-arts"}),
        ("martial arts", {"martial-arts"}),
        ("karaté", {"martial-arts"}),
        ("karate", {"martial-arts"}),
        ("musique classique", {"classical-music"}),
        ("un fan de rock", {"rock"}),
        ("rock climbing", {"climbing"}),
        ("heavy metal", {"heavy-metal"}),
        ("a metal tin", set()),
        ("no batteries needed", set()),
        ("il joue de la batterie", {"drum"}),
        ("elle lit des mangas", {"manga"}),
        ("les dinosaures", {"dinosaur"}),
        ("chevaux", {"horse"}),
        ("oiseaux", {"bird"}),
        ("champignons", {"mushroom"}),
        ("plongée sous-marine", {"scuba-diving"}),
        ("ski de randonnée", {"skiing"}),
        ("la cuisine italienne", {"italian-cuisine"}),
        ("sushis", {"japanese-cuisine"}),
        ("vin pétillant", {"champagne"}),
        ("gin tonic", {"gin"}),
        ("tennis", {"tennis"}),
        ("football", {"football"}),
        ("voitures anciennes", {"automobile"}),
        ("car il aime ça", set()),  # French "car" (because) is not a car
        ("elle adore la mode", {"fashion"}),
        ("two dive modes", set()),
        ("to be read aloud", set()),
        ("a rock tumbler", {"geology"}),
    ],
)
def test_interests_people_type(text, expected):
    assert canonical_tags(text) == expected


def test_products_are_read_from_every_theme_file():
    folder = resources.files("giftgenius.catalog.data").joinpath("products")
    files = sorted(f for f in folder.iterdir() if f.name.endswith(".json"))
    assert len(files) >= 2
    counts = [len(json.loads(f.read_bytes())) for f in files]
    assert all(counts)
    assert len(load_products()) == sum(counts) >= 750


def test_catalog_version_changes_with_any_product_file(monkeypatch):
    version = catalog_version()
    themes = catalog._product_files()
    real_read = catalog._read
    for changed in (themes[0], themes[-1]):
        monkeypatch.setattr(
            catalog, "_read", lambda name, c=changed: real_read(name) + (b" " if name == c else b"")
        )
        catalog_version.cache_clear()
        try:
            assert catalog_version() != version, changed
        finally:
            monkeypatch.undo()
            catalog_version.cache_clear()
    assert catalog_version() == version


# Tastes a child or a teen cannot be given a gift for.
ADULT_ONLY = frozenset({"beer", "champagne", "cocktail", "gin", "rum", "sake", "whisky", "wine"})
# A child of each age people most often buy for, then a teen; what suits them is what the
# search itself lets through for that audience at that age, and offers to it (or to anyone).
YOUNG_BUYERS = (("child", 7), ("child", 10), ("teen", 14))
NOT_FOR_CHILDREN = ADULT_ONLY | {"romance"}


@pytest.mark.parametrize(
    ("interest", "audience", "age"),
    [
        (interest, audience, age)
        for audience, age in YOUNG_BUYERS
        for interest in interests()
        if interest not in (NOT_FOR_CHILDREN if audience == "child" else ADULT_ONLY)
    ],
)
def test_every_interest_has_three_everyday_gifts_for_the_young_in_each_main_country(
    interest, audience, age, by_interest
):
    """ "My nephew is 9 and loves Lego, 30 dollars": a shortlist for a child or a teen must
    have more than one idea that suits their age, at an everyday budget, wherever it goes."""
    from giftgenius.catalog.search import _age_allows, _recipient_fit

    rates = load_rates()
    suited = [
        p
        for p in by_interest[interest]
        if p.in_stock
        and price_in(p, "USD", rates) <= EVERYDAY_USD
        and _age_allows(p, age, audience)
        and _recipient_fit(p, audience) > 0
    ]
    for country in MAIN_COUNTRIES:
        reaching = [p.title for p in suited if p.ships_to_country(country)]
        assert len(reaching) >= 3, f"{interest} for a {age}-year-old in {country}: {reaching}"
