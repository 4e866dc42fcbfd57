"""``giftgenius catalog generate``: a synthetic catalog in the configured database.

For benchmarks: ``--products N [--seed S]`` writes the deterministic catalog of
``catalog/synthetic.py`` under the version ``synthetic:N:S``, replacing the products the
database held; run again with the same numbers, it sees that version and does nothing.
"""

from __future__ import annotations

from rich.console import Console

from giftgenius.bench.catalogs import ensure_synthetic, progress_bar
from giftgenius.settings import Settings
from giftgenius.storage.db import Database


def generate_catalog(settings: Settings, count: int, seed: int, out: Console, err: Console) -> int:
    """Progress on ``err`` (a terminal only), the outcome on ``out``."""
    db = Database.from_settings(settings)
    try:
        with progress_bar(err) as progress:
            written = ensure_synthetic(db, count, seed, progress=progress)
    finally:
        db.dispose()
    where = db.display_url
    if not written.written:
        out.print(
            f"The database {where} already holds the catalog {written.version}; nothing to do.",
            markup=False,
            highlight=False,
        )
    else:
        out.print(
            f"Wrote the catalog {written.version} ({count:,} products) to {where}: "
            f"{written.generate_seconds:.1f} s to build, {written.write_seconds:.1f} s to write.",
            markup=False,
            highlight=False,
        )
    return 0
