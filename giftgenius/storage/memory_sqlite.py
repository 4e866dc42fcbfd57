"""The embedded memory store: ``memories.db`` in ``GIFTGENIUS_HOME``, ranked by sqlite-vec.

Why a file of its own, and pysqlite3: sqlite-vec is a loadable extension, and the Python
this app runs on may be built without ``enable_load_extension`` (the standard library's
``sqlite3`` on pyenv builds often is). pysqlite3-binary bundles a SQLite that loads
extensions. Two SQLite libraries must never open the same file in one process — POSIX
locks are per process, so closing a file in one library drops the other's locks — hence
the memories live apart from ``giftgenius.db``; the file is opened as every embedded file is
(``sqlite_file``: WAL, busy timeout, ``secure_delete``).

The ranking is exact: one indexed range of the user's notes of one embedding space (and
recipient), each scored by sqlite-vec's ``vec_distance_cosine`` in C, ordered and cut to k
in SQL. Vectors are stored as float32 blobs (sqlite-vec's own format), unit length.
Schema changes are numbered with ``PRAGMA user_version``.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from giftgenius.errors import StorageError
from giftgenius.messages import speak
from giftgenius.storage.memories import (
    ErasedCheck,
    Memory,
    MemoryHit,
    check_k,
    check_text,
    refuse_erased,
    unit_float32,
)
from giftgenius.storage.sqlite_file import configure_file_connection, truncate_wal

SCHEMA_VERSION = 1
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS memories (
        seq INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        user_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        recipient TEXT,
        recipient_key TEXT,
        model TEXT NOT NULL,
        created_at REAL NOT NULL,
        text TEXT NOT NULL,
        embedding BLOB NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS memories_user ON memories (user_id, model, recipient_key)",
    "CREATE INDEX IF NOT EXISTS memories_created ON memories (created_at)",
    "CREATE INDEX IF NOT EXISTS memories_run ON memories (run_id)",
)


def _driver() -> Any:
    """pysqlite3's DB-API module, with the extension loader (imported on first use); the
    standard library's where pysqlite3-binary has no wheel (it then must load extensions)."""
    try:
        import pysqlite3.dbapi2 as driver
    except ImportError:
        import sqlite3 as driver
    return driver


class SqliteVecMemoryStore:
    """``MemoryStore`` on a SQLite file with sqlite-vec loaded."""

    def __init__(self, path: str | Path, *, erased: ErasedCheck, busy_timeout: float = 10.0):
        import sqlite_vec

        self.path = Path(path)
        self._erased = erased
        self._lock = threading.RLock()  # one connection, shared by the process's threads
        with self._errors():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = _driver().connect(str(self.path), timeout=busy_timeout, check_same_thread=False)
            try:
                conn.enable_load_extension(True)
                sqlite_vec.load(conn)
                conn.enable_load_extension(False)
                configure_file_connection(conn, busy_timeout=busy_timeout)
                if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                    conn.execute("BEGIN IMMEDIATE")
                    for statement in _SCHEMA:
                        conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                    conn.execute("COMMIT")
            except BaseException:
                conn.close()
                raise
            self._conn: Any = conn

    def add(self, memory: Memory) -> None:
        refuse_erased(self._erased, memory.run_id)
        row = (
            memory.id,
            memory.user_id,
            memory.run_id,
            memory.recipient,
            memory.recipient_key,
            memory.model,
            memory.created_at.timestamp(),
            check_text(memory.text),
            unit_float32(memory.vector),
        )
        with self._write() as tx:
            tx.execute(
                "INSERT INTO memories (id, user_id, run_id, recipient, recipient_key, model,"
                " created_at, text, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )
        try:
            refuse_erased(self._erased, memory.run_id)  # forget ran meanwhile: it wins
        except BaseException:
            with self._write() as tx:
                tx.execute("DELETE FROM memories WHERE id = ?", (memory.id,))
            raise

    def search(
        self,
        user_id: str,
        vector: Sequence[float],
        *,
        model: str,
        recipient_key: str | None = None,
        k: int = 5,
    ) -> list[MemoryHit]:
        k = check_k(k)
        query = unit_float32(vector)
        if k == 0:
            return []
        where = "user_id = ? AND model = ? AND length(embedding) = ?"
        params: list[Any] = [user_id, model, len(query)]
        if recipient_key is not None:
            where += " AND recipient_key = ?"
            params.append(recipient_key)
        sql = (
            "SELECT id, run_id, recipient, text, created_at,"
            " vec_distance_cosine(embedding, ?) AS distance FROM memories"
            f" WHERE {where} ORDER BY distance, seq DESC LIMIT ?"
        )
        with self._lock, self._errors():
            rows = self._connection().execute(sql, [query, *params, k]).fetchall()
        return [
            MemoryHit(
                id=row[0],
                run_id=row[1],
                recipient=row[2],
                text=row[3],
                created_at=dt.datetime.fromtimestamp(row[4], dt.UTC),
                score=1.0 - float(row[5]),
            )
            for row in rows
        ]

    def erase_user(self, user_id: str) -> int:
        with self._write() as tx:
            deleted = int(tx.execute("DELETE FROM memories WHERE user_id = ?", (user_id,)).rowcount)
        self._reclaim()
        return deleted

    def prune(self, older_than: dt.datetime) -> int:
        with self._write() as tx:
            cut = older_than.timestamp()
            return int(tx.execute("DELETE FROM memories WHERE created_at < ?", (cut,)).rowcount)

    def footprint(self) -> tuple[int, int]:
        with self._lock, self._errors():
            conn = self._connection()
            truncate_wal(conn)
            count = int(conn.execute("SELECT count(*) FROM memories").fetchone()[0])
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            size = conn.execute("PRAGMA page_size").fetchone()[0]
        return count, int(pages) * int(size)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- internals ---------------------------------------------------------------------

    def _reclaim(self) -> None:
        """Deleted rows are zeroed (``secure_delete``); empty the log that still holds them."""
        with self._lock, self._errors():
            truncate_wal(self._connection())

    def _connection(self) -> Any:
        if self._conn is None:
            raise StorageError(speak("memory", "closed", path=self.path))
        return self._conn

    @contextmanager
    def _write(self) -> Iterator[Any]:
        with self._lock, self._errors():
            conn = self._connection()
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    @contextmanager
    def _errors(self) -> Iterator[None]:
        driver = _driver()
        try:
            yield
        except (driver.Error, OSError) as exc:
            raise StorageError(speak("memory", "failed", path=self.path, reason=exc)) from exc
