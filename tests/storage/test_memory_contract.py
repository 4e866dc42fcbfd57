"""The memory store contract: every backend — the embedded sqlite-vec file, the database
table on SQLite and on a real Postgres — passes the same tests: exact cosine ranking within
one user (and recipient, and embedding space), erasure that wins over a write in flight
(the session store's tombstones), retention, and the per-process matrix that the database
backend keeps in step with writes from other processes."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from giftgenius.errors import RunErased
from giftgenius.storage.db import Database
from giftgenius.storage.memories import MAX_RESULTS, Memory, MemoryStore
from giftgenius.storage.memory_db import DbMemoryStore
from giftgenius.storage.memory_sqlite import SqliteVecMemoryStore

T0 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)
DIM = 16
MODEL = "test-embedding"


@dataclass
class Backend:
    name: str
    make: Callable[[], MemoryStore]  # another handle on the same data: another process
    tombstones: set[str]


@pytest.fixture(
    params=["embedded", "database-sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    tombstones: set[str] = set()
    made: list[MemoryStore] = []
    dbs: list[Database] = []

    def erased(run_id: str) -> bool:
        return run_id in tombstones

    if request.param == "embedded":

        def make() -> MemoryStore:
            store = SqliteVecMemoryStore(tmp_path / "memories.db", erased=erased)
            made.append(store)
            return store
    else:
        if request.param == "postgres":
            url = request.getfixturevalue("migrated_postgres_url")
        else:
            url = f"sqlite:///{tmp_path / 'gg.db'}"

        def make() -> MemoryStore:
            db = Database(url)
            dbs.append(db)
            store = DbMemoryStore(db, erased=erased)
            made.append(store)
            return store

    yield Backend(request.param, make, tombstones)
    for store in made:
        store.close()
    for db in dbs:
        db.dispose()


@pytest.fixture
def store(backend: Backend) -> MemoryStore:
    return backend.make()


def unit(seed: int, dim: int = DIM) -> list[float]:
    vector = np.random.default_rng(seed).standard_normal(dim)
    return list(vector / np.linalg.norm(vector))


def note(user: str, vector: list[float], **fields: object) -> Memory:
    values: dict[str, object] = {
        "user_id": user,
        "run_id": f"run-{user}",
        "text": f"a note of {user}",
        "vector": vector,
        "model": MODEL,
        "created_at": T0,
    }
    values.update(fields)
    return Memory(**values)  # type: ignore[arg-type]


def exact_order(query: list[float], vectors: dict[str, list[float]]) -> list[str]:
    q = np.asarray(query)
    scored = {key: float(np.dot(q, v) / np.linalg.norm(v)) for key, v in vectors.items()}
    return sorted(scored, key=lambda key: -scored[key])


@pytest.mark.slow
def test_search_ranks_one_users_notes_exactly_by_cosine(store: MemoryStore) -> None:
    vectors = {f"n{i}": unit(i) for i in range(40)}
    for key, vector in vectors.items():
        store.add(note("alice", [3.0 * x for x in vector], text=key))  # any length: scaled
    for i in range(40, 60):
        store.add(note("bob", unit(i), text=f"bob{i}"))
    query = unit(1000)
    hits = store.search("alice", query, model=MODEL, k=7)
    assert [h.text for h in hits] == exact_order(query, vectors)[:7]
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    best = vectors[hits[0].text]
    assert hits[0].score == pytest.approx(float(np.dot(query, best)), abs=1e-5)
    assert all(
        not h.text.startswith("bob") for h in store.search("alice", query, model=MODEL, k=50)
    )


@pytest.mark.slow
def test_a_hit_says_what_the_recall_tool_needs(store: MemoryStore) -> None:
    store.add(
        note(
            "alice",
            unit(1),
            run_id="run-7",
            text="Clara loves tea",
            recipient="sister Clara",
            recipient_key="clara",
            created_at=T0 - dt.timedelta(days=3),
        )
    )
    (hit,) = store.search("alice", unit(1), model=MODEL)
    assert (hit.run_id, hit.recipient, hit.text) == ("run-7", "sister Clara", "Clara loves tea")
    assert hit.created_at == T0 - dt.timedelta(days=3)
    assert hit.score == pytest.approx(1.0, abs=1e-5)


@pytest.mark.slow
def test_recipient_filters_and_other_spaces_never_mix(store: MemoryStore) -> None:
    store.add(note("alice", unit(1), text="mum", recipient_key="mother"))
    store.add(note("alice", unit(2), text="clara", recipient_key="clara"))
    store.add(note("alice", unit(3), text="nobody"))
    store.add(note("alice", unit(1), text="other model", model="another"))
    store.add(note("alice", unit(1, dim=8), text="other dim"))
    query = unit(1)
    assert [h.text for h in store.search("alice", query, model=MODEL, recipient_key="mother")] == [
        "mum"
    ]
    assert {h.text for h in store.search("alice", query, model=MODEL, k=10)} == {
        "mum",
        "clara",
        "nobody",
    }
    assert [h.text for h in store.search("alice", query, model="another")] == ["other model"]
    assert store.search("alice", query, model=MODEL, recipient_key="dad") == []
    assert store.search("nobody", query, model=MODEL) == []


@pytest.mark.slow
def test_k_is_bounded_and_ties_go_to_the_newer(store: MemoryStore) -> None:
    for i in range(3):
        store.add(note("alice", unit(5), text=f"same{i}"))
    assert [h.text for h in store.search("alice", unit(5), model=MODEL, k=2)] == ["same2", "same1"]
    assert store.search("alice", unit(5), model=MODEL, k=0) == []
    for i in range(MAX_RESULTS + 5):
        store.add(note("alice", unit(100 + i), text=f"x{i}"))
    assert len(store.search("alice", unit(5), model=MODEL, k=10_000)) == MAX_RESULTS


@pytest.mark.slow
def test_latest_gives_the_newest_notes_whatever_the_query(store: MemoryStore) -> None:
    for i in range(6):
        store.add(note("alice", unit(i), text=f"n{i}", recipient_key="mother" if i % 2 else None))
    store.add(note("alice", unit(9), text="other space", model="another"))
    store.add(note("bob", unit(10), text="bob's"))
    assert [h.text for h in store.latest("alice", model=MODEL, k=3)] == ["n5", "n4", "n3"]
    mum = store.latest("alice", model=MODEL, recipient_key="mother")
    assert [h.text for h in mum] == ["n5", "n3", "n1"]
    assert {h.score for h in mum} == {0.0} and mum[0].run_id == "run-alice"
    assert store.latest("alice", model=MODEL, k=0) == []
    assert store.latest("nobody", model=MODEL) == []
    assert [h.text for h in store.latest("alice", model="another")] == ["other space"]


@pytest.mark.slow
def test_a_note_written_again_under_its_id_replaces_it(backend: Backend) -> None:
    """A run keeps one note, rewritten as it learns more: the old text is never found again,
    by this handle or another process's (whose cache must not keep the old row)."""
    first, other = backend.make(), backend.make()
    first.add(note("alice", unit(1), id="run-1-note", text="tea"))
    first.add(note("alice", unit(2), id="other-note", text="other"))
    assert {h.text for h in other.search("alice", unit(1), model=MODEL)} == {"tea", "other"}
    first.add(note("alice", unit(3), id="run-1-note", text="tea and hiking"))
    for store in (first, other, backend.make()):
        found = store.search("alice", unit(3), model=MODEL, k=10)
        assert [h.text for h in found] == ["tea and hiking", "other"]
        assert [h.text for h in store.latest("alice", model=MODEL)] == ["tea and hiking", "other"]


@pytest.mark.slow
def test_a_vector_with_no_direction_or_an_empty_text_is_refused(store: MemoryStore) -> None:
    with pytest.raises(ValueError, match="no direction"):
        store.add(note("alice", [0.0] * DIM))
    with pytest.raises(ValueError, match="text"):
        store.add(note("alice", unit(1), text="  "))
    with pytest.raises(ValueError):
        store.search("alice", [0.0] * DIM, model=MODEL)


@pytest.mark.slow
def test_a_note_for_an_erased_run_is_refused(backend: Backend, store: MemoryStore) -> None:
    backend.tombstones.add("run-gone")
    with pytest.raises(RunErased):
        store.add(note("alice", unit(1), run_id="run-gone"))
    assert store.search("alice", unit(1), model=MODEL) == []


@pytest.mark.slow
def test_an_erasure_during_the_write_wins(backend: Backend) -> None:
    """forget writes the tombstone, then deletes: a write that slipped in between its look
    for the tombstone and its insert takes the note back out."""
    looks: list[str] = []

    def erased_on_second_look(run_id: str) -> bool:
        looks.append(run_id)
        return len(looks) > 1

    store = backend.make()
    store._erased = erased_on_second_look  # type: ignore[attr-defined]
    with pytest.raises(RunErased):
        store.add(note("alice", unit(1)))
    assert looks == ["run-alice", "run-alice"]
    assert backend.make().search("alice", unit(1), model=MODEL) == []


@pytest.mark.slow
def test_erase_user_removes_every_note_of_theirs_only(store: MemoryStore) -> None:
    for i in range(5):
        store.add(note("alice", unit(i)))
        store.add(note("bob", unit(i)))
    assert store.search("alice", unit(1), model=MODEL)  # cached, for the database backend
    assert store.erase_user("alice") == 5
    assert store.search("alice", unit(1), model=MODEL) == []
    assert len(store.search("bob", unit(1), model=MODEL, k=10)) == 5
    assert store.erase_user("alice") == 0


@pytest.mark.slow
def test_prune_deletes_notes_older_than_the_cutoff(store: MemoryStore) -> None:
    store.add(note("alice", unit(1), text="old", created_at=T0 - dt.timedelta(days=100)))
    store.add(note("alice", unit(2), text="new", created_at=T0 - dt.timedelta(days=10)))
    assert store.prune(T0 - dt.timedelta(days=90)) == 1
    assert [h.text for h in store.search("alice", unit(1), model=MODEL, k=5)] == ["new"]


@pytest.mark.slow
def test_another_processs_writes_and_deletes_are_seen_at_once(backend: Backend) -> None:
    """The database backend's matrix is checked on every search: new rows are topped up,
    a deleted row (even with a new one in its place) makes it read again."""
    mine, theirs = backend.make(), backend.make()
    vectors = {f"n{i}": unit(i) for i in range(10)}
    for key, vector in list(vectors.items())[:5]:
        theirs.add(note("alice", vector, text=key))
    query = unit(3)
    assert len(mine.search("alice", query, model=MODEL, k=10)) == 5
    for key, vector in list(vectors.items())[5:]:
        theirs.add(note("alice", vector, text=key))
    assert [h.text for h in mine.search("alice", query, model=MODEL, k=10)] == exact_order(
        query, vectors
    )
    theirs.erase_user("alice")
    theirs.add(note("alice", unit(3), text="only"))
    assert [h.text for h in mine.search("alice", query, model=MODEL, k=10)] == ["only"]


@pytest.mark.slow
def test_many_notes_rank_exactly(store: MemoryStore) -> None:
    rng = random.Random(7)
    vectors = {f"m{i}": unit(rng.randrange(10**9)) for i in range(300)}
    for key, vector in vectors.items():
        store.add(note("alice", vector, text=key, recipient_key=rng.choice(["a", "b"])))
    query = unit(42)
    assert [h.text for h in store.search("alice", query, model=MODEL, k=20)] == exact_order(
        query, vectors
    )[:20]


@pytest.mark.slow
def test_footprint_counts_the_notes(store: MemoryStore) -> None:
    for i in range(3):
        store.add(note("alice", unit(i)))
    count, size = store.footprint()
    assert count == 3 and size > 3 * DIM * 4


@pytest.mark.slow
def test_a_store_with_no_notes_yet_answers_empty(backend: Backend, store: MemoryStore) -> None:
    """The embedded file is opened on first use: a command that only erases or prunes a
    user who never had a note neither creates it nor fails."""
    assert store.search("alice", unit(1), model=MODEL) == []
    assert store.erase_user("alice") == 0
    assert store.prune(T0) == 0
    if backend.name == "embedded":
        assert not list(Path(str(getattr(store, "path", ""))).parent.glob("memories.db*"))


@pytest.mark.slow
def test_the_first_search_and_the_later_ones_agree(store: MemoryStore) -> None:
    """The embedded store answers a user's first search in a process with sqlite-vec and the
    later ones from the user's matrix; both backends' later searches use the matrix."""
    rng = random.Random(11)
    vectors = {f"m{i}": unit(rng.randrange(10**9)) for i in range(120)}
    keys = {key: rng.choice(["a", "b", None]) for key in vectors}
    for key, vector in vectors.items():
        store.add(note("alice", vector, text=key, recipient_key=keys[key]))
    for query in (unit(5), unit(6)):
        for recipient in (None, "a"):
            searches = [
                store.search("alice", query, model=MODEL, recipient_key=recipient, k=9)
                for _ in range(3)
            ]
            mine = {key: v for key, v in vectors.items() if recipient in (None, keys[key])}
            for hits in searches:
                assert [h.text for h in hits] == exact_order(query, mine)[:9]
                assert [h.score for h in hits] == pytest.approx(
                    [h.score for h in searches[0]], abs=1e-5
                )


@pytest.mark.slow
def test_a_kept_matrix_follows_every_write_of_another_process(backend: Backend) -> None:
    """Added notes are appended to the copy; a note rewritten, pruned or erased makes it
    read again: after each, the next search is exact."""
    mine, theirs = backend.make(), backend.make()
    vectors: dict[str, list[float]] = {}
    old = T0 - dt.timedelta(days=400)

    asked: list[list[float]] = []  # every vector written: a stale row would rank first

    def write(key: str, seed: int, **fields: object) -> None:
        vectors[key] = unit(seed)
        asked.append(vectors[key])
        theirs.add(note("alice", vectors[key], text=key, id=f"id-{key}", **fields))

    def agrees() -> None:
        for query in asked:
            for _ in range(2):  # the first search may be sqlite-vec's; then the matrix's
                hits = mine.search("alice", query, model=MODEL, k=3)
                assert [h.text for h in hits] == exact_order(query, vectors)[:3]

    for i in range(6):
        write(f"n{i}", i, created_at=old if i == 0 else T0)
    agrees()
    for i in range(6, 9):  # appended
        write(f"n{i}", i)
    agrees()
    write("n3", 300)  # rewritten under its id: a new vector
    agrees()
    assert theirs.prune(T0 - dt.timedelta(days=100)) == 1
    del vectors["n0"]
    agrees()
    theirs.erase_user("alice")
    vectors.clear()
    write("again", 7)
    agrees()
