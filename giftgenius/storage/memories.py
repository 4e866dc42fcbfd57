"""The memory store contract: long-term notes of what a user's searches taught, as vectors.

Level 3 of memory (README, "The three memory layers"): short notes written when a search
ends (built from the run's structured facts, PII scrubbed), each with the embedding of its
text, the user, the recipient, the run and the time. A search ranks one user's notes —
optionally one recipient's — by cosine similarity to a query vector, EXACTLY (every note
of the user is scored; no approximate index), among the notes of the same embedding space
(``model``, and so the same dimension): vectors of two models are never compared.

Two backends pass the same contract suite (``tests/storage/test_memory_contract.py``):

- embedded (``memory_sqlite.py``): ``memories.db`` beside the database in
  ``GIFTGENIUS_HOME``, ranked by sqlite-vec (a ``vec0`` table partitioned by user);
- the database (``memory_db.py``): table ``memories`` (migration 0007_memories) on Postgres
  (or any database the app runs on), ranked with numpy (pgvector is not assumed).

Both keep a per-process copy of a user's vectors, checked at each search against a tally
row the writes keep (``memory_matrix.py``): a search's cost does not grow with the store.

``make_memory_store`` picks the embedded file when the database is SQLite, the table
otherwise. Erasure is the session store's: a note for a run that has a tombstone is
refused (``RunErased``), so a turn in flight when ``forget`` ran cannot write one back.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from giftgenius.domain import new_id
from giftgenius.errors import RunErased
from giftgenius.messages import speak

if TYPE_CHECKING:
    from giftgenius.settings import Settings
    from giftgenius.storage.db import Database

MAX_TEXT_CHARS = 1000  # a note is a few sentences; a longer text is refused
MAX_RESULTS = 50  # the most notes one search returns
MEMORY_FILE = "memories.db"


@dataclass(frozen=True)
class Memory:
    """One note to keep. ``vector`` is stored as float32, scaled to length 1."""

    user_id: str
    run_id: str
    text: str
    vector: Sequence[float]
    model: str  # the embedding space (the model that embedded ``text``)
    created_at: dt.datetime
    recipient: str | None = None  # the recipient as the run named them, for reading
    recipient_key: str | None = None  # what ``search(recipient=…)`` matches exactly
    id: str = field(default_factory=new_id)


@dataclass(frozen=True)
class MemoryHit:
    """A note found, with its cosine similarity to the query (1 is the same direction)."""

    id: str
    run_id: str
    recipient: str | None
    text: str
    created_at: dt.datetime
    score: float


ErasedCheck = Callable[[str], bool]
"""Whether a run has a tombstone: the session store's ``is_erased``."""


class MemoryStore(Protocol):
    def add(self, memory: Memory) -> None:
        """Keep a note, in place of the note with the same ``id`` if there is one (a run
        keeps one note, rewritten as it learns more). Raises ``RunErased`` (and keeps
        nothing) for a run with a tombstone, looked for before the write and again after it,
        so a ``forget`` that ran in between (tombstones first, then rows) leaves nothing.
        ``ValueError`` for a vector with no
        direction (all zeros) or a text over ``MAX_TEXT_CHARS``."""

    def search(
        self,
        user_id: str,
        vector: Sequence[float],
        *,
        model: str,
        recipient_key: str | None = None,
        k: int = 5,
    ) -> list[MemoryHit]:
        """The user's ``k`` notes (at most ``MAX_RESULTS``) of embedding space ``model``
        closest to ``vector`` by cosine, best first (ties: the newer first); only the
        recipient's with ``recipient_key``. Exact: every candidate note is scored."""

    def latest(
        self, user_id: str, *, model: str, recipient_key: str | None = None, k: int = 5
    ) -> list[MemoryHit]:
        """The user's ``k`` newest notes (at most ``MAX_RESULTS``) of embedding space
        ``model``, newest first (as written); only the recipient's with ``recipient_key``.
        ``score`` is 0: no query was compared. For "like last time", where recency is the
        question, not likeness."""

    def erase_user(self, user_id: str) -> int:
        """Delete every note of the user, leaving no readable copy in the store's files;
        how many went."""

    def prune(self, older_than: dt.datetime) -> int:
        """Delete the notes written before ``older_than`` (retention); how many went."""

    def footprint(self) -> tuple[int, int]:
        """(notes, bytes on disk) of the whole store, for the benchmark."""

    def close(self) -> None: ...


def make_memory_store(
    settings: Settings, *, erased: ErasedCheck, db: Database | None = None
) -> MemoryStore:
    """The embedded file when the database is SQLite (the default), else the database's
    ``memories`` table (``db``: the app's ``Database`` for that URL)."""
    url = settings.effective_database_url
    if url.startswith("sqlite"):
        from giftgenius.storage.memory_sqlite import SqliteVecMemoryStore

        return SqliteVecMemoryStore(settings.home / MEMORY_FILE, erased=erased)
    from giftgenius.storage.db import Database
    from giftgenius.storage.memory_db import DbMemoryStore

    return DbMemoryStore(db or Database(url), erased=erased)


def refuse_erased(erased: ErasedCheck, run_id: str) -> None:
    if erased(run_id):
        raise RunErased(speak("storage", "run.erased", run=run_id))


def unit_float32(vector: Sequence[float]) -> bytes:
    """``vector`` scaled to length 1, as little-endian float32 bytes (what is stored)."""
    import numpy as np

    array = np.asarray(vector, dtype=np.float64)
    if array.ndim != 1 or array.size == 0 or not np.all(np.isfinite(array)):
        raise ValueError("a memory's vector must be a non-empty list of finite numbers")
    norm = float(np.linalg.norm(array))
    if norm == 0.0:
        raise ValueError("a memory's vector has no direction (all zeros)")
    return (array / norm).astype("<f4").tobytes()


def check_text(text: str) -> str:
    if not text.strip() or len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"a memory's text must hold 1 to {MAX_TEXT_CHARS} characters")
    return text


def check_k(k: int) -> int:
    return max(0, min(int(k), MAX_RESULTS))
