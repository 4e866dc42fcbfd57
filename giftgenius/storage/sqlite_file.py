"""How every GiftGenius process opens a SQLite file: one setup for both embedded stores.

The database (``db.py``, through SQLAlchemy), the session cache (``sqlite_sessions.py``)
and the embedded memory store (``memory_sqlite.py``, through pysqlite3) are files shared by
several processes, so their connections must agree: autocommit (the
stores issue ``BEGIN IMMEDIATE`` themselves), a busy timeout, WAL so readers run beside a
writer, and ``synchronous=NORMAL`` (safe under WAL).

Switching a new file to WAL needs an exclusive lock, and SQLite does not always wait on its
busy handler for it: processes opening a brand-new file at the same moment get "database is
locked" at once. So the switch is retried, within the same budget as the busy timeout, and
whatever error remains after that budget really did last that long.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tenacity import Retrying, retry_if_exception, stop_before_delay, wait_exponential


def configure_file_connection(conn: sqlite3.Connection, *, busy_timeout: float) -> None:
    """Set up a fresh connection to a database FILE (not ``:memory:``) for shared use.

    ``secure_delete`` overwrites deleted content with zeros, so what ``forget`` erased is
    not left readable in the file's free pages (deletes are rare: erasure and retention).
    """
    conn.isolation_level = None
    conn.execute(f"PRAGMA busy_timeout = {round(busy_timeout * 1000)}")
    switch_to_wal(conn, within=busy_timeout)
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA secure_delete = ON")


@contextmanager
def immediate(conn: Any) -> Iterator[Any]:
    """One write transaction on ``conn``: ``BEGIN IMMEDIATE`` takes the write lock at once,
    so what it reads cannot go stale before it writes; rolled back on any exception.
    (``conn`` is a sqlite3 connection, or pysqlite3's: the same DB-API.)"""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def truncate_wal(conn: sqlite3.Connection) -> bool:
    """Copy the write-ahead log into the file and empty it; whether all of it went.

    The log keeps every page as it was written — erased text included — until a
    checkpoint; a reader in the middle of a transaction can hold part of it back (False),
    an idle open connection cannot.
    """
    busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    return busy == 0


def switch_to_wal(conn: sqlite3.Connection, *, within: float) -> None:
    """Put the file in WAL mode, retrying "locked" for up to ``within`` seconds.

    WAL is stored in the file, so only the first opener pays for the switch; later opens see
    it already set and take no lock.
    """
    for attempt in Retrying(
        retry=retry_if_exception(_is_locked),
        wait=wait_exponential(multiplier=0.01, max=0.2),
        stop=stop_before_delay(within),
        reraise=True,
    ):
        with attempt:
            if _journal_mode(conn) != "wal":
                conn.execute("PRAGMA journal_mode = WAL")


def _journal_mode(conn: sqlite3.Connection) -> str:
    return str(conn.execute("PRAGMA journal_mode").fetchone()[0]).lower()


def _is_locked(exc: BaseException) -> bool:
    """ "locked", from the standard library's driver or another build of it (pysqlite3,
    which the memory store uses for loadable extensions): same names, other classes."""
    return type(exc).__name__ == "OperationalError" and "locked" in str(exc).lower()
