"""The scratch stores a benchmark runs on: never the configured catalog, users or sessions.

``scratch_stores`` turns the configured stores into stores of the benchmark's own, made
when it starts and removed when it ends — normally, on an error or on an interrupt:

- the database: SQLite (embedded, or a configured ``sqlite://`` URL) gets a temporary
  folder holding one database file per synthetic catalog; PostgreSQL gets a scratch
  database on the configured server (``giftgenius_bench_<pid>_<hex>``), created and
  migrated here and dropped at the end (its connections ended first);
- the session store: Redis gets a key prefix of its own (the configured one, then
  ``-bench-<hex>``), whose keys are deleted at the end; the embedded session file lives in
  the temporary folder.

So the configured database keeps its catalog (an imported one included) and open
shortlists keep pointing at the products they name, and nothing the benchmark made — its
users, transcripts, sessions, a catalog of 100,000 products — outlives it. ``keep`` leaves
the scratch stores in place and says where they are.
"""

from __future__ import annotations

import logging
import os
import shutil
import sqlite3
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from rich.progress import Progress
from sqlalchemy.engine import make_url

from giftgenius.bench.catalogs import Written, ensure_synthetic
from giftgenius.bench.players import Stores
from giftgenius.bench.signals import interrupts_held
from giftgenius.catalog.synthetic import catalog_version
from giftgenius.errors import GiftGeniusError
from giftgenius.messages import speak
from giftgenius.storage.db import Database, connection_error, mask_url, normalize_url

log = logging.getLogger(__name__)


def interrupted() -> str:
    """What a benchmark says when it is interrupted, in the environment's language."""
    return speak("bench", "interrupted")


SCRATCH_PREFIX = "giftgenius_bench_"


@contextmanager
def scratch_stores(
    configured: Stores, *, keep: bool = False, say: Callable[[str], None] | None = None
) -> Iterator[Stores]:
    """Stores of the benchmark's own, on the configured backends; removed on the way out."""
    token = uuid.uuid4().hex[:8]
    overrides: dict[str, Any] = dict(configured.overrides)
    folder = Path(tempfile.mkdtemp(prefix="giftgenius-bench-"))
    overrides["home"] = str(folder)
    url = overrides.pop("database_url", None)
    scratch_db: tuple[str, str] | None = None  # (configured URL, scratch database name)
    parts: list[str] = []
    try:
        if overrides.get("redis_url"):
            overrides["redis_prefix"] = (
                f"{overrides.get('redis_prefix') or 'giftgenius'}-bench-{token}"
            )
            parts.append(speak("bench", "scratch.redis", prefix=overrides["redis_prefix"]))
        else:
            parts.append(speak("bench", "scratch.sessions"))
        if url is not None and make_url(normalize_url(url)).get_backend_name() == "postgresql":
            name = f"{SCRATCH_PREFIX}{os.getpid()}_{token}"
            scratch_db = (url, name)  # an interrupt during CREATE DATABASE drops it too
            try:
                overrides["database_url"] = _create_database(url, name)
            except GiftGeniusError:
                scratch_db = None  # not made, or dropped already
                raise
            parts.append(speak("bench", "scratch.postgres", name=name))
            stores = Stores(overrides, "", separate_catalogs=False)
        else:
            parts.append(speak("bench", "scratch.sqlite", folder=folder))
            stores = Stores(overrides, "", True, configured.catalog_cache)
        ending = speak("bench", "scratch.kept" if keep else "scratch.removed")
        label = speak("bench", "scratch.label", parts=", ".join(parts), ending=ending)
        yield Stores(stores.overrides, label, stores.separate_catalogs, stores.catalog_cache)
    finally:
        if keep:
            if say is not None:
                say(speak("bench", "scratch.left", parts=", ".join(parts), folder=folder))
        else:
            with interrupts_held():
                left = _remove(folder, overrides, scratch_db)
            for what in left:
                if say is not None:
                    say(speak("bench", "scratch.not_removed", what=what))
                log.warning("bench_scratch_left: %s", what)


def synthetic_catalog(
    stores: Stores, count: int, seed: int, progress: Progress | None = None
) -> Written:
    """Give ``stores`` (from ``for_catalog``) the synthetic catalog of ``count`` products.

    On SQLite with a catalog cache, a catalog generated before (by this analysis:
    ``catalog.search.index_version``) is copied in rather than written again, and one
    written here is copied to the cache before any user is added to it.
    """
    cached = target = None
    if stores.catalog_cache is not None and stores.separate_catalogs:
        from giftgenius.catalog.search import index_version

        target = Path(make_url(stores.overrides["database_url"]).database or "")
        name = f"{catalog_version(count, seed).replace(':', '-')}-{index_version()[:12]}.db"
        cached = Path(stores.catalog_cache) / name
        if cached.is_file() and not target.exists():
            shutil.copyfile(cached, target)
    settings = stores.settings()
    settings.home.mkdir(parents=True, exist_ok=True)
    db = Database.from_settings(settings)
    try:
        written = ensure_synthetic(db, count, seed, progress=progress)
    finally:
        db.dispose()
    if cached is not None and target is not None and written.written:
        try:
            _keep_copy(target, cached)
        except OSError as exc:  # a cache that cannot be written costs time, not figures
            log.warning("bench_catalog_not_cached: %s (%s)", cached, exc)
    return written


def _keep_copy(source: Path, cached: Path) -> None:
    """A consistent copy (SQLite's backup API), put in place at once; older copies of the
    same catalog (another analysis) are removed."""
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f".{cached.name}.{os.getpid()}.partial")
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
        os.replace(partial, cached)
    finally:
        partial.unlink(missing_ok=True)
    stem = cached.name.rsplit("-", 1)[0]
    for older in cached.parent.glob(f"{stem}-*.db"):
        if older != cached:
            older.unlink(missing_ok=True)


def _create_database(url: str, name: str) -> str:
    """CREATE DATABASE ``name`` beside the configured one, migrated; its URL."""
    from giftgenius.storage import migrate

    engine = _admin(url)
    try:
        try:
            conn = engine.connect()
        except sa.exc.SQLAlchemyError as exc:
            raise connection_error(url, exc) from None
        with conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    except sa.exc.SQLAlchemyError as exc:
        why = " ".join(str(getattr(exc, "orig", None) or exc).split())
        raise GiftGeniusError(
            speak("bench", "scratch.cannot_create", url=mask_url(url), why=why)
        ) from None
    finally:
        engine.dispose()
    scratch = make_url(normalize_url(url)).set(database=name)
    scratch_url = scratch.render_as_string(hide_password=False)
    try:
        migrate.upgrade(scratch_url)
    except BaseException:
        _drop_database(url, name)
        raise
    return scratch_url


def _admin(url: str) -> sa.Engine:
    return sa.create_engine(
        normalize_url(url), isolation_level="AUTOCOMMIT", connect_args={"connect_timeout": 5}
    )


def _drop_database(url: str, name: str) -> None:
    engine = _admin(url)
    try:
        with engine.connect() as conn:
            conn.execute(
                sa.text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = :name AND pid <> pg_backend_pid()"
                ),
                {"name": name},
            )
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}"'))
    finally:
        engine.dispose()


def _delete_keys(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=5, socket_timeout=5)
    try:
        batch: list[Any] = []
        for key in client.scan_iter(match=f"{prefix}:*", count=1000):
            batch.append(key)
            if len(batch) >= 1000:
                client.delete(*batch)
                batch = []
        if batch:
            client.delete(*batch)
    finally:
        client.close()


def _remove(
    folder: Path, overrides: dict[str, Any], scratch_db: tuple[str, str] | None
) -> list[str]:
    """Each part removed on its own, so one that fails leaves the others gone; what is left."""
    left: list[str] = []
    if scratch_db is not None:
        try:
            _drop_database(*scratch_db)
        except Exception as exc:
            left.append(speak("bench", "scratch.database", name=scratch_db[1], reason=exc))
    if overrides.get("redis_url"):
        try:
            _delete_keys(overrides["redis_url"], overrides["redis_prefix"])
        except Exception as exc:
            pattern = f"{overrides['redis_prefix']}:*"
            left.append(speak("bench", "scratch.redis_keys", pattern=pattern, reason=exc))
    shutil.rmtree(folder, ignore_errors=True)
    return left
