"""The memory store in the database: table ``memories`` (0007_memories), ranked with numpy.

pgvector cannot be assumed on the Postgres a deployment has, and the ranking must be exact
anyway, so the database filters (one user, one embedding space) and this process scores.
Reading 10,000 float32 vectors a search would cost tens of milliseconds, so each process
keeps, per user and space, the matrix of their vectors (unit length: a product is the
cosine) with each row's ``seq`` and recipient key, and before each search asks ONE cheap
question answered from the index on (user, model, seq): how many rows, and the last seq.
Unchanged: the matrix is used as it is. More rows: only rows after the last seq are read,
and the matrix is topped up — if the count then adds up; if it does not (a row deleted,
or a row committed late with a smaller seq), the matrix is read again whole. Then the k
best rows' text is read by seq, so a note deleted meanwhile is never returned, and the
cache holds no text at all. The cache is bounded (``CACHE_BYTES``, least recently used
first out).
"""

from __future__ import annotations

import datetime as dt
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from giftgenius.storage.memories import (
    ErasedCheck,
    Memory,
    MemoryHit,
    check_k,
    check_text,
    refuse_erased,
    unit_float32,
)
from giftgenius.storage.tables import MemoryRow

if TYPE_CHECKING:
    import numpy as np

    from giftgenius.storage.db import Database

CACHE_BYTES = 256 * 1024 * 1024
_T = MemoryRow.__table__.c


@dataclass
class _Matrix:
    """One user's vectors of one space, as the database last said them."""

    count: int  # rows of (user, model) in the table, whatever their dimension
    last: int  # the greatest seq read
    seqs: np.ndarray  # int64, one per row kept
    keys: np.ndarray  # object: recipient keys (None for none)
    vectors: np.ndarray  # float32 (rows, dim)

    @property
    def nbytes(self) -> int:
        return int(self.vectors.nbytes + self.seqs.nbytes + self.keys.nbytes)


class DbMemoryStore:
    """``MemoryStore`` on the app's database."""

    def __init__(self, db: Database, *, erased: ErasedCheck, cache_bytes: int = CACHE_BYTES):
        self.db = db
        self._erased = erased
        self._cache: OrderedDict[tuple[str, str], _Matrix] = OrderedDict()
        self._cache_bytes = cache_bytes
        self._lock = threading.Lock()

    def add(self, memory: Memory) -> None:
        refuse_erased(self._erased, memory.run_id)
        values = {
            "id": memory.id,
            "user_id": memory.user_id,
            "run_id": memory.run_id,
            "recipient": memory.recipient,
            "recipient_key": memory.recipient_key,
            "model": memory.model,
            "created_at": memory.created_at,
            "text": check_text(memory.text),
            "embedding": unit_float32(memory.vector),
        }
        with self.db.write() as repos:  # a rewritten note: the old row goes, a new seq comes
            repos.session.execute(sa.delete(MemoryRow).where(_T.id == memory.id))
            repos.session.execute(sa.insert(MemoryRow).values(**values))
        try:
            refuse_erased(self._erased, memory.run_id)  # forget ran meanwhile: it wins
        except BaseException:
            with self.db.write() as repos:
                repos.session.execute(sa.delete(MemoryRow).where(_T.id == memory.id))
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
        import numpy as np

        k = check_k(k)
        query = np.frombuffer(unit_float32(vector), dtype="<f4")
        if k == 0:
            return []
        with self.db.read() as repos:  # one connection for the check, top-up and texts
            cached = self._from_cache(repos.session, user_id, model, query, recipient_key, k)
            if cached is not None:
                return cached
            for _ in range(2):  # a second time when a row went between ranking and reading
                matrix = self._matrix(repos.session, user_id, model, query.size)
                order = _best(matrix, query, recipient_key, k)
                hits = self._read(repos.session, order, matrix, query)
                if len(hits) == len(order):
                    return hits
                self._forget_matrix(user_id, model)
        return hits

    def latest(
        self, user_id: str, *, model: str, recipient_key: str | None = None, k: int = 5
    ) -> list[MemoryHit]:
        k = check_k(k)
        where = (_T.user_id == user_id) & (_T.model == model)
        if recipient_key is not None:
            where &= _T.recipient_key == recipient_key
        columns = (_T.seq, _T.id, _T.run_id, _T.recipient, _T.text, _T.created_at)
        with self.db.read() as repos:  # the (user, model, seq) index, read backwards
            rows = repos.session.execute(
                sa.select(*columns).where(where).order_by(_T.seq.desc()).limit(k)
            ).all()
        return _hits([row[0] for row in rows], rows, [0.0] * len(rows))

    def erase_user(self, user_id: str) -> int:
        with self.db.write() as repos:
            result = repos.session.execute(sa.delete(MemoryRow).where(_T.user_id == user_id))
            deleted = int(getattr(result, "rowcount", 0) or 0)
        with self._lock:
            for key in [key for key in self._cache if key[0] == user_id]:
                del self._cache[key]
        if deleted:  # no dead tuple left to read with page tools (VACUUM reads the table)
            self.db.reclaim(["memories"])
        return deleted

    def prune(self, older_than: dt.datetime) -> int:
        with self.db.write() as repos:
            result = repos.session.execute(sa.delete(MemoryRow).where(_T.created_at < older_than))
            return int(getattr(result, "rowcount", 0) or 0)

    def footprint(self) -> tuple[int, int]:
        with self.db.read() as repos:
            count = int(
                repos.session.execute(
                    sa.select(sa.func.count()).select_from(MemoryRow)
                ).scalar_one()
            )
            if self.db.dialect == "postgresql":
                size = repos.session.execute(
                    sa.text("SELECT pg_total_relation_size('memories')")
                ).scalar_one()
            else:
                size = repos.session.execute(
                    sa.text(
                        "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size"
                    )
                ).scalar_one()
        return count, int(size)

    def close(self) -> None:
        with self._lock:
            self._cache.clear()

    # -- the per-user matrix -----------------------------------------------------------

    def _from_cache(
        self,
        session: Session,
        user_id: str,
        model: str,
        query: np.ndarray,
        recipient_key: str | None,
        k: int,
    ) -> list[MemoryHit] | None:
        """The common case in ONE statement: rank on the cached matrix, then read the best
        rows' text together with the check (count and last seq) that the matrix is still
        the table's. None when there is no matrix, or it was stale (the caller reads it)."""
        with self._lock:
            cached = self._cache.get((user_id, model))
        if cached is None or cached.vectors.shape[1] != query.size:
            return None
        order = _best(cached, query, recipient_key, k)
        seqs = [int(s) for s in cached.seqs[order]]
        mine = (_T.user_id == user_id) & (_T.model == model)
        check = (
            sa.select(
                sa.func.count().label("n"), sa.func.coalesce(sa.func.max(_T.seq), 0).label("last")
            )
            .where(mine)
            .subquery()
        )
        found = MemoryRow.__table__.alias("found")
        rows = session.execute(
            sa.select(
                check.c.n,
                check.c.last,
                found.c.seq,
                found.c.id,
                found.c.run_id,
                found.c.recipient,
                found.c.text,
                found.c.created_at,
            ).select_from(check.outerjoin(found, found.c.seq.in_(seqs or [-1])))
        ).all()
        if not rows or (rows[0].n, rows[0].last) != (cached.count, cached.last):
            return None
        self._keep((user_id, model), cached)
        return _hits(seqs, rows, cached.vectors[order] @ query)

    def _matrix(self, session: Session, user_id: str, model: str, dim: int) -> _Matrix:
        key = (user_id, model)
        mine = (_T.user_id == user_id) & (_T.model == model)
        count, last = session.execute(
            sa.select(sa.func.count(), sa.func.coalesce(sa.func.max(_T.seq), 0)).where(mine)
        ).one()
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None and cached.vectors.shape[1] == dim:
            if (cached.count, cached.last) == (count, last):
                return self._keep(key, cached)
            if cached.count < count and cached.last < last:
                fresh = _rows(session, mine & (_T.seq > cached.last), dim)
                if cached.count + fresh.count == count:
                    return self._keep(key, _stack(cached, fresh))
        return self._keep(key, _rows(session, mine, dim))

    def _keep(self, key: tuple[str, str], matrix: _Matrix) -> _Matrix:
        with self._lock:
            self._cache[key] = matrix
            self._cache.move_to_end(key)
            total = sum(m.nbytes for m in self._cache.values())
            while total > self._cache_bytes and len(self._cache) > 1:
                _, gone = self._cache.popitem(last=False)
                total -= gone.nbytes
        return matrix

    def _forget_matrix(self, user_id: str, model: str) -> None:
        with self._lock:
            self._cache.pop((user_id, model), None)

    def _read(
        self, session: Session, order: np.ndarray, matrix: _Matrix, query: np.ndarray
    ) -> list[MemoryHit]:
        if order.size == 0:
            return []
        seqs = [int(s) for s in matrix.seqs[order]]
        columns = (_T.seq, _T.id, _T.run_id, _T.recipient, _T.text, _T.created_at)
        rows = session.execute(sa.select(*columns).where(_T.seq.in_(seqs))).all()
        return _hits(seqs, rows, matrix.vectors[order] @ query)


def _rows(session: Session, where: Any, dim: int) -> _Matrix:
    """The seq, recipient key and vector of the rows ``where`` selects, as a matrix."""
    import numpy as np

    rows = session.execute(
        sa.select(_T.seq, _T.recipient_key, _T.embedding).where(where).order_by(_T.seq)
    ).all()
    kept = [row for row in rows if len(row[2]) == 4 * dim]
    vectors = np.frombuffer(b"".join(row[2] for row in kept), dtype="<f4").reshape(-1, dim)
    return _Matrix(
        count=len(rows),
        last=max((row[0] for row in rows), default=0),
        seqs=np.fromiter((row[0] for row in kept), dtype=np.int64, count=len(kept)),
        keys=np.array([row[1] for row in kept], dtype=object),
        vectors=vectors,
    )


def _hits(seqs: list[int], rows: Sequence[Any], scores: Sequence[float]) -> list[MemoryHit]:
    """The hits in ``seqs`` order from rows ending in (seq, id, run, recipient, text, when)."""
    found = {row[-6]: row[-6:] for row in rows if row[-6] is not None}
    return [
        MemoryHit(
            id=found[seq][1],
            run_id=found[seq][2],
            recipient=found[seq][3],
            text=found[seq][4],
            created_at=_utc(found[seq][5]),
            score=float(score),
        )
        for seq, score in zip(seqs, scores, strict=True)
        if seq in found
    ]


def _best(matrix: _Matrix, query: np.ndarray, recipient_key: str | None, k: int) -> np.ndarray:
    """Row positions of the k best scores, best first; ties to the newer (greater seq)."""
    import numpy as np

    if matrix.vectors.shape[0] == 0:
        return np.empty(0, dtype=np.int64)
    # einsum, not BLAS: a BLAS thread pool waits for its second thread on a busy machine
    # (p99 ×10 on 2 loaded cores), and one thread does 10,000 × 256 in well under 1 ms.
    scores = np.einsum("ij,j->i", matrix.vectors, query)
    candidates = np.arange(scores.size)
    if recipient_key is not None:
        candidates = np.flatnonzero(matrix.keys == recipient_key)
        scores = scores[candidates]
    if candidates.size > k:
        # Exact: keep every row scoring at least the k-th best, so ties are broken below.
        kth = np.partition(scores, scores.size - k)[scores.size - k]
        keep = scores >= kth
        candidates, scores = candidates[keep], scores[keep]
    order = np.lexsort((-matrix.seqs[candidates], -scores))
    return np.asarray(candidates[order][:k], dtype=np.int64)


def _stack(old: _Matrix, new: _Matrix) -> _Matrix:
    import numpy as np

    return _Matrix(
        count=old.count + new.count,
        last=max(old.last, new.last),
        seqs=np.concatenate([old.seqs, new.seqs]),
        keys=np.concatenate([old.keys, new.keys]),
        vectors=np.concatenate([old.vectors, new.vectors]),
    )


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)
