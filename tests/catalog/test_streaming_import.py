"""A big catalog file is imported in bounded memory while chats go on, all or nothing.

The file is read twice, a row at a time: once to validate every row (the first problems
named with their line), once to write. The products are written in short transactions
into staging tables and swapped in at the end in one short transaction, so a chat started
during an import is answered at once, and every read sees the old catalog or the new one,
never half of each.
"""

from __future__ import annotations

import csv
import json
import threading
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import cast

import pytest

from giftgenius.catalog.importing import scan_catalog_file
from giftgenius.catalog.models import Product
from giftgenius.catalog.search import words_query
from giftgenius.catalog.synthetic import synthetic_product
from giftgenius.errors import InvalidCatalogFile
from giftgenius.storage.catalog_repo import import_catalog
from giftgenius.storage.db import Database

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


def _products(count: int, start: int = 0) -> Iterator[dict[str, object]]:
    """Synthetic products with a few texts between them: the text analysis remembers the
    last few thousand texts it read (a bounded cache), and texts new in every product
    would fill it and be measured as the import's memory."""
    for index in range(start, start + count):
        row = synthetic_product(index, seed=7).model_dump(mode="json")
        tags = cast(list[str], row["tags"])
        row["title"] = f"Gift for {tags[0]} lovers"
        row["description"] = f"A present for people who love {tags[-1]}."
        yield row


def _jsonl(path: Path, rows: Iterator[dict[str, object]], tail: str = "") -> Path:
    with path.open("w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
        out.write(tail)
    return path


def _db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Database:
    if backend == "postgres":
        return Database(request.getfixturevalue("migrated_postgres_url"))
    return Database(f"sqlite:///{tmp_path / 'catalog.db'}")


def _import(
    db: Database,
    path: Path,
    *,
    replace: bool = True,
    progress: Callable[[int], object] | None = None,
) -> bool:
    scanned = scan_catalog_file(path)
    return import_catalog(
        db, scanned.products(), scanned.version, replace=replace, progress=progress
    )


def _peak(run: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# -- bounded memory -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["jsonl", "array", "csv"])
def test_reading_a_file_takes_memory_that_does_not_grow_with_it(tmp_path: Path, kind: str) -> None:
    def write(count: int) -> Path:
        path = tmp_path / f"{count}.{'csv' if kind == 'csv' else 'json'}"
        if kind == "jsonl":
            return _jsonl(path, _products(count))
        if kind == "array":
            with path.open("w", encoding="utf-8") as out:
                out.write("[\n")
                for n, row in enumerate(_products(count)):
                    out.write(("," if n else "") + json.dumps(row) + "\n")
                out.write("]\n")
            return path
        with path.open("w", encoding="utf-8", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=list(Product.model_fields))
            writer.writeheader()
            for row in _products(count):
                for name in ("tags", "recipients", "ships_to"):
                    row[name] = "|".join(row[name])  # type: ignore[arg-type]
                writer.writerow(row)
        return path

    def read(path: Path) -> None:
        scanned = scan_catalog_file(path)
        assert sum(1 for _ in scanned.products()) == scanned.count

    small, big = write(4_000), write(20_000)
    small_peak, big_peak = _peak(lambda: read(small)), _peak(lambda: read(big))
    # What may grow is the set of ids seen (a duplicate is refused): ~130 bytes a product.
    # A reader that held the products would add well over a kilobyte for each.
    per_product = (big_peak - small_peak) / (20_000 - 4_000)
    assert per_product < 400, (small_peak, big_peak)


@pytest.mark.slow
def test_an_import_takes_memory_that_does_not_grow_with_the_file(tmp_path: Path) -> None:
    warm = Database(f"sqlite:///{tmp_path / 'warm.db'}")  # the analysis' caches, filled
    _import(warm, _jsonl(tmp_path / "warm.jsonl", _products(500, start=50_000)))
    warm.dispose()
    small = _jsonl(tmp_path / "small.jsonl", _products(1_500))
    big = _jsonl(tmp_path / "big.jsonl", _products(7_500))
    peaks = []
    for path in (small, big):
        db = Database(f"sqlite:///{tmp_path / (path.stem + '.db')}")
        db.prepare()
        peaks.append(_peak(lambda: _import(db, path)))  # noqa: B023
        db.dispose()
    assert peaks[1] < 1.5 * peaks[0], peaks


# -- all or nothing -----------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_an_invalid_last_row_imports_nothing_and_names_its_line(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = _db(backend, tmp_path, request)
    _import(db, _jsonl(tmp_path / "first.jsonl", _products(50)))
    bad = {**next(_products(1, start=500)), "price": -1}
    path = _jsonl(tmp_path / "bad.jsonl", _products(200, start=100), json.dumps(bad) + "\n")
    with pytest.raises(InvalidCatalogFile) as caught:
        _import(db, path)
    assert "line 201: price" in str(caught.value) and "nothing was imported" in str(caught.value)
    with db.read() as repos:
        assert repos.catalog.count() == 50
    db.dispose()


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_failure_half_way_through_the_writes_leaves_the_catalog_as_it_was(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = _db(backend, tmp_path, request)
    _import(db, _jsonl(tmp_path / "first.jsonl", _products(50)))
    with db.read() as repos:
        version = repos.catalog.version()

    def fail(done: int) -> None:
        raise KeyboardInterrupt  # the person pressed Ctrl-C after the first batch

    with pytest.raises(KeyboardInterrupt):
        _import(db, _jsonl(tmp_path / "next.jsonl", _products(3_000, start=100)), progress=fail)
    with db.read() as repos:
        assert repos.catalog.count() == 50 and repos.catalog.version() == version
    # and the next import is not hindered by what the failed one left behind
    assert _import(db, _jsonl(tmp_path / "again.jsonl", _products(20, start=100)))
    with db.read() as repos:
        assert repos.catalog.count() == 20
    db.dispose()


# -- the search after an import -----------------------------------------------------------


def _titled(pid: str, title: str) -> dict[str, object]:
    return {
        "id": pid,
        "title": title,
        "description": f"{title}, made by hand.",
        "price": 20.0,
        "currency": "EUR",
        "tags": ["art"],
        "recipients": ["anyone"],
        "ships_to": ["*"],
        "delivery_days": 3,
    }


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_search_after_an_import_finds_the_new_products_and_not_the_removed_ones(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = _db(backend, tmp_path, request)
    old = [_titled("g-9001", "Lighthouse print"), _titled("g-9002", "Zeppelin poster")]
    _import(db, _jsonl(tmp_path / "old.jsonl", iter(old)))
    new = [_titled("g-9001", "Lighthouse print"), _titled("g-9003", "Walrus mug")]
    assert _import(db, _jsonl(tmp_path / "new.jsonl", iter(new)))
    with db.read() as repos:
        search = repos.catalog.search()
        assert [p.id for p in search.ranked(words_query("walrus"), limit=5)] == ["g-9003"]
        assert search.ranked(words_query("zeppelin"), limit=5) == []
        assert [p.id for p in search.ranked(words_query("lighthouse"), limit=5)] == ["g-9001"]
        assert repos.catalog.count() == 2
    # adding (no --replace) keeps what the file does not name
    assert _import(db, _jsonl(tmp_path / "add.jsonl", iter(old)), replace=False)
    with db.read() as repos:
        search = repos.catalog.search()
        assert [p.id for p in search.ranked(words_query("zeppelin"), limit=5)] == ["g-9002"]
        assert [p.id for p in search.ranked(words_query("walrus"), limit=5)] == ["g-9003"]
        assert repos.catalog.count() == 3
    # the same file again changes nothing
    assert not _import(db, _jsonl(tmp_path / "add.jsonl", iter(old)), replace=False)
    db.dispose()


# -- chats during an import ---------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("backend", BACKENDS)
def test_reads_and_short_writes_go_on_during_an_import_and_see_one_catalog(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = _db(backend, tmp_path, request)
    _import(db, _jsonl(tmp_path / "first.jsonl", _products(30)))
    path = _jsonl(tmp_path / "big.jsonl", _products(8_000, start=1_000))
    scanned = scan_catalog_file(path)
    started, failures = threading.Event(), []

    def progress(done: int) -> None:
        started.set()

    def run() -> None:
        try:
            import_catalog(db, scanned.products(), scanned.version, replace=True, progress=progress)
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    worker = threading.Thread(target=run)
    import_began = time.perf_counter()
    worker.start()
    assert started.wait(60)
    slowest, counts, writes = 0.0, set(), 0
    while worker.is_alive():
        began = time.perf_counter()
        with db.write() as repos:  # a turn's commit: a short write
            repos.users.ensure("someone")
        with db.read() as repos:
            counts.add(repos.catalog.count())
        slowest = max(slowest, time.perf_counter() - began)
        writes += 1
        time.sleep(0.05)
    worker.join()
    importing = time.perf_counter() - import_began
    assert not failures, failures
    # Writes went on while the import ran: none waited for most of it, as one would behind a
    # lock held for the whole import (a bound relative to the import holds on a busy machine).
    assert writes >= 3, writes
    assert slowest < importing / 3, (slowest, importing)
    assert counts <= {30, 8_000}, counts  # the old catalog or the new one, never half
    with db.read() as repos:
        assert repos.catalog.count() == 8_000
    db.dispose()
