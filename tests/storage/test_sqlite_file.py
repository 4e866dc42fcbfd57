"""The shared SQLite file setup: WAL switched on with retries, within the busy budget."""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

import pytest

from giftgenius.errors import StorageError
from giftgenius.storage.sqlite_file import configure_file_connection, switch_to_wal
from giftgenius.storage.sqlite_sessions import SqliteSessionStore


def _lock_new_file(path: Path) -> sqlite3.Connection:
    """Another process's view: a connection holding the new file's exclusive lock."""
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


@pytest.mark.slow
def test_the_switch_waits_for_a_lock_released_within_the_budget(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    holder = _lock_new_file(path)
    release = threading.Timer(0.3, lambda: holder.execute("COMMIT"))
    conn = sqlite3.connect(path, timeout=0, isolation_level=None, check_same_thread=False)
    try:
        release.start()
        started = time.monotonic()
        switch_to_wal(conn, within=5)
        assert time.monotonic() - started >= 0.25
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        release.join()
        conn.close()
        holder.close()


@pytest.mark.slow
def test_a_lock_held_past_the_budget_is_reported_after_the_budget(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    holder = _lock_new_file(path)
    conn = sqlite3.connect(path, timeout=0, isolation_level=None)
    try:
        started = time.monotonic()
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            switch_to_wal(conn, within=1.0)
        # It stops before a sleep would overrun the budget: at most one backoff step early.
        assert 0.75 <= time.monotonic() - started < 3
    finally:
        conn.close()
        holder.close()


@pytest.mark.slow
def test_the_session_store_reports_a_locked_new_file_after_its_busy_timeout(
    tmp_path: Path,
) -> None:
    path = tmp_path / "sessions.db"
    holder = _lock_new_file(path)
    try:
        started = time.monotonic()
        with pytest.raises(StorageError, match=r"stayed locked for more than 1 s"):
            SqliteSessionStore(path, session_ttl=60, max_lifetime=600, lease_ttl=5, busy_timeout=1)
        assert time.monotonic() - started >= 0.75  # the message tells the truth
    finally:
        holder.close()


def test_a_wal_file_is_opened_without_taking_a_lock(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    first = sqlite3.connect(path)
    configure_file_connection(first, busy_timeout=1)
    first.close()
    reader = sqlite3.connect(path, isolation_level=None)
    reader.execute("BEGIN IMMEDIATE")  # a writer is busy: opening must not need its lock
    conn = sqlite3.connect(path, timeout=0)
    try:
        configure_file_connection(conn, busy_timeout=0.05)
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.isolation_level is None
        assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    finally:
        conn.close()
        reader.close()
