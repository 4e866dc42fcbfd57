"""SQLite transactions as ``Database`` begins them: read-only reads, writes that lock at BEGIN.

The BEGIN and the ``query_only`` pragma are sent on the driver's connection, and the pragma
only when a pooled connection switches between reading and writing; these tests show the
switch is never missed and that a driver error at BEGIN still reaches the user as the
plain ``StorageError``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from giftgenius.errors import StorageError
from giftgenius.storage import db as db_module
from giftgenius.storage.db import Database


@pytest.fixture
def database(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'tx.db'}")
    db.prepare()
    return db


@pytest.mark.slow
def test_reads_and_writes_alternate_on_one_pooled_connection(database: Database) -> None:
    for round_ in range(3):  # read, write, read, write…: each switch must be seen
        with pytest.raises(StorageError, match=r"inside db\.read\(\)"), database.read() as repos:
            repos.users.ensure(f"reader-{round_}")
        with database.write() as repos:
            repos.users.ensure(f"writer-{round_}")
        with database.read() as repos:
            assert repos.users.exists(f"writer-{round_}")
            assert not repos.users.exists(f"reader-{round_}")
    database.dispose()


@pytest.mark.slow
def test_a_write_waits_at_begin_and_says_so_when_the_lock_stays_taken(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db_module, "SQLITE_BUSY_TIMEOUT_MS", 200)
    path = tmp_path / "locked.db"
    database = Database(f"sqlite:///{path}")
    database.prepare()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process writing, and not letting go
    try:
        locked = r"stayed locked by another GiftGenius process"
        with pytest.raises(StorageError, match=locked), database.write() as repos:
            repos.users.ensure("blocked")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    with database.write() as repos:  # the pooled connection is usable again
        repos.users.ensure("later")
    with database.read() as repos:
        assert repos.users.exists("later") and not repos.users.exists("blocked")
    database.dispose()
