"""The embedded session store: one SQLite file, safe for several processes.

The file is opened like the database's (``sqlite_file``: WAL, so readers run beside a
writer, switched on with retries when many processes open a new file at once). Every write
(and every load, which slides the TTL) is one short ``BEGIN IMMEDIATE`` transaction, so
check-and-set is a plain ``UPDATE ... WHERE version = ?`` and other processes queue on
``busy_timeout`` instead of failing. ``erase`` (forget) leaves a row in ``erased`` in the
same transaction as it deletes the session, and ``save`` looks for it in its own, so no turn
in flight writes an erased run's session back. The file is a cache of live sessions, not
durable data, so it creates its own tables instead of going through Alembic.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

from giftgenius import metrics
from giftgenius.domain import Session
from giftgenius.errors import StorageError, VersionConflict
from giftgenius.messages import speak
from giftgenius.storage.checkpoints import decode_session
from giftgenius.storage.leases import QUEUE_STALE, HeldLease, give_back, hold_lease
from giftgenius.storage.session_store import (
    Clock,
    Lease,
    check_run_id,
    run_erased,
    version_conflict,
)
from giftgenius.storage.sqlite_file import configure_file_connection, immediate, truncate_wal

log = logging.getLogger(__name__)

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS sessions (
        run_id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        data TEXT NOT NULL,
        created_at REAL NOT NULL,
        expires_at REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS sessions_expires_at ON sessions (expires_at)",
    """CREATE TABLE IF NOT EXISTS leases (
        run_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at REAL NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS lease_queue (
        ticket INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        waiter TEXT NOT NULL UNIQUE,
        seen_at REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS lease_queue_run ON lease_queue (run_id, ticket)",
    """CREATE TABLE IF NOT EXISTS erased (
        run_id TEXT PRIMARY KEY,
        expires_at REAL NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS erased_expires_at ON erased (expires_at)",
)


class SqliteSessionStore:
    """``SessionStore`` on a SQLite file; the clock decides expiry (sessions and leases)."""

    backend = "sqlite"  # the metrics' label

    def __init__(
        self,
        path: str | Path,
        *,
        session_ttl: float,
        max_lifetime: float,
        lease_ttl: float,
        clock: Clock | None = None,
        busy_timeout: float = 10.0,
    ) -> None:
        self.path = Path(path)
        self.session_ttl = session_ttl
        self.max_lifetime = max_lifetime
        self.lease_ttl = lease_ttl
        self._clock: Clock = clock or time.time
        self._busy_timeout = busy_timeout
        # One connection shared with the lease-renewal threads, serialized by this lock.
        self._lock = threading.RLock()
        self._conn: sqlite3.Connection | None = None
        with self._errors():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=busy_timeout, check_same_thread=False)
            try:
                configure_file_connection(conn, busy_timeout=busy_timeout)
            except BaseException:
                conn.close()
                raise
            self._conn = conn
            with self._write() as tx:
                for statement in _SCHEMA:
                    tx.execute(statement)

    # -- SessionStore ------------------------------------------------------------------

    @metrics.store_operation("load")
    def load(self, run_id: str) -> Session | None:
        check_run_id(run_id)
        with self._write() as tx:
            return self._load(tx, run_id)

    def _load(self, tx: sqlite3.Connection, run_id: str) -> Session | None:
        """The live session, its TTL slid, inside the caller's write transaction."""
        now = self._clock()
        row = tx.execute(
            "SELECT data, created_at, expires_at FROM sessions WHERE run_id = ?", (run_id,)
        ).fetchone()
        if row is None:
            return None
        data, created_at, expires_at = row
        if expires_at <= now:
            tx.execute("DELETE FROM sessions WHERE run_id = ?", (run_id,))
            return None
        try:
            session = decode_session(json.loads(data))  # older schemas upgraded
        except ValueError as exc:  # bad JSON, a failed validation, a newer schema
            # A cache entry we cannot read is dropped; the agent rebuilds from durable data.
            log.warning("dropping unreadable session %s in %s: %s", run_id, self.path, exc)
            tx.execute("DELETE FROM sessions WHERE run_id = ?", (run_id,))
            return None
        tx.execute(
            "UPDATE sessions SET expires_at = ? WHERE run_id = ?",
            (self._expiry(now, created_at), run_id),
        )
        return session

    @metrics.store_operation("save")
    def save(
        self, session: Session, expected_version: int | None, *, release: Lease | None = None
    ) -> None:
        run_id = check_run_id(session.run_id)
        data = session.dump()
        if release is None:
            with self._write() as tx:
                self._save(tx, session, expected_version, data)
            return
        refused: VersionConflict | None = None
        with give_back(release):
            with self._write() as tx:  # the lease goes whatever the save's outcome
                tx.execute(
                    "DELETE FROM leases WHERE run_id = ? AND owner = ?", (run_id, release.owner)
                )
                try:
                    self._save(tx, session, expected_version, data)
                except VersionConflict as exc:  # an answer: the release is committed
                    refused = exc
            if refused is not None:
                raise refused

    def _save(
        self, tx: sqlite3.Connection, session: Session, expected_version: int | None, data: str
    ) -> None:
        run_id = session.run_id
        now = self._clock()
        tombstone = tx.execute(
            "SELECT 1 FROM erased WHERE run_id = ? AND expires_at > ?", (run_id, now)
        ).fetchone()
        if tombstone is not None:
            raise run_erased(run_id)
        row = tx.execute(
            "SELECT version, created_at, expires_at FROM sessions WHERE run_id = ?",
            (run_id,),
        ).fetchone()
        if row is not None and row[2] <= now:
            tx.execute("DELETE FROM sessions WHERE run_id = ?", (run_id,))
            row = None
        if expected_version is None:
            if row is not None:
                raise version_conflict(run_id, expected_version, row[0])
            self._purge_expired(tx, now)
            tx.execute(
                "INSERT INTO sessions (run_id, version, data, created_at, expires_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (run_id, session.version, data, now, self._expiry(now, now)),
            )
            return
        if row is None:
            raise version_conflict(run_id, expected_version, None)
        expires_at = self._expiry(now, row[1])
        if expires_at <= now:
            tx.execute("DELETE FROM sessions WHERE run_id = ?", (run_id,))
            raise version_conflict(run_id, expected_version, None)
        updated = tx.execute(
            "UPDATE sessions SET version = ?, data = ?, expires_at = ?"
            " WHERE run_id = ? AND version = ?",
            (session.version, data, expires_at, run_id, expected_version),
        ).rowcount
        if updated != 1:
            raise version_conflict(run_id, expected_version, row[0])

    @metrics.store_operation("delete")
    def delete(self, run_id: str) -> None:
        check_run_id(run_id)
        with self._write() as tx:
            tx.execute("DELETE FROM sessions WHERE run_id = ?", (run_id,))
            tx.execute("DELETE FROM leases WHERE run_id = ?", (run_id,))

    @metrics.store_operation("erase")
    def erase(self, run_id: str) -> None:
        check_run_id(run_id)
        with self._write() as tx:
            tx.execute(
                "INSERT OR REPLACE INTO erased (run_id, expires_at) VALUES (?, ?)",
                (run_id, self._clock() + self.max_lifetime),
            )
            tx.execute("DELETE FROM sessions WHERE run_id = ?", (run_id,))
            tx.execute("DELETE FROM leases WHERE run_id = ?", (run_id,))
        # The deleted rows are zeroed (``secure_delete``); their earlier versions in the
        # write-ahead log go with it.
        with self._lock, self._errors():
            truncate_wal(self._connection())

    @metrics.store_operation("is_erased")
    def is_erased(self, run_id: str) -> bool:
        check_run_id(run_id)
        with self._lock, self._errors():
            row = (
                self._connection()
                .execute(
                    "SELECT 1 FROM erased WHERE run_id = ? AND expires_at > ?",
                    (run_id, self._clock()),
                )
                .fetchone()
            )
        return row is not None

    @metrics.store_operation("ping")
    def ping(self) -> None:
        with self._lock, self._errors():
            self._connection().execute("SELECT 1").fetchone()

    def lease(
        self, run_id: str, owner: str, *, wait: float, load: bool = False
    ) -> AbstractContextManager[HeldLease]:
        return hold_lease(self, run_id, owner, wait=wait, lease_ttl=self.lease_ttl, load=load)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- LeaseOps ------------------------------------------------------------------------

    @metrics.store_operation("lease_acquire")
    def lease_try_acquire(self, run_id: str, owner: str, waiter: str | None = None) -> bool:
        with self._write() as tx:
            return self._acquire(tx, run_id, owner, waiter)

    @metrics.store_operation("lease_acquire_load")
    def lease_try_acquire_and_load(self, run_id: str, owner: str) -> tuple[bool, Session | None]:
        check_run_id(run_id)
        with self._write() as tx:
            if not self._acquire(tx, run_id, owner, None):
                return False, None
            return True, self._load(tx, run_id)

    def _acquire(self, tx: sqlite3.Connection, run_id: str, owner: str, waiter: str | None) -> bool:
        now = self._clock()
        tx.execute("DELETE FROM lease_queue WHERE seen_at <= ?", (now - QUEUE_STALE,))
        if waiter is not None:
            tx.execute(
                "INSERT INTO lease_queue (run_id, waiter, seen_at) VALUES (?, ?, ?)"
                " ON CONFLICT (waiter) DO UPDATE SET seen_at = excluded.seen_at",
                (run_id, waiter, now),
            )
        head = tx.execute(
            "SELECT waiter FROM lease_queue WHERE run_id = ? ORDER BY ticket LIMIT 1",
            (run_id,),
        ).fetchone()
        if head is not None and head[0] != waiter:
            return False  # others came first
        tx.execute("DELETE FROM leases WHERE run_id = ? AND expires_at <= ?", (run_id, now))
        inserted = tx.execute(
            "INSERT OR IGNORE INTO leases (run_id, owner, expires_at) VALUES (?, ?, ?)",
            (run_id, owner, now + self.lease_ttl),
        ).rowcount
        if inserted == 1 and waiter is not None:
            tx.execute("DELETE FROM lease_queue WHERE waiter = ?", (waiter,))
        return inserted == 1

    @metrics.store_operation("lease_leave_queue")
    def lease_leave_queue(self, run_id: str, waiter: str) -> None:
        with self._write() as tx:
            tx.execute("DELETE FROM lease_queue WHERE waiter = ?", (waiter,))

    @metrics.store_operation("lease_renew")
    def lease_renew(self, run_id: str, owner: str) -> bool:
        with self._write() as tx:
            now = self._clock()
            renewed = tx.execute(
                "UPDATE leases SET expires_at = ?"
                " WHERE run_id = ? AND owner = ? AND expires_at > ?",
                (now + self.lease_ttl, run_id, owner, now),
            ).rowcount
            return renewed == 1

    @metrics.store_operation("lease_release")
    def lease_release(self, run_id: str, owner: str) -> None:
        with self._write() as tx:
            tx.execute("DELETE FROM leases WHERE run_id = ? AND owner = ?", (run_id, owner))

    # -- internals -----------------------------------------------------------------------

    def _expiry(self, now: float, created_at: float) -> float:
        """Sliding TTL, capped by the max lifetime counted from the first save."""
        return min(now + self.session_ttl, created_at + self.max_lifetime)

    @staticmethod
    def _purge_expired(tx: sqlite3.Connection, now: float) -> None:
        tx.execute("DELETE FROM sessions WHERE expires_at <= ?", (now,))
        tx.execute("DELETE FROM leases WHERE expires_at <= ?", (now,))
        tx.execute("DELETE FROM erased WHERE expires_at <= ?", (now,))

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StorageError(
                f"The session store {self.path} is closed; create a new store to use it again."
            )
        return self._conn

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction: ``BEGIN IMMEDIATE`` so CAS reads cannot go stale."""
        with self._lock, self._errors(), immediate(self._connection()) as conn:
            yield conn

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except sqlite3.OperationalError as exc:
            text = str(exc).lower()
            if "locked" in text or "busy" in text:
                seconds = f"{self._busy_timeout:g}"
                raise StorageError(
                    speak("storage", "sessions.locked", path=self.path, seconds=seconds)
                ) from exc
            raise _storage_error(self.path, exc) from exc
        except (sqlite3.Error, OSError) as exc:
            raise _storage_error(self.path, exc) from exc


def _storage_error(path: Path, exc: Exception) -> StorageError:
    return StorageError(speak("storage", "sessions.failed", path=path, reason=exc))
