"""``giftgenius bench memory``: how long one long-term memory search takes, and its bytes.

Builds a memory store of its own — a scratch database on the configured Postgres server
(``--backend postgres``, dropped at the end) or a ``memories.db`` in a temporary folder
(``--backend embedded``) — holding ``--others`` notes spread over other users (random unit
vectors, written with COPY on Postgres, in one transaction embedded), then gives one user
100 and then 10,000 notes (``--sizes``), written as the agent writes them (``note_text`` of
synthetic runs, embedded lexically), brings the store to its steady state (on Postgres the
VACUUM ANALYZE autovacuum would run in time), and times ``search`` (k=5) for that user with
queries embedded the same way, on a new handle (as a new process): the first search
(sqlite-vec's KNN embedded, reading the user's matrix on Postgres), then the p50 and p99
of ``--repeat`` more (the kept matrix, checked against the user's tally); and the
memory block a run for a known recipient is given (its tokens, and the p50 of building it:
the newest notes of one recipient, cut to whole notes). Bytes per note are the store's
size on disk (table, indexes and TOAST on Postgres; the file embedded) over its notes. A
command that prints figures, not a timed test; the vectors are the offline model's
(``make_embedder``: lexical, 256 dimensions), whatever model is configured.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from giftgenius.agent.memory import MemoryBook, note_text, recipient_key, recipient_label
from giftgenius.arguments import command_parser, whole
from giftgenius.bench.scratch import SCRATCH_PREFIX, _create_database, _drop_database
from giftgenius.bench.stats import percentile
from giftgenius.bench.turn import _counts
from giftgenius.domain import Budget, ProfileDraft, SessionState
from giftgenius.formats import number
from giftgenius.llm.base import Embedder
from giftgenius.llm.factory import make_embedder
from giftgenius.messages import environment_language, speak
from giftgenius.protocol import CandidateView
from giftgenius.settings import Settings
from giftgenius.storage.memories import Memory, MemoryStore
from giftgenius.storage.memory_db import DbMemoryStore
from giftgenius.tokens import TokenCounter

USER = "bench-user"
OTHERS_PER_USER = 100
# Words of synthetic runs (data, not sentences): the notes and queries are built from them.
RECIPIENTS = ["sister", "mum", "dad", "uncle", "friend", "colleague", "grandmother", "son"]
NAMES = ["Clara", "Tom", "Ana", "Léo", "Maya", "Sam", None, None]
TASTES = [
    "tea", "chess", "knitting", "hiking", "jazz", "coffee", "gardening", "photography",
    "cooking", "yoga", "board games", "whisky", "cycling", "poetry", "lego", "dinosaurs",
]  # fmt: skip
GIFTS = ["Moka Pot", "Chess Set", "Yarn Kit", "Trail Map", "Vinyl Record", "Seed Box"]
BLOCKS_TIMED = 50  # memory blocks built at each size (a tokenizer's work each: fewer)


def main(argv: Sequence[str] | None, settings: Settings) -> int:
    parser = command_parser("giftgenius bench memory", speak("memory", "bench.description"))
    parser.add_argument(
        "--backend",
        choices=["embedded", "postgres"],
        default=None,
        help=speak("memory", "bench.backend"),
    )
    parser.add_argument(
        "--others",
        type=whole(0, 10_000_000),
        default=None,
        help=speak("memory", "bench.others"),
    )
    parser.add_argument(
        "--sizes",
        type=_counts("--sizes", 1, 1_000_000),
        default=[100, 10_000],
        help=speak("memory", "bench.sizes"),
    )
    parser.add_argument(
        "--repeat",
        type=whole(1, 100_000, what="rounds"),
        default=200,
        help=speak("memory", "bench.repeat"),
    )
    parser.add_argument("--json", action="store_true", help=speak("help", "bench.json"))
    args = parser.parse_args(argv)
    postgres = not settings.effective_database_url.startswith("sqlite")
    backend = args.backend or ("postgres" if postgres else "embedded")
    if backend == "postgres" and not postgres:
        parser.error(speak("memory", "bench.needs_postgres"))
    others = args.others if args.others is not None else _default_others(backend)
    embedder = make_embedder(settings.model_copy(update={"model": "offline"}))
    dim = len(embedder.embed(["tea"])[0])
    with _store(backend, settings, embedder.name, dim) as (handle, bulk, settle):
        store = handle()
        started = time.perf_counter()
        bulk(store, others)
        build_s = time.perf_counter() - started
        rows, have = [], 0
        for size in args.sizes:
            have = _grow(store, embedder, have, size)
            settle()
            store = handle()  # each size's first search is a new process's: nothing kept
            rows.append(_time(store, embedder, size, args.repeat))
        count, size = store.footprint()
    per_note = round(size / max(count, 1))
    figures = {
        "backend": backend,
        "dimensions": dim,
        "other_users_notes": others,
        "build_seconds": round(build_s, 1),
        "notes": count,
        "bytes_per_note": per_note,
        "results": rows,
    }
    if args.json:
        print(json.dumps(figures))
        return 0
    lang = environment_language()
    print(
        speak(
            "memory",
            "bench.report",
            backend=backend,
            notes=number(count, lang),
            others=number(others, lang),
            seconds=number(build_s, lang, 1),
            size=number(per_note, lang),
            dimensions=dim,
        )
    )
    for row in rows:
        print(
            speak(
                "memory",
                "bench.row",
                size=number(row["user_notes"], lang),
                first=number(row["first_ms"], lang, 2),
                p50=number(row["p50_ms"], lang, 2),
                p99=number(row["p99_ms"], lang, 2),
                searches=row["searches"],
                tokens=number(row["block_tokens"], lang),
                block=number(row["block_p50_ms"], lang, 2),
            )
        )
    return 0


def _default_others(backend: str) -> int:
    return 1_000_000 if backend == "postgres" else 100_000


def _grow(store: MemoryStore, embedder: Embedder, have: int, size: int) -> int:
    """Give the user ``size`` notes in all, written one at a time as the agent writes them
    (embedded a batch at a time: the embedding is not what is measured)."""
    rng = random.Random(size)
    notes = [_note(rng, i) for i in range(have, size)]
    for start in range(0, len(notes), 256):
        batch = notes[start : start + 256]
        vectors = embedder.embed([text for text, _ in batch])
        for offset, ((text, profile), vector) in enumerate(zip(batch, vectors, strict=True)):
            store.add(
                Memory(
                    user_id=USER,
                    run_id=f"bench-run-{have + start + offset}",
                    text=text,
                    vector=vector,
                    model=embedder.name,
                    created_at=dt.datetime.now(dt.UTC),
                    recipient=recipient_label(profile),
                    recipient_key=recipient_key(profile.recipient, profile.recipient_name),
                )
            )
    return max(have, size)


def _time(store: MemoryStore, embedder: Embedder, size: int, repeat: int) -> dict[str, Any]:
    """The first search of a new handle, then ``repeat`` more, k=5."""
    rng = random.Random(-size)
    queries = embedder.embed([" ".join(rng.sample(TASTES, 2)) for _ in range(repeat + 1)])
    timings: list[float] = []
    for query in queries:
        start = time.perf_counter()
        hits = store.search(USER, query, model=embedder.name, k=5)
        timings.append((time.perf_counter() - start) * 1000)
        if len(hits) != min(5, size):
            raise RuntimeError(f"a search found {len(hits)} notes of {size}")
    first, rest = timings[0], timings[1:]
    book = MemoryBook(store, embedder, lambda: dt.datetime.now(dt.UTC))
    count = TokenCounter.for_model("gpt-4o-mini").count_text
    blocks: list[tuple[float, int]] = []
    for i in range(min(repeat, BLOCKS_TIMED)):
        profile = ProfileDraft(recipient=RECIPIENTS[i % len(RECIPIENTS)])
        start = time.perf_counter()
        block = book.block(USER, profile, run_id="bench-new-run", count=count)
        blocks.append(((time.perf_counter() - start) * 1000, count(block)))
    return {
        "user_notes": size,
        "first_ms": round(first, 2),
        "p50_ms": round(statistics.median(rest), 2),
        "p99_ms": round(percentile(rest, 99), 2),
        "searches": len(rest),
        "block_tokens": max(tokens for _, tokens in blocks),
        "block_p50_ms": round(statistics.median(ms for ms, _ in blocks), 2),
    }


def _note(rng: random.Random, i: int) -> tuple[str, ProfileDraft]:
    """A note as the agent writes one, for a synthetic run, and the run's profile."""
    tastes = rng.sample(TASTES, 3)
    state = SessionState(
        step="done",
        profile=ProfileDraft(
            recipient=rng.choice(RECIPIENTS),
            recipient_name=rng.choice(NAMES),
            interests=tastes[:2],
            dislikes=tastes[2:],
            budget=Budget(amount=rng.choice([20, 30, 50, 80]), currency="USD"),
        ),
    )
    chosen = CandidateView(
        id=f"g-{i}",
        title=rng.choice(GIFTS),
        price=rng.choice([12.5, 24.0, 39.9]),
        currency="USD",
        delivery_days=3,
        answers=tastes[:1],
    )
    day = dt.date(2026, 1, 1) + dt.timedelta(days=i % 365)
    return note_text(state, chosen, day), state.profile


Handle = Callable[[], MemoryStore]
Filler = Callable[[Any, int], None]
Settler = Callable[[], None]


@contextmanager
def _store(
    backend: str, settings: Settings, space: str, dim: int
) -> Iterator[tuple[Handle, Filler, Settler]]:
    """A scratch memory store: how to open a new handle on it (as a new process would, the
    previous one closed), how to fill it with ``n`` notes of other users, and how to bring
    it to its steady state before timing (on Postgres, what autovacuum does in time:
    VACUUM ANALYZE)."""
    erased: Callable[[str], bool] = lambda _run: False  # noqa: E731 - no session store here
    opened: list[MemoryStore] = []

    def handle(make: Handle) -> Handle:
        def fresh() -> MemoryStore:
            for store in opened:
                store.close()
            opened[:] = [make()]
            return opened[0]

        return fresh

    if backend == "embedded":
        from giftgenius.storage.memory_sqlite import SqliteVecMemoryStore

        with tempfile.TemporaryDirectory(prefix="giftgenius-bench-") as folder:
            path = Path(folder) / "memories.db"
            try:
                yield (
                    handle(lambda: SqliteVecMemoryStore(path, erased=erased)),
                    lambda store, n: _fill_sqlite(store, n, space, dim),
                    lambda: None,
                )
            finally:
                for store in opened:
                    store.close()
        return
    from giftgenius.storage.db import Database

    url = settings.effective_database_url
    name = f"{SCRATCH_PREFIX}{uuid.uuid4().hex[:12]}"
    scratch_url = _create_database(url, name)
    db = Database(scratch_url)
    try:
        yield (
            handle(lambda: DbMemoryStore(db, erased=erased)),
            lambda _store, n: _fill_postgres(db, n, space, dim),
            lambda: _vacuum(db),
        )
    finally:
        db.dispose()
        _drop_database(url, name)


def _others(n: int, space: str, dim: int) -> Iterator[tuple[Any, ...]]:
    """``n`` notes of other users (``OTHERS_PER_USER`` each): random unit float32 vectors."""
    import numpy as np

    rng = np.random.default_rng(0)
    now = dt.datetime.now(dt.UTC)
    batch = 10_000
    for start in range(0, n, batch):
        size = min(batch, n - start)
        vectors = rng.standard_normal((size, dim), dtype=np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        blobs = vectors.astype("<f4")
        for j in range(size):
            i = start + j
            user = f"other-{i // OTHERS_PER_USER}"
            yield (
                uuid.uuid4().hex,
                user,
                f"run-{i // 5}",
                "friend",
                "friend",
                space,
                now,
                f"synthetic note {i}",
                blobs[j].tobytes(),
            )


_TALLIES = (  # as the store keeps them: one row per user (and space)
    "INSERT INTO memory_tallies (user_id, model, notes, last_seq, removed)"
    " SELECT user_id, model, count(*), max(seq), 0 FROM memories GROUP BY user_id, model"
)
_NAMES = ("id", "user_id", "run_id", "recipient", "recipient_key", "model", "created_at")
_COLUMNS = ", ".join((*_NAMES, "text", "embedding"))


def _fill_postgres(db: Any, n: int, space: str, dim: int) -> None:
    raw = db.engine.raw_connection()
    try:
        conn = raw.driver_connection
        with conn.cursor() as cur:
            with cur.copy(f"COPY memories ({_COLUMNS}) FROM STDIN (FORMAT BINARY)") as copy:
                types = ["text"] * 6 + ["timestamptz", "text", "bytea"]
                copy.set_types(types)
                for row in _others(n, space, dim):
                    copy.write_row(row)
            cur.execute(_TALLIES)
            cur.execute("ANALYZE memories")
        conn.commit()
    finally:
        raw.close()


def _vacuum(db: Any) -> None:
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.exec_driver_sql("VACUUM ANALYZE memories")


def _fill_sqlite(store: Any, n: int, space: str, dim: int) -> None:
    conn = store._connection()
    with store._lock:
        conn.execute("BEGIN IMMEDIATE")
        rows = ((*row[:6], row[6].timestamp(), *row[7:]) for row in _others(n, space, dim))
        conn.executemany(
            f"INSERT INTO memories ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows
        )
        store._index_for(conn, dim, create=True)  # the vectors' table, filled
        conn.execute(_TALLIES)
        conn.execute("COMMIT")
