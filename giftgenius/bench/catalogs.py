"""Write a synthetic catalog (``catalog/synthetic.py``) into a database, once.

``giftgenius catalog generate`` and ``giftgenius bench turn`` both go through
``ensure_synthetic``: it does nothing when the database already holds that exact catalog
version (``synthetic:N:SEED``), so a benchmark generates each catalog once and reuses it.
The rows are written by ``CatalogRepo.sync`` — batched upserts in one transaction, so a
catalog is never half-written — after the products are generated under a progress bar.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    SpinnerColumn,
    TextColumn,
    TimeElapsedColumn,
)

from giftgenius.catalog import Product
from giftgenius.catalog.synthetic import catalog_version, synthetic_products
from giftgenius.messages import speak
from giftgenius.storage.db import Database


@dataclass(frozen=True)
class Written:
    """What ``ensure_synthetic`` did: the version, and the seconds spent (0 when skipped)."""

    version: str
    count: int
    written: bool
    generate_seconds: float = 0.0
    write_seconds: float = 0.0


def progress_bar(console: Console) -> Progress:
    """The bar benchmarks share; rich draws nothing when ``console`` is not a terminal."""
    return Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )


def ensure_synthetic(
    db: Database, count: int, seed: int = 0, *, progress: Progress | None = None
) -> Written:
    """Make ``db``'s catalog the synthetic catalog of ``count`` products, unless it is already."""
    version = catalog_version(count, seed)
    with db.read() as repos:
        if repos.catalog.version() == version:
            return Written(version, count, written=False)
    started = time.perf_counter()
    products = list(_tracked(synthetic_products(count, seed), count, progress))
    generated = time.perf_counter()
    task = None
    if progress is not None:
        writing = speak("bench", "catalog.writing", products=f"{count:,}")
        task = progress.add_task(writing, total=None)
    with db.write() as repos:
        repos.catalog.sync(products, version)
    if progress is not None and task is not None:
        progress.remove_task(task)
    return Written(
        version,
        count,
        written=True,
        generate_seconds=generated - started,
        write_seconds=time.perf_counter() - generated,
    )


def _tracked(
    products: Iterator[Product], count: int, progress: Progress | None
) -> Iterator[Product]:
    if progress is None:
        yield from products
        return
    task = progress.add_task(
        speak("bench", "catalog.generating", products=f"{count:,}"), total=count
    )
    for done, product in enumerate(products, 1):
        yield product
        if done % 1000 == 0 or done == count:
            progress.update(task, completed=done)
    progress.remove_task(task)
