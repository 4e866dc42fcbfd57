"""Search ranking, age bounds and why-it-fits, on small hand-made catalogs and the real one."""

from __future__ import annotations

from product_factory import make

from giftgenius.catalog import Product, load_products, search, why_it_fits


def ids(products: list[Product]) -> list[str]:
    return [p.id for p in products]


def test_rank_tags_then_text_then_recipient_then_id():
    catalog = [
        make("g-0005", tags=["coffee"], recipients=["friend"]),
        make("g-0004", tags=["coffee"], recipients=["colleague"]),
        make("g-0003", tags=["coffee"], description="A coffee thing for coffee people."),
        make("g-0002", tags=["coffee", "board-game"]),
        make("g-0001", title="Mug with a meeple", tags=["mug"]),  # no match at all
        make("g-0006", tags=["toy"], description="Pairs well with espresso."),
        make("g-0007", tags=["coffee"], recipients=["friend"]),
    ]
    found = search(catalog, "board games and coffee", recipient="colleague")
    # 2 tag matches; then 1 tag + text; then recipient fit (colleague 2 > anyone 1 > none 0);
    # ties by id; text-only match last.
    assert ids(found) == ["g-0002", "g-0003", "g-0004", "g-0005", "g-0007", "g-0006"]


def test_order_is_deterministic_whatever_the_input_order():
    products = list(load_products())
    forward = ids(search(products, ["board-game", "coffee"], recipient="colleague"))
    backward = ids(
        search(list(reversed(products)), ["board-game", "coffee"], recipient="colleague")
    )
    assert forward == backward
    assert len(forward) > 20


def test_limit():
    found = search(load_products(), "coffee", limit=5)
    assert len(found) == 5
    assert ids(found) == ids(search(load_products(), "coffee"))[:5]


def test_age_bounds_are_inclusive_and_exclude_outside():
    catalog = [
        make("g-0001", tags=["plush"], min_age=3, max_age=8),
        make("g-0002", tags=["plush"], min_age=9),
        make("g-0003", tags=["plush"], max_age=2),
        make("g-0004", tags=["plush"]),
    ]
    assert ids(search(catalog, "plush", age=3)) == ["g-0001", "g-0004"]
    assert ids(search(catalog, "plush", age=8)) == ["g-0001", "g-0004"]
    assert ids(search(catalog, "peluches", age=9)) == ["g-0002", "g-0004"]
    assert ids(search(catalog, "plush", age=2)) == ["g-0003", "g-0004"]
    assert ids(search(catalog, "plush")) == ["g-0001", "g-0002", "g-0003", "g-0004"]


def test_adult_products_never_reach_a_child_even_without_an_age():
    for_anyone = search(load_products(), "whisky cocktails")
    for_a_child = search(load_products(), "whisky cocktails", recipient="mon fils")
    assert any((p.min_age or 0) >= 18 for p in for_anyone)
    assert all((p.min_age or 0) < 18 for p in for_a_child)
    assert any((p.min_age or 0) >= 18 for p in search(load_products(), "whisky", recipient="dad"))


def test_unknown_words_match_titles_and_descriptions():
    found = search(load_products(), "Lisbon lighthouses")
    titles = [p.title for p in found]
    assert any("Lisbon" in t for t in titles)
    assert any("Lighthouse" in t for t in titles)
    assert search(load_products(), "zorblaxian") == []


def test_no_words_ranks_by_recipient_fit_only():
    catalog = [
        make("g-0001", recipients=["friend"]),
        make("g-0002", recipients=["anyone"]),
        make("g-0003", recipients=["boss"]),
    ]
    assert ids(search(catalog, [], recipient="boss")) == ["g-0003", "g-0002"]
    assert ids(search(catalog, "")) == ["g-0001", "g-0002", "g-0003"]


def test_why_it_fits_in_both_languages():
    product = make("g-0001", tags=["board-game", "coffee", "game"])
    assert why_it_fits(product, ["board games", "coffee"], "en") == "matches: board games, coffee"
    assert (
        why_it_fits(product, ["jeux de société", "café"], "fr")
        == "correspond à : jeux de société, café"
    )
    assert why_it_fits(product, ["hiking"], "en") == ""


def test_why_it_fits_names_an_unknown_interest_found_in_the_text():
    product = make("g-0001", title="Harbor lights of Lisbon", tags=["puzzle"])
    assert why_it_fits(product, ["Lisbon"], "en") == "matches: Lisbon"
