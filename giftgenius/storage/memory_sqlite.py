"""The embedded memory store: ``memories.db`` in ``GIFTGENIUS_HOME``, ranked by sqlite-vec.

Why a file of its own, and pysqlite3: sqlite-vec is a loadable extension, and the Python
this app runs on may be built without ``enable_load_extension`` (the standard library's
``sqlite3`` on pyenv builds often is). pysqlite3-binary bundles a SQLite that loads
extensions. Two SQLite libraries must never open the same file in one process — POSIX
locks are per process, so closing a file in one library drops the other's locks — hence
the memories live apart from ``giftgenius.db``; the file is opened as every embedded file is
(``sqlite_file``: WAL, busy timeout, ``secure_delete``).

The ranking is exact, two ways. A user's first search in a process: sqlite-vec's ``vec0``
virtual table, one per vector dimension (``memory_vectors_<dim>``), partitioned by user and
embedding space (a metadata column for the space doubled the search's time), with the
recipient key as metadata, answers a KNN query by scoring every vector of the user's
partition (brute force in C over contiguous chunks: no approximate index; a few more than
k are asked for, so notes at an equal distance come newer first). From the user's second
search: the user's matrix, read once from ``memories`` and checked against the user's
tally (``memory_matrix.py``, the same as the database store's) — 5–6 ms of KNN at 10,000
notes become about 1. ``memories`` is the truth — it keeps every vector too, as float32
bytes of unit length — and a vector table is filled from it when it is made; the texts of
the k found are read from it. Deleted rows are zeroed in both (``secure_delete``; vec0
clears a deleted vector's bytes in its chunk), deleted from vec0 by rowid (a subquery makes
it scan itself whole).
Schema changes are numbered with ``PRAGMA user_version``.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import Counter, OrderedDict
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
from giftgenius.storage.memory_matrix import Matrix, MatrixCache, Tally, refreshed
from giftgenius.storage.sqlite_file import configure_file_connection, immediate, truncate_wal

SCHEMA_VERSION = 2
_TIE_ROOM = 16  # asked beyond k, so notes at equal distance are ordered newer first
# Vectors per vec0 chunk. Every user's partition takes whole chunks, so sqlite-vec's 1,024
# made a user with 100 notes cost a megabyte at 256 dimensions (11.6 KB a note over 1,000
# such users); 64 wastes at most 63 slots a user and searches as fast.
_CHUNK = 64
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
_SCHEMA_2 = (  # the tallies the per-process matrices are checked against (memory_matrix.py)
    """CREATE TABLE IF NOT EXISTS memory_tallies (
        user_id TEXT NOT NULL,
        model TEXT NOT NULL,
        notes INTEGER NOT NULL,
        last_seq INTEGER NOT NULL,
        removed INTEGER NOT NULL,
        PRIMARY KEY (user_id, model)
    ) WITHOUT ROWID""",
    "INSERT OR IGNORE INTO memory_tallies (user_id, model, notes, last_seq, removed)"
    " SELECT user_id, model, count(*), max(seq), 0 FROM memories GROUP BY user_id, model",
    "CREATE INDEX IF NOT EXISTS memories_user_seq ON memories (user_id, model, seq)",
)
_MIGRATIONS = {1: _SCHEMA, 2: _SCHEMA_2}  # user_version reached -> its statements
_SEEN = 4096  # (user, space) pairs remembered as searched once, for the matrix's first read


def _driver() -> Any:
    """pysqlite3's DB-API module, with the extension loader (imported on first use); the
    standard library's where pysqlite3-binary has no wheel (it then must load extensions)."""
    try:
        import pysqlite3.dbapi2 as driver
    except ImportError:
        import sqlite3 as driver
    return driver


def _tally(conn: Any, user_id: str, model: str) -> Tally:
    row = conn.execute(
        "SELECT notes, last_seq, removed FROM memory_tallies WHERE user_id = ? AND model = ?",
        (user_id, model),
    ).fetchone()
    return Tally() if row is None else Tally(*row)


@contextmanager
def _reading(conn: Any) -> Iterator[Any]:
    """One read transaction: every statement in it sees the same snapshot of the file."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")


def _owner(user_id: str, model: str) -> str:
    """The partition of a user's vectors of one space (a user id holds no space)."""
    return f"{user_id} {model}"


class SqliteVecMemoryStore:
    """``MemoryStore`` on a SQLite file with sqlite-vec loaded."""

    def __init__(self, path: str | Path, *, erased: ErasedCheck, busy_timeout: float = 10.0):
        """Nothing is opened yet: the file (and sqlite-vec) on first use, so the commands
        that never read a note (``state``, ``checkpoints``…) do not pay for them."""
        self.path = Path(path)
        self._erased = erased
        self._busy_timeout = busy_timeout
        self._indexes: set[str] = set()  # the vec0 tables known to exist
        self._lock = threading.RLock()  # one connection, shared by the process's threads
        self._conn: Any = None
        self._closed = False
        self._matrices = MatrixCache()
        self._seen: OrderedDict[tuple[str, str], None] = OrderedDict()

    def _open(self) -> Any:
        import sqlite_vec

        with self._errors():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = _driver().connect(
                str(self.path), timeout=self._busy_timeout, check_same_thread=False
            )
            try:
                conn.enable_load_extension(True)
                sqlite_vec.load(conn)
                conn.enable_load_extension(False)
                configure_file_connection(conn, busy_timeout=self._busy_timeout)
                if conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                    with immediate(conn):
                        version = conn.execute("PRAGMA user_version").fetchone()[0]
                        for step in range(version + 1, SCHEMA_VERSION + 1):
                            for statement in _MIGRATIONS[step]:
                                conn.execute(statement)
                        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            except BaseException:
                conn.close()
                raise
        return conn

    def _absent(self) -> bool:
        """No file and nothing open: there is no note to find or delete."""
        return self._conn is None and not self.path.exists()

    def add(self, memory: Memory) -> None:
        refuse_erased(self._erased, memory.run_id)
        vector = unit_float32(memory.vector)
        row = (
            memory.id,
            memory.user_id,
            memory.run_id,
            memory.recipient,
            memory.recipient_key,
            memory.model,
            memory.created_at.timestamp(),
            check_text(memory.text),
            vector,
        )
        with self._write() as tx:
            table = self._index_for(tx, len(vector) // 4, create=True)  # before the row
            self._delete_in(tx, "id = ?", (memory.id,))  # a rewritten note replaces its row
            seq = tx.execute(
                "INSERT INTO memories (id, user_id, run_id, recipient, recipient_key, model,"
                " created_at, text, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            ).lastrowid
            tx.execute(
                f"INSERT INTO {table} (rowid, owner, recipient_key, embedding) VALUES (?, ?, ?, ?)",
                (seq, _owner(memory.user_id, memory.model), memory.recipient_key or "", vector),
            )
            tx.execute(
                "INSERT INTO memory_tallies (user_id, model, notes, last_seq, removed)"
                " VALUES (?, ?, 1, ?, 0) ON CONFLICT (user_id, model) DO UPDATE SET"
                " notes = notes + 1, last_seq = max(last_seq, excluded.last_seq)",
                (memory.user_id, memory.model, seq),
            )
        try:
            refuse_erased(self._erased, memory.run_id)  # forget ran meanwhile: it wins
        except BaseException:
            self._delete("id = ?", (memory.id,))
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
        """A user's first search in this process asks sqlite-vec (no vector is read into
        memory: a one-off costs no more than it must); from the second, the user's matrix
        (``memory_matrix.py``) is read once and kept, and each search checks it against
        the tally — in one read transaction, so what is ranked is what is read."""
        import numpy as np

        k = check_k(k)
        query = unit_float32(vector)
        if k == 0 or self._absent():
            return []
        key = (user_id, model)
        dim = len(query) // 4
        with self._lock, self._errors(), _reading(self._connection()) as conn:
            cached = self._matrices.get(user_id, model, dim)
            if cached is None and key not in self._seen:
                self._seen[key] = None
                while len(self._seen) > _SEEN:
                    self._seen.popitem(last=False)
                found = self._nearest(conn, query, user_id, model, recipient_key, k)
            else:
                now = _tally(conn, user_id, model)
                matrix = self._matrix(conn, user_id, model, dim, cached, now)
                seqs, scores = matrix.ranked(np.frombuffer(query, dtype="<f4"), recipient_key, k)
                found = list(zip(seqs, scores, strict=True))
            if not found:
                return []
            marks = ", ".join("?" * len(found))
            rows = conn.execute(
                "SELECT seq, id, run_id, recipient, text, created_at FROM memories"
                f" WHERE seq IN ({marks})",
                [seq for seq, _ in found],
            ).fetchall()
        by_seq = {row[0]: row for row in rows}
        return [
            MemoryHit(
                id=by_seq[seq][1],
                run_id=by_seq[seq][2],
                recipient=by_seq[seq][3],
                text=by_seq[seq][4],
                created_at=dt.datetime.fromtimestamp(by_seq[seq][5], dt.UTC),
                score=score,
            )
            for seq, score in found
            if seq in by_seq
        ]

    def _nearest(
        self,
        conn: Any,
        query: bytes,
        user_id: str,
        model: str,
        recipient_key: str | None,
        k: int,
    ) -> list[tuple[int, float]]:
        """(seq, cosine) of the k nearest notes by sqlite-vec's KNN, best first; ties to
        the newer (a few more than k are asked for, to see them)."""
        table = self._index_for(conn, len(query) // 4, create=False)
        if table is None:
            return []
        where = "embedding MATCH ? AND k = ? AND owner = ?"
        params: list[Any] = [query, k + _TIE_ROOM, _owner(user_id, model)]
        if recipient_key is not None:
            where += " AND recipient_key = ?"
            params.append(recipient_key)
        found = conn.execute(f"SELECT rowid, distance FROM {table} WHERE {where}", params)
        ranked = sorted((float(d), -int(seq)) for seq, d in found)[:k]
        return [(-neg, 1.0 - distance) for distance, neg in ranked]

    def _matrix(
        self, conn: Any, user_id: str, model: str, dim: int, cached: Matrix | None, now: Tally
    ) -> Matrix:
        def read(after: int | None, upto: int | None) -> Sequence[Any]:
            if after is None:
                return conn.execute(
                    "SELECT seq, recipient_key, embedding FROM memories"
                    " WHERE user_id = ? AND model = ? ORDER BY seq",
                    (user_id, model),
                ).fetchall()
            return conn.execute(
                "SELECT seq, recipient_key, embedding FROM memories"
                " WHERE user_id = ? AND model = ? AND seq > ? AND seq <= ? ORDER BY seq",
                (user_id, model, after, upto),
            ).fetchall()

        return self._matrices.keep(user_id, model, refreshed(cached, now, dim, read))

    def latest(
        self, user_id: str, *, model: str, recipient_key: str | None = None, k: int = 5
    ) -> list[MemoryHit]:
        k = check_k(k)
        if k == 0 or self._absent():
            return []
        where, params = "user_id = ? AND model = ?", [user_id, model]
        if recipient_key is not None:
            where += " AND recipient_key = ?"
            params.append(recipient_key)
        with self._lock, self._errors():
            rows = (
                self._connection()
                .execute(
                    "SELECT id, run_id, recipient, text, created_at FROM memories"
                    f" WHERE {where} ORDER BY seq DESC LIMIT ?",
                    [*params, k],
                )
                .fetchall()
            )
        return [
            MemoryHit(
                id=row[0],
                run_id=row[1],
                recipient=row[2],
                text=row[3],
                created_at=dt.datetime.fromtimestamp(row[4], dt.UTC),
                score=0.0,
            )
            for row in rows
        ]

    def erase_user(self, user_id: str) -> int:
        if self._absent():
            return 0
        with self._write() as tx:
            deleted = self._delete_in(tx, "user_id = ?", (user_id,))
            tx.execute("DELETE FROM memory_tallies WHERE user_id = ?", (user_id,))
        self._matrices.drop(user_id)
        self._reclaim()
        return deleted

    def prune(self, older_than: dt.datetime) -> int:
        if self._absent():
            return 0
        return self._delete("created_at < ?", (older_than.timestamp(),))

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
            self._closed = True
            self._matrices.clear()
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- internals ---------------------------------------------------------------------

    def _index_for(self, conn: Any, dim: int, *, create: bool) -> str | None:
        """The vec0 table of ``dim``-dimensional vectors (None: none yet, and not created).

        One table per dimension, since a vec0 column has one; partitioned by user, so a
        search scans only that user's vectors. Made on the first note of its dimension,
        filled from ``memories`` (the truth, which keeps every vector) if notes of it exist.
        """
        table = f"memory_vectors_{int(dim)}"
        if table in self._indexes:
            return table
        known = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
        ).fetchone()
        if known is None:
            if not create:
                return None
            conn.execute(
                f"CREATE VIRTUAL TABLE {table} USING vec0(owner text partition key,"
                f" recipient_key text, embedding float[{int(dim)}]"
                f" distance_metric=cosine, chunk_size={_CHUNK})"
            )
            conn.execute(
                f"INSERT INTO {table} (rowid, owner, recipient_key, embedding)"
                " SELECT seq, user_id || ' ' || model, coalesce(recipient_key, ''), embedding"
                " FROM memories WHERE length(embedding) = ?",
                (4 * int(dim),),
            )
        self._indexes.add(table)
        return table

    def _delete(self, where: str, params: tuple[Any, ...]) -> int:
        """Delete the notes ``where`` selects, in a transaction of its own."""
        with self._write() as tx:
            return self._delete_in(tx, where, params)

    def _delete_in(self, tx: Any, where: str, params: tuple[Any, ...]) -> int:
        """Delete the notes ``where`` selects, from ``memories`` and every vector table
        (by rowid: vec0 would scan itself whole for a subquery), and count them in the
        tallies as removed."""
        gone = tx.execute(f"SELECT seq, user_id, model FROM memories WHERE {where}", params)
        gone = gone.fetchall()
        if not gone:
            return 0
        tables = [
            row[0]
            for row in tx.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name GLOB 'memory_vectors_*' AND sql LIKE 'CREATE VIRTUAL TABLE%'"
            )
        ]
        for table in tables:
            tx.executemany(f"DELETE FROM {table} WHERE rowid = ?", [(row[0],) for row in gone])
        tx.executemany("DELETE FROM memories WHERE seq = ?", [(row[0],) for row in gone])
        for (user_id, model), n in Counter((row[1], row[2]) for row in gone).items():
            tx.execute(
                "UPDATE memory_tallies SET notes = notes - ?, removed = removed + ?"
                " WHERE user_id = ? AND model = ?",
                (n, n, user_id, model),
            )
        return len(gone)

    def _reclaim(self) -> None:
        """Deleted rows are zeroed (``secure_delete``); empty the log that still holds them."""
        with self._lock, self._errors():
            truncate_wal(self._connection())

    def _connection(self) -> Any:
        with self._lock:
            if self._closed:
                raise StorageError(speak("memory", "closed", path=self.path))
            if self._conn is None:
                self._conn = self._open()
            return self._conn

    @contextmanager
    def _write(self) -> Iterator[Any]:
        with self._lock, self._errors(), immediate(self._connection()) as conn:
            yield conn

    @contextmanager
    def _errors(self) -> Iterator[None]:
        driver = _driver()
        try:
            yield
        except (driver.Error, OSError) as exc:
            raise StorageError(speak("memory", "failed", path=self.path, reason=exc)) from exc
