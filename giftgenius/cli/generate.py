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

from typing import TextIO

from rich.console import Console

from giftgenius.bench.catalogs import ensure_synthetic, progress_bar
from giftgenius.catalog.synthetic import catalog_version
from giftgenius.cli.speech import confirm, count, number, say
from giftgenius.errors import GiftGeniusError
from giftgenius.settings import Settings
from giftgenius.storage.catalog_repo import catalog_source
from giftgenius.storage.db import Database


def generate_catalog(
    settings: Settings,
    size: int,
    seed: int,
    out: Console,
    err: Console,
    *,
    yes: bool = False,
    stdin: TextIO | None = None,
) -> int:
    """Progress on ``err`` (a terminal only), the outcome on ``out``; 1 when not allowed."""
    db = Database.from_settings(settings)
    products = count("products", size)
    where = db.display_url
    wanted = catalog_version(size, seed)
    replaced: str | None = None
    try:
        with db.read() as repos:
            current, held = repos.catalog.version(), repos.catalog.count()
        if held and current != wanted:
            replaced = held_catalog(current, held)
            if not yes:
                if stdin is None or not stdin.isatty():
                    raise GiftGeniusError(say("generate.refused", where=where, held=replaced))
                if not _confirm(where, replaced, wanted, products, stdin, err):
                    err.print(say("generate.declined"), markup=False, highlight=False)
                    return 1
        with progress_bar(err) as progress:
            written = ensure_synthetic(db, size, seed, progress=progress)
    finally:
        db.dispose()
    if not written.written:
        said = say("generate.unchanged", where=where, version=written.version)
    else:
        said = say(
            "generate.done_replacing" if replaced else "generate.done",
            version=written.version,
            products=products,
            where=where,
            build=number(round(written.generate_seconds, 1)),
            write=number(round(written.write_seconds, 1)),
            held=replaced,
        )
    out.print(said, markup=False, highlight=False)
    return 0


def held_catalog(version: str | None, size: int) -> str:
    """What a database's catalog is, in words: its origin, size and version."""
    source = catalog_source(version)
    key = {"import": "imported", "synthetic": "synthetic", "shipped": "shipped"}.get(
        str(source), "unknown" if version is None else "other"
    )
    return say(f"held.{key}", products=count("products", size), version=version)


def _confirm(
    where: str, replaced: str, wanted: str, products: str, stdin: TextIO, err: Console
) -> bool:
    question = say("generate.ask", where=where, held=replaced, version=wanted, products=products)
    return confirm(question, err, stdin)
