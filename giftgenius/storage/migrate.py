"""Alembic, configured in code, so ``giftgenius db upgrade`` works from a wheel too.

Migrations run on a connection of our own engine (same SQLite pragmas, ``BEGIN IMMEDIATE``)
inside one transaction; on Postgres an advisory lock makes concurrent upgrades wait for each
other instead of racing to create the same tables.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError

from giftgenius.errors import StorageError
from giftgenius.messages import speak
from giftgenius.resources import resource_dir
from giftgenius.storage.db import connection_error, create_db_engine

_PG_MIGRATION_LOCK = 0x6766_6D69  # "gfmi": any constant shared by every GiftGenius process


def _config(connection: sa.Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(resource_dir("migrations")))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _script() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The revision this GiftGenius needs."""
    revision = _script().get_current_head()
    if revision is None:
        raise StorageError(speak("storage", "migrate.none"))
    return revision


def is_known(revision: str) -> bool:
    """Whether ``revision`` is one of ours (an unknown one was made by a newer GiftGenius)."""
    try:
        return _script().get_revision(revision) is not None
    except CommandError:
        return False


def current_on(connection: sa.Connection) -> str | None:
    """The revision the database behind ``connection`` is at; None for an empty database."""
    return MigrationContext.configure(connection).get_current_revision()


def current(url: str | Engine) -> str | None:
    with _engine(url) as engine, _guard(engine), engine.connect() as conn:
        return current_on(conn)


def upgrade(url: str | Engine, revision: str = "head") -> None:
    """Migrate forward to ``revision`` (default: the newest)."""
    with _migration_connection(url) as conn:
        _run(lambda: command.upgrade(_config(conn), revision), "migrate.upgrade_failed", revision)


def downgrade(url: str | Engine, revision: str = "-1") -> None:
    """Migrate back to ``revision`` (default: one step back; "base" empties the schema)."""
    with _migration_connection(url) as conn:
        _run(
            lambda: command.downgrade(_config(conn), revision), "migrate.downgrade_failed", revision
        )


def _run(action: Callable[[], None], failed: str, revision: str) -> None:
    """Run a migration command; ``failed`` is the ``storage`` sentence that says it failed."""
    try:
        action()
    except CommandError as exc:
        raise StorageError(
            speak("storage", failed, revision=repr(revision), reason=exc, head=head())
        ) from exc


@contextmanager
def _engine(url: str | Engine) -> Iterator[Engine]:
    if isinstance(url, Engine):
        yield url
        return
    engine = create_db_engine(url)
    try:
        yield engine
    finally:
        engine.dispose()


@contextmanager
def _guard(engine: Engine) -> Iterator[None]:
    try:
        yield
    except OperationalError as exc:
        raise connection_error(engine.url.render_as_string(hide_password=False), exc) from exc


@contextmanager
def _migration_connection(url: str | Engine) -> Iterator[sa.Connection]:
    with _engine(url) as engine, _guard(engine), engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
        yield conn


__all__ = [
    "current",
    "current_on",
    "downgrade",
    "head",
    "is_known",
    "upgrade",
]
