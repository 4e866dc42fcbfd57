"""``giftgenius bench search``: how long one catalog search and filter takes in the database.

Plays what ``find_gifts`` does (``update_profile`` and ``search_candidates`` search and
filter in one call) for a few fixed profiles — the search pool, the exact filter of the
pool, the reserve per emptied interest, the shortlist and the unserved interests — against
the configured database, and prints the p50 and p99 in milliseconds and the products read.
``--whole-catalog`` times the way it was done before the search moved into the database
(every product read, ranked in memory), for comparison.
A command that prints figures, not a timed test.
"""

from __future__ import annotations

import datetime as dt
import json
import statistics
import time
from collections.abc import Sequence
from typing import Any

from giftgenius import messages
from giftgenius.arguments import command_parser, whole
from giftgenius.catalog import (
    FilterSpec,
    ProductList,
    check,
    load_rates,
    search_pool,
    shortlist,
    unserved,
)
from giftgenius.catalog.search import CatalogSource, band_fill, in_band, reserve
from giftgenius.domain import MAX_CANDIDATES
from giftgenius.language.relations import told_ages
from giftgenius.messages import speak
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database

# (interests, recipient, age, budget, currency, country, dislikes)
PROFILES: list[tuple[list[str], str, int | None, float, str, str | None, list[str]]] = [
    (["board games", "coffee"], "colleague", None, 50, "USD", "FR", []),
    (["jeux de société", "thé", "jazz"], "mother", None, 40, "EUR", "FR", ["mugs"]),
    (["lego", "dinosaurs"], "child", 7, 35, "GBP", "GB", []),
    (["whisky", "camping", "photography"], "dad", 55, 120, "CHF", "CH", ["knives"]),
    (["zorblaxian", "gardening"], "grandparent", 80, 30, "USD", None, []),
]


def _one(source: CatalogSource, profile: Any, today: dt.date) -> int:
    interests, recipient, age, budget, currency, country, dislikes = profile
    rates = load_rates()
    who = {"recipient": recipient, "age": age, "ages": told_ages(recipient)}
    pool = search_pool(source, interests, limit=MAX_CANDIDATES, **who)
    unserved(interests, pool, source, "en")
    spec = FilterSpec(
        budget_max=budget, currency=currency, country=country, today=today, dislikes=dislikes
    )
    passing = [p for p in pool if not check(p, spec, rates)]
    passing += reserve(source, interests, passing, spec, **who)
    have = sum(1 for p in passing if in_band(p, spec, rates))
    passing += band_fill(
        source, interests, spec, need=6 - have, exclude=[p.id for p in passing], **who
    )
    preferred = {p.id for p in passing if in_band(p, spec, rates)}
    chosen = shortlist(passing, interests, 6, preferred=preferred)
    unserved(interests, chosen, source, "en")
    return len(chosen)


def main(argv: Sequence[str] | None = None) -> int:
    parser = command_parser("giftgenius bench search", speak("help", "bench.search.description"))
    parser.add_argument(
        "--repeat",
        type=whole(1, 100_000, what="rounds"),
        default=20,
        help=speak("help", "bench.search.repeat"),
    )
    parser.add_argument(
        "--whole-catalog", action="store_true", help=speak("help", "bench.search.whole_catalog")
    )
    parser.add_argument("--json", action="store_true", help=speak("help", "bench.json"))
    args = parser.parse_args(argv)
    db = Database.from_settings(load_settings())
    db.ensure_catalog()
    today = dt.date.today()
    timings: list[float] = []
    try:
        with db.read() as repos:
            products = repos.catalog.count()
        for _ in range(args.repeat + 1):  # the first round warms caches and is dropped
            for profile in PROFILES:
                start = time.perf_counter()
                with db.read() as repos:
                    if args.whole_catalog:
                        every = [p for page in repos.catalog.pages() for p in page]
                        _one(ProductList(every), profile, today)
                    else:
                        _one(repos.catalog.search(), profile, today)
                timings.append((time.perf_counter() - start) * 1000)
    finally:
        db.dispose()
    timings = timings[len(PROFILES) :]
    mode = "search.mode.whole" if args.whole_catalog else "search.mode.database"
    cuts = statistics.quantiles(timings, n=100)
    figures = {
        "backend": db.dialect,
        "products": products,
        "mode": messages.text("bench", mode, "en"),  # a --json document is in one language
        "searches": len(timings),
        "p50_ms": round(statistics.median(timings), 2),
        "p99_ms": round(cuts[98], 2),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        line = speak(
            "bench",
            "search.line",
            backend=figures["backend"],
            products=f"{products:,}",
            mode=speak("bench", mode),
            p50=figures["p50_ms"],
            p99=figures["p99_ms"],
            searches=len(timings),
        )
        print(line)
    return 0
