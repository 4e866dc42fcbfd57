"""``giftgenius catalog import FILE``: a deployment's own products into the database.

Every row of the file is validated first, one at a time (``catalog.importing``), so a bad
row anywhere refuses the file before anything is written. The products are then written in
short batches into staging tables and swapped in at once (``storage.catalog_repo``): memory
stays bounded whatever the file's size, chats go on during a long import, and a failure or
Ctrl-C half-way leaves the catalog as it was. The recorded version (``import:<digest>``)
tells ``Database.ensure_catalog`` never to reseed the shipped catalog over it.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from giftgenius.catalog.importing import scan_catalog_file
from giftgenius.cli.speech import count, say
from giftgenius.privacy import strip_controls
from giftgenius.settings import Settings
from giftgenius.storage.catalog_repo import import_catalog as write_catalog
from giftgenius.storage.db import Database


def import_catalog(settings: Settings, path: Path, replace: bool, out: Console) -> int:
    scanned = scan_catalog_file(path)
    version = scanned.version
    db = Database.from_settings(settings)
    if not replace:
        # adding to the catalog in use: on a new database that is the shipped one, seeded
        # first as any command would (an imported catalog is left as it is)
        db.ensure_catalog()
    bar = Progress(
        TextColumn(say("import.progress")),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=out,
        disable=not out.is_terminal,
        transient=True,
    )
    try:
        with bar:
            task = bar.add_task("import", total=scanned.count)

            def advance(count: int) -> None:
                bar.advance(task, count)

            changed = write_catalog(
                db, scanned.products(), version, replace=replace, progress=advance
            )
        with db.read() as repos:
            total = repos.catalog.count()
    finally:
        db.dispose()
    products = count("products", total)
    if not changed:
        out.print(
            strip_controls(say("import.unchanged", file=path.name, products=products)),
            markup=False,
        )
        return 0
    done = say(
        "import.done",
        imported=count("products", scanned.count),
        file=path.name,
        how=say("import.replaced" if replace else "import.merged"),
        products=products,
        version=version,
    )
    out.print(strip_controls(done), markup=False, highlight=False)
    return 0
