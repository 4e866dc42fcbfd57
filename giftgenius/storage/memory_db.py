"""The memory store in the database: table ``memories`` (0007_memories), ranked with numpy.

pgvector cannot be assumed on the Postgres a deployment has, and the ranking must be exact
anyway, so the database filters (one user, one embedding space) and this process scores,
on its copy of the user's vectors (``memory_matrix.py``), checked before each search
against the user's row of ``memory_tallies`` (0009_memory_tallies), which every write
here updates in the same transaction. The common case is ONE statement: the tally by
primary key, joined to the text of the k best rows (read by seq, so a note deleted
meanwhile is never returned; the copy holds no text at all).
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Sequence
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
from giftgenius.storage.memory_matrix import CACHE_BYTES, Matrix, MatrixCache, Tally, refreshed
from giftgenius.storage.tables import MemoryRow, MemoryTallyRow
from giftgenius.storage.upsert import insert_for

if TYPE_CHECKING:
    from giftgenius.storage.db import Database

_T = MemoryRow.__table__.c
_TALLY = MemoryTallyRow.__table__
_TEXT = (_T.seq, _T.id, _T.run_id, _T.recipient, _T.text, _T.created_at)


class DbMemoryStore:
    """``MemoryStore`` on the app's database."""

    def __init__(self, db: Database, *, erased: ErasedCheck, cache_bytes: int = CACHE_BYTES):
        self.db = db
        self._erased = erased
        self._cache = MatrixCache(cache_bytes)

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
            session = repos.session
            gone = session.execute(
                sa.delete(MemoryRow).where(_T.id == memory.id).returning(_T.user_id, _T.model)
            ).all()
            _tally_removed(session, Counter((row[0], row[1]) for row in gone))
            seq = session.execute(sa.insert(MemoryRow).values(**values).returning(_T.seq))
            _tally_added(session, memory.user_id, memory.model, int(seq.scalar_one()))
        try:
            refuse_erased(self._erased, memory.run_id)  # forget ran meanwhile: it wins
        except BaseException:
            with self.db.write() as repos:
                gone = repos.session.execute(
                    sa.delete(MemoryRow).where(_T.id == memory.id).returning(_T.user_id, _T.model)
                ).all()
                _tally_removed(repos.session, Counter((row[0], row[1]) for row in gone))
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
            session = repos.session
            cached = self._cache.get(user_id, model, query.size)
            if cached is not None:
                seqs, scores = cached.ranked(query, recipient_key, k)
                now, rows = _tally_and_texts(session, user_id, model, seqs)
                if now == cached.tally:
                    return _hits(seqs, rows, scores)
            else:
                now = _tally(session, user_id, model)
            hits: list[MemoryHit] = []
            for _ in range(2):  # a second time when a row went between ranking and reading
                matrix = self._matrix(session, user_id, model, query.size, cached, now)
                seqs, scores = matrix.ranked(query, recipient_key, k)
                rows = session.execute(sa.select(*_TEXT).where(_T.seq.in_(seqs))).all()
                hits = _hits(seqs, rows, scores)
                if len(hits) == len(seqs):
                    return hits
                cached, now = None, _tally(session, user_id, model)
        return hits

    def latest(
        self, user_id: str, *, model: str, recipient_key: str | None = None, k: int = 5
    ) -> list[MemoryHit]:
        k = check_k(k)
        where = (_T.user_id == user_id) & (_T.model == model)
        if recipient_key is not None:
            where &= _T.recipient_key == recipient_key
        with self.db.read() as repos:  # the (user, model, seq) index, read backwards
            rows = repos.session.execute(
                sa.select(*_TEXT).where(where).order_by(_T.seq.desc()).limit(k)
            ).all()
        return _hits([row[0] for row in rows], rows, [0.0] * len(rows))

    def erase_user(self, user_id: str) -> int:
        with self.db.write() as repos:
            result = repos.session.execute(sa.delete(MemoryRow).where(_T.user_id == user_id))
            deleted = int(getattr(result, "rowcount", 0) or 0)
            tallies = repos.session.execute(
                sa.delete(MemoryTallyRow).where(_TALLY.c.user_id == user_id)
            )
            deleted_tallies = int(getattr(tallies, "rowcount", 0) or 0)
        self._cache.drop(user_id)
        if deleted or deleted_tallies:  # no dead tuple left to read with page tools
            self.db.reclaim(["memories", "memory_tallies"])
        return deleted

    def prune(self, older_than: dt.datetime) -> int:
        with self.db.write() as repos:
            gone = repos.session.execute(
                sa.delete(MemoryRow)
                .where(_T.created_at < older_than)
                .returning(_T.user_id, _T.model)
            ).all()
            _tally_removed(repos.session, Counter((row[0], row[1]) for row in gone))
        return len(gone)

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
        self._cache.clear()

    def _matrix(
        self,
        session: Session,
        user_id: str,
        model: str,
        dim: int,
        cached: Matrix | None,
        now: Tally,
    ) -> Matrix:
        mine = (_T.user_id == user_id) & (_T.model == model)

        def read(after: int | None, upto: int | None) -> Sequence[Any]:
            where = mine if after is None else mine & (_T.seq > after) & (_T.seq <= upto)
            return session.execute(
                sa.select(_T.seq, _T.recipient_key, _T.embedding).where(where).order_by(_T.seq)
            ).all()

        return self._cache.keep(user_id, model, refreshed(cached, now, dim, read))


def _tally(session: Session, user_id: str, model: str) -> Tally:
    row = session.execute(
        sa.select(_TALLY.c.notes, _TALLY.c.last_seq, _TALLY.c.removed).where(
            (_TALLY.c.user_id == user_id) & (_TALLY.c.model == model)
        )
    ).first()
    return Tally() if row is None else Tally(int(row[0]), int(row[1]), int(row[2]))


def _tally_and_texts_statement() -> Any:
    """SELECT the tally of (:user_id, :model) and, beside it, the rows whose seq is in
    :seqs: one row with None texts when none is found, and no tally when there is none."""
    one = sa.select(sa.literal(1).label("one")).subquery()
    found = MemoryRow.__table__.alias("found")
    mine = (_TALLY.c.user_id == sa.bindparam("user_id")) & (_TALLY.c.model == sa.bindparam("model"))
    return sa.select(
        _TALLY.c.notes,
        _TALLY.c.last_seq,
        _TALLY.c.removed,
        *(found.c[column.name] for column in _TEXT),
    ).select_from(
        one.outerjoin(_TALLY, mine).outerjoin(
            found, found.c.seq.in_(sa.bindparam("seqs", expanding=True))
        )
    )


_TALLY_AND_TEXTS = _tally_and_texts_statement()  # built once: a search is a few ms


def _tally_and_texts(
    session: Session, user_id: str, model: str, seqs: list[int]
) -> tuple[Tally, Sequence[Any]]:
    """The user's tally and the text of rows ``seqs``, in one statement (one round trip)."""
    rows = session.execute(
        _TALLY_AND_TEXTS, {"user_id": user_id, "model": model, "seqs": seqs or [-1]}
    ).all()
    first = rows[0]
    now = Tally() if first.notes is None else Tally(first.notes, first.last_seq, first.removed)
    return now, rows


def _tally_added(session: Session, user_id: str, model: str, seq: int) -> None:
    """One note more for (user, model), written under ``seq``."""
    insert = insert_for(session, _TALLY).values(
        user_id=user_id, model=model, notes=1, last_seq=seq, removed=0
    )
    session.execute(
        insert.on_conflict_do_update(
            index_elements=[_TALLY.c.user_id, _TALLY.c.model],
            set_={
                "notes": _TALLY.c.notes + 1,
                "last_seq": sa.case(
                    (insert.excluded.last_seq > _TALLY.c.last_seq, insert.excluded.last_seq),
                    else_=_TALLY.c.last_seq,
                ),
            },
        )
    )


def _tally_removed(session: Session, gone: Counter[tuple[str, str]]) -> None:
    """Notes deleted, per (user, model): fewer kept, more ever removed."""
    for (user_id, model), n in gone.items():
        session.execute(
            sa.update(MemoryTallyRow)
            .where((_TALLY.c.user_id == user_id) & (_TALLY.c.model == model))
            .values(notes=_TALLY.c.notes - n, removed=_TALLY.c.removed + n)
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


def _utc(value: dt.datetime) -> dt.datetime:
    return value.replace(tzinfo=dt.UTC) if value.tzinfo is None else value.astimezone(dt.UTC)
