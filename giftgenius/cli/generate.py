"""``giftgenius catalog generate``: a synthetic catalog in the configured database.

For benchmarks: ``--products N [--seed S]`` writes the deterministic catalog of
``catalog/synthetic.py`` under the version ``synthetic:N:S``, replacing the products the
database held; run again with the same numbers, it sees that version and does nothing.

Replacing another catalog (the shipped one, an imported one, a synthetic one of another
size or seed) makes every open shortlist name products that are gone, so it is done only
when the person says so: in a terminal it asks, naming what it would replace (how many
products, from where); piped or scripted, nobody can answer, so it refuses unless
``--yes`` is given. The benchmarks themselves never come here: they run on scratch stores
(``bench/scratch.py``).
"""

from __future__ import annotations

import sys
from typing import TextIO

from rich.console import Console

from giftgenius.bench.catalogs import ensure_synthetic, progress_bar
from giftgenius.catalog.synthetic import catalog_version
from giftgenius.errors import GiftGeniusError
from giftgenius.settings import Settings
from giftgenius.storage.catalog_repo import catalog_source
from giftgenius.storage.db import Database


def generate_catalog(
    settings: Settings,
    count: int,
    seed: int,
    out: Console,
    err: Console,
    *,
    yes: bool = False,
    stdin: TextIO | None = None,
) -> int:
    """Progress on ``err`` (a terminal only), the outcome on ``out``; 1 when not allowed."""
    db = Database.from_settings(settings)
    where = db.display_url
    wanted = catalog_version(count, seed)
    replaced: str | None = None
    try:
        with db.read() as repos:
            current, held = repos.catalog.version(), repos.catalog.count()
        if held and current != wanted:
            replaced = held_catalog(current, held)
            if not yes:
                if stdin is None or not stdin.isatty():
                    raise GiftGeniusError(
                        f"The database {where} holds {replaced}; generating would replace it, "
                        "and open gift searches would then name products that are gone. "
                        "Run again with --yes to replace it, or point GIFTGENIUS_DATABASE_URL "
                        "(or --home) at another database."
                    )
                if not _confirm(where, replaced, wanted, count, stdin, err):
                    err.print("Nothing was changed.", markup=False, highlight=False)
                    return 1
        with progress_bar(err) as progress:
            written = ensure_synthetic(db, count, seed, progress=progress)
    finally:
        db.dispose()
    if not written.written:
        out.print(
            f"The database {where} already holds the catalog {written.version}; nothing to do.",
            markup=False,
            highlight=False,
        )
    else:
        instead = f"; it replaced {replaced}" if replaced else ""
        out.print(
            f"Wrote the catalog {written.version} ({count:,} products) to {where}: "
            f"{written.generate_seconds:.1f} s to build, {written.write_seconds:.1f} s to write"
            f"{instead}.",
            markup=False,
            highlight=False,
        )
    return 0


def held_catalog(version: str | None, count: int) -> str:
    """What a database's catalog is, in words: its origin, size and version."""
    products = f"{count:,} product{'s' if count != 1 else ''}"
    source = catalog_source(version)
    if source == "import":
        return f"an imported catalog ({products}, from `giftgenius catalog import`, {version})"
    if source == "synthetic":
        return f"the synthetic catalog {version} ({products}, from `giftgenius catalog generate`)"
    if source == "shipped":
        return f"the shipped catalog ({products})"
    if version is None:
        return f"a catalog of {products} of unknown origin"
    return f"a catalog of {products} ({version})"


def _confirm(
    where: str, replaced: str, wanted: str, count: int, stdin: TextIO, err: Console
) -> bool:
    from rich.prompt import Confirm

    question = (
        f"The database {where} holds {replaced}. Replace it with the synthetic catalog "
        f"{wanted} ({count:,} products)? Open gift searches would then name products that "
        "are gone."
    )
    stream = None if stdin is sys.stdin else stdin
    try:
        return Confirm.ask(question, console=err, default=False, stream=stream)
    except EOFError:
        return False
