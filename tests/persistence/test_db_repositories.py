"""Repository contract: every backend (SQLite file, real Postgres) passes the same suite."""

from __future__ import annotations

import multiprocessing
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from giftgenius.catalog import Product, catalog_version, load_products
from giftgenius.domain import (
    Budget,
    Checkpoint,
    CheckpointStep,
    GiftGiven,
    OrderDraft,
    ProfileDraft,
    RecipientProfile,
    RunStatus,
    SessionState,
    Step,
    Summary,
    ToolCall,
    TranscriptEntry,
    new_id,
    utcnow,
)
from giftgenius.errors import NotFound, StorageError, UsageError, VersionConflict
from giftgenius.storage import migrate
from giftgenius.storage.db import Database
from giftgenius.storage.tables import RunRow, UserRow


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gg.db'}"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(scope="session")
def _migrated_sqlite_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("migrated") / "gg.db"
    migrate.upgrade(f"sqlite:///{path}")
    return path


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty database at the newest schema: a copy of a file migrated once, or the
    session's Postgres database emptied. (Migrating from empty is tested by ``db_url`` tests
    here and in test_db_migrations.)"""
    if request.param == "sqlite":
        target = tmp_path / "gg.db"
        target.write_bytes(request.getfixturevalue("_migrated_sqlite_file").read_bytes())
        url = f"sqlite:///{target}"
    else:
        url = request.getfixturevalue("migrated_postgres_url")
    database = Database(url, auto_migrate=True)
    yield database
    database.dispose()


def _start(db: Database, user: str) -> str:
    with db.write() as repos:
        return repos.runs.start(user, new_id()).id


def _cp(run_id: str, user: str, step: CheckpointStep, version: int, age: timedelta) -> Checkpoint:
    return Checkpoint(
        run_id=run_id,
        user_id=user,
        step=step,
        session_version=version,
        agent_version="test",
        created_at=utcnow() - age,
        state=SessionState(candidate_ids=[f"g-{version:04d}"]),
        summary=Summary(text="earlier: wants a board game", through_seq=3),
        next_seq=4,
    )


def _users(db: Database) -> list[str]:
    """The user rows, read straight from the table (no repository method needs this)."""
    with db.engine.connect() as conn:
        return list(conn.scalars(sa.select(UserRow.id).order_by(UserRow.id)))


def _entry(run_id: str, seq: int, turn: str = "t1", role: str = "user") -> TranscriptEntry:
    return TranscriptEntry(run_id=run_id, seq=seq, turn_id=turn, role=role, content=f"m{seq}")


# -- users and runs -----------------------------------------------------------------------


@pytest.mark.slow
def test_user_ids_are_validated_and_ensure_is_idempotent(db: Database) -> None:
    with db.write() as repos:
        repos.users.ensure("alice")
        repos.users.ensure("alice")
    assert _users(db) == ["alice"]
    with pytest.raises(UsageError, match="letters, digits"), db.write() as repos:
        repos.users.ensure("bad user!")


@pytest.mark.slow
def test_a_user_has_one_active_run_until_it_finishes(db: Database) -> None:
    first = _start(db, "alice")
    with db.write() as repos:
        again = repos.runs.start("alice", new_id())
        assert again.id == first
        assert again.status is RunStatus.active and again.step is Step.collecting_profile
        repos.runs.set_status(first, RunStatus.done)
    second = _start(db, "alice")
    assert second != first
    with db.read() as repos:
        assert repos.runs.active_for("alice").id == second
        assert repos.runs.latest_for("alice").id == second
        assert [r.id for r in repos.runs.list_for("alice")] == [first, second]
        assert repos.runs.get(first).status is RunStatus.done
        assert repos.runs.get(first, user_id="mallory") is None
        assert repos.runs.active_for("nobody") is None and repos.runs.latest_for("nobody") is None


@pytest.mark.slow
def test_the_database_itself_refuses_a_second_active_run(db: Database) -> None:
    first = _start(db, "alice")
    now = utcnow()
    with pytest.raises(sa.exc.IntegrityError), db.write() as repos:
        repos.session.execute(
            sa.insert(RunRow).values(
                id=new_id(),
                user_id="alice",
                status="active",
                step="collecting_profile",
                session_version=0,
                created_at=now,
                updated_at=now,
            )
        )
    with db.write() as repos:
        repos.runs.set_status(first, RunStatus.abandoned)
    _start(db, "alice")
    with pytest.raises(StorageError, match="already has an unfinished run"), db.write() as repos:
        repos.runs.set_status(first, RunStatus.active)
    with pytest.raises(NotFound), db.write() as repos:
        repos.runs.set_status("missing", RunStatus.done)


@pytest.mark.slow
def test_processes_starting_at_once_share_one_run(db_url: str) -> None:
    """Each thread has its own engine, as separate processes would."""
    workers = 4
    dbs = [Database(db_url, auto_migrate=True) for _ in range(workers)]
    dbs[0].prepare()  # the schema exists before the race; the race is on the run
    try:
        with ThreadPoolExecutor(workers) as pool:
            for user in ("u1", "u2", "u3"):
                barrier = threading.Barrier(workers)

                def start(
                    db: Database, user: str = user, barrier: threading.Barrier = barrier
                ) -> str:
                    barrier.wait(timeout=10)
                    return _start(db, user)

                got = [f.result(timeout=30) for f in [pool.submit(start, d) for d in dbs]]
                assert len(set(got)) == 1
                with dbs[0].read() as repos:
                    assert [r.id for r in repos.runs.list_for(user)] == got[:1]
    finally:
        for d in dbs:
            d.dispose()


def _start_in_process(url: str, barrier: Any, results: Any) -> None:
    barrier.wait(timeout=30)
    db = Database(url, auto_migrate=True)  # fresh database: they race on the migration too
    try:
        results.put(_start(db, "racer"))
    finally:
        db.dispose()


@pytest.mark.slow
def test_separate_processes_on_a_fresh_database_share_one_run(db_url: str) -> None:
    ctx = multiprocessing.get_context("fork")
    barrier, results = ctx.Barrier(3), ctx.Queue()
    procs = [
        ctx.Process(target=_start_in_process, args=(db_url, barrier, results)) for _ in range(3)
    ]
    for p in procs:
        p.start()
    got = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
    assert [p.exitcode for p in procs] == [0, 0, 0]
    assert len(set(got)) == 1


# -- transcript ---------------------------------------------------------------------------


@pytest.mark.slow
def test_transcript_keeps_order_and_refuses_a_taken_seq(db: Database) -> None:
    run_id = _start(db, "alice")
    call = ToolCall(id="c1", name="search_candidates", arguments='{"extra_keywords": []}')
    db.turns.accept([_entry(run_id, 2, "t1", "assistant"), _entry(run_id, 1)])
    db.turns.accept(
        [
            TranscriptEntry(
                run_id=run_id, seq=3, turn_id="t2", role="assistant", tool_calls=[call]
            ),
            TranscriptEntry(
                run_id=run_id, seq=4, turn_id="t2", role="tool", content="{}", tool_call_id="c1"
            ),
        ]
    )
    db.turns.accept([])
    with pytest.raises(VersionConflict, match="already taken"):
        db.turns.accept([_entry(run_id, 3, "t3")])
    with db.read() as repos:
        entries = repos.transcript.for_run(run_id)
        assert [e.seq for e in entries] == [1, 2, 3, 4]
        assert entries[2].tool_calls == [call] and entries[3].tool_call_id == "c1"
        assert [e.seq for e in repos.transcript.for_run(run_id, after_seq=2)] == [3, 4]
        assert [e.turn_id for e in entries] == ["t1", "t1", "t2", "t2"]  # t3 was refused whole
        assert repos.transcript.for_run("other") == []


# -- checkpoints --------------------------------------------------------------------------


@pytest.mark.slow
def test_checkpoints_latest_and_list_with_ownership(db: Database) -> None:
    run_a = _start(db, "alice")
    run_b = _start(db, "bob")
    same_time = utcnow()
    first = _cp(run_a, "alice", CheckpointStep.profile_collected, 1, timedelta(minutes=5))
    # One turn may reach two key steps: same version, same instant; step order decides.
    second = _cp(run_a, "alice", CheckpointStep.candidates_generated, 2, timedelta(0))
    third = _cp(run_a, "alice", CheckpointStep.filtered, 2, timedelta(0))
    second.created_at = third.created_at = same_time
    with db.write() as repos:
        for cp in (third, first, second):
            repos.checkpoints.add(cp)
        repos.checkpoints.add(_cp(run_b, "bob", CheckpointStep.profile_collected, 1, timedelta(0)))
    with db.read() as repos:
        latest = repos.checkpoints.latest(run_a)
        assert latest == third
        assert [c.id for c in repos.checkpoints.list("alice")] == [first.id, second.id, third.id]
        assert [c.step for c in repos.checkpoints.list("bob")] == ["profile_collected"]
        assert repos.checkpoints.list("bob", run_a) == []  # not bob's run
        assert repos.checkpoints.latest(run_a, user_id="bob") is None
        assert repos.checkpoints.list("nobody") == []
        assert repos.checkpoints.latest("missing") is None


@pytest.mark.slow
def test_prune_respects_keep_last_and_never_drops_the_resume_point(db: Database) -> None:
    old = timedelta(days=100)
    active = _start(db, "alice")
    finished = _start(db, "bob")
    with db.write() as repos:
        repos.runs.set_status(finished, RunStatus.done)
    steps = list(CheckpointStep)
    active_cps = [
        _cp(active, "alice", s, i, old + timedelta(hours=4 - i)) for i, s in enumerate(steps)
    ]
    done_cps = [
        _cp(finished, "bob", s, i, old + timedelta(hours=4 - i)) for i, s in enumerate(steps)
    ]
    recent = _cp(active, "alice", CheckpointStep.filtered, 9, timedelta(days=1))
    with db.write() as repos:
        for cp in [*active_cps, *done_cps]:
            repos.checkpoints.add(cp)
    cutoff = utcnow() - timedelta(days=90)
    with db.write() as repos:
        assert repos.checkpoints.prune(cutoff, keep_last=2) == 4  # 2 oldest of each run
    with db.read() as repos:
        assert [c.id for c in repos.checkpoints.list("alice")] == [c.id for c in active_cps[2:]]
    with db.write() as repos:
        # Without keep_last only the active run's latest survives; the finished run loses all.
        assert repos.checkpoints.prune(cutoff) == 3
        repos.checkpoints.add(recent)
    with db.read() as repos:
        assert [c.id for c in repos.checkpoints.list("alice")] == [active_cps[-1].id, recent.id]
        assert repos.checkpoints.list("bob") == []
    with db.write() as repos:
        # Now the old one is no longer the latest of its run, so it may go; the recent stays.
        assert repos.checkpoints.prune(cutoff, keep_last=0) == 1
        assert [c.id for c in repos.checkpoints.list("alice")] == [recent.id]
    with pytest.raises(UsageError), db.write() as repos:
        repos.checkpoints.prune(cutoff, keep_last=-1)


# -- profiles and order drafts ------------------------------------------------------------


@pytest.mark.slow
def test_profiles_are_keyed_by_user_and_label(db: Database) -> None:
    draft = ProfileDraft(recipient="sister", interests=["yoga"], budget=Budget(amount=40))
    with db.write() as repos:
        saved = repos.profiles.upsert(
            RecipientProfile(user_id="alice", label="Sister", profile=draft)
        )
        repos.profiles.upsert(RecipientProfile(user_id="bob", label="sister", profile=draft))
    changed = draft.model_copy(update={"interests": ["yoga", "tea"]})
    with db.write() as repos:
        again = repos.profiles.upsert(
            RecipientProfile(user_id="alice", label=" sister ", profile=changed)
        )
    assert again.id == saved.id
    with db.read() as repos:
        mine = repos.profiles.list("alice")
        assert [(p.label, p.profile.interests) for p in mine] == [("sister", ["yoga", "tea"])]
        assert repos.profiles.get("alice", "SISTER").profile.budget == Budget(amount=40)
        assert repos.profiles.get("carol", "sister") is None
        assert len(repos.profiles.list("bob")) == 1


@pytest.mark.slow
def test_one_order_draft_per_run(db: Database) -> None:
    run_id = _start(db, "alice")
    with db.write() as repos:
        repos.orders.upsert(
            OrderDraft(run_id=run_id, user_id="alice", gift_id="g-1", price=19.999, currency="EUR")
        )
    rerun = OrderDraft(run_id=run_id, user_id="alice", gift_id="g-2", price=25.5, currency="USD")
    with db.write() as repos:
        saved = repos.orders.upsert(rerun)
    assert (saved.id, saved.gift_id, saved.price, saved.currency) == (rerun.id, "g-2", 25.5, "USD")
    with db.read() as repos:
        assert repos.orders.list_for("alice") == [saved]
        assert repos.orders.for_run(run_id) == saved
        assert repos.orders.for_run(run_id, user_id="bob") is None
    with pytest.raises(NotFound), db.write() as repos:
        repos.orders.upsert(
            OrderDraft(run_id=run_id, user_id="bob", gift_id="g-3", price=1, currency="USD")
        )


# -- gifts given ---------------------------------------------------------------------------


def _gift(run_id: str, user: str, gift_id: str, **kw: Any) -> GiftGiven:
    values: dict[str, Any] = {
        "run_id": run_id,
        "user_id": user,
        "recipient": "mum",
        "gift_id": gift_id,
        "title": f"Gift {gift_id}",
        "price": 35.5,
        "currency": "EUR",
    }
    return GiftGiven(**{**values, **kw})


@pytest.mark.slow
def test_gifts_given_are_kept_per_run_newest_first_and_only_for_their_user(db: Database) -> None:
    december = utcnow().replace(year=2026, month=12, day=1)
    first, second = _start(db, "alice"), None
    with db.write() as repos:
        repos.gifts.record(_gift(first, "alice", "g-1", confirmed_at=december))
        repos.runs.set_status(first, RunStatus.done)
    second = _start(db, "alice")
    with db.write() as repos:
        kept = repos.gifts.record(
            _gift(second, "alice", "g-2", recipient="sister", recipient_name="Clara")
        )
        # confirming again in the same run replaces the run's gift
        kept = repos.gifts.record(
            _gift(second, "alice", "g-3", recipient="sister", recipient_name="Clara")
        )
    with db.read() as repos:
        gifts = repos.gifts.list_for("alice")
        assert [(g.gift_id, g.recipient, g.recipient_name) for g in gifts] == [
            ("g-3", "sister", "Clara"),
            ("g-1", "mum", None),
        ]
        assert gifts[0] == kept and gifts[1].confirmed_at == december
        assert gifts[1].price == 35.5 and gifts[1].currency == "EUR"
        assert repos.gifts.list_for("bob") == []
        assert len(repos.gifts.list_for("alice", limit=1)) == 1
    with pytest.raises(NotFound), db.write() as repos:
        repos.gifts.record(_gift(first, "bob", "g-9"))  # not bob's run


# -- forget -------------------------------------------------------------------------------


def _fill(db: Database, user: str) -> str:
    run_id = _start(db, user)
    db.turns.accept([_entry(run_id, 1), _entry(run_id, 2)])
    with db.write() as repos:
        repos.checkpoints.add(_cp(run_id, user, CheckpointStep.profile_collected, 1, timedelta(0)))
        repos.orders.upsert(
            OrderDraft(run_id=run_id, user_id=user, gift_id="g-1", price=10, currency="USD")
        )
        repos.gifts.record(_gift(run_id, user, "g-1"))
        repos.profiles.upsert(
            RecipientProfile(user_id=user, label="boss", profile=ProfileDraft(recipient="boss"))
        )
        repos.runs.set_status(run_id, RunStatus.done)
    _start(db, user)  # a second, unfinished run
    return run_id


@pytest.mark.slow
def test_forget_user_erases_everything_of_theirs_and_nothing_else(db: Database) -> None:
    _fill(db, "alice")
    bob_run = _fill(db, "bob")
    with db.write() as repos:
        _, alice_key = repos.keys.create("alice")
        _, bob_key = repos.keys.create("bob")
    with db.write() as repos:
        counts = repos.forget_user("alice")
    assert counts == {
        "transcript": 2,
        "checkpoints": 1,
        "order_drafts": 1,
        "gift_history": 1,
        "memories": 0,  # none written here: tests/storage/test_memory_contract.py
        "memory_tallies": 0,
        "recipient_profiles": 1,
        "runs": 2,
        "api_keys": 1,  # a key names its user: it goes with them
        "users": 1,
    }
    with db.read() as repos:
        assert repos.keys.user_for(alice_key) is None and repos.keys.user_for(bob_key) == "bob"
    assert _users(db) == ["bob"]
    with db.read() as repos:
        assert repos.runs.list_for("alice") == [] and repos.checkpoints.list("alice") == []
        assert repos.profiles.list("alice") == [] and repos.orders.list_for("alice") == []
        assert repos.gifts.list_for("alice") == []
        assert [g.gift_id for g in repos.gifts.list_for("bob")] == ["g-1"]
        assert len(repos.runs.list_for("bob")) == 2
        assert len(repos.transcript.for_run(bob_run)) == 2
        assert len(repos.checkpoints.list("bob")) == 1 and len(repos.profiles.list("bob")) == 1
        assert len(repos.orders.list_for("bob")) == 1
    with db.write() as repos:
        assert sum(repos.forget_user("alice").values()) == 0


# -- catalog ------------------------------------------------------------------------------


def _product(pid: str, price: float = 20.0, in_stock: bool = True, **extra: Any) -> Product:
    fields: dict[str, Any] = {
        "id": pid,
        "title": f"Title {pid}",
        "description": f"A gift called {pid}.",
        "price": price,
        "currency": "EUR",
        "tags": ["board-game"],
        "recipients": ["colleague"],
        "ships_to": ["*"],
        "delivery_days": 3,
        "in_stock": in_stock,
    }
    return Product(**(fields | extra))


def _all(repos: Any) -> list[Product]:
    return [p for page in repos.catalog.pages() for p in page]


@pytest.mark.slow
def test_catalog_seeding_updates_and_removes_products(db: Database) -> None:
    v1 = [
        _product("g-9001", 12.5),
        _product("g-9002", in_stock=False),
        _product("g-9003", min_age=18, max_age=99),
    ]
    assert db.ensure_catalog(v1, "v1") is True
    assert db.ensure_catalog(v1, "v1") is False
    with db.read() as repos:
        assert _all(repos) == v1  # in stock or not, by id
        assert repos.catalog.get("g-9001").price == 12.5
        assert repos.catalog.get("g-9999") is None
        assert repos.catalog.version() == "v1"
    v2 = [_product("g-9001", 14.0), _product("g-9004", ships_to=["FR", "BE"])]
    assert db.ensure_catalog(v2, "v2") is True
    with db.read() as repos:
        assert [p.id for p in _all(repos)] == ["g-9001", "g-9004"]  # removed products
        assert repos.catalog.get("g-9001").price == 14.0
        assert repos.catalog.get("g-9004").ships_to == ["FR", "BE"]
    assert db.ensure_catalog() is True  # the shipped catalog replaces the test one entirely
    with db.read() as repos:
        assert _all(repos) == sorted(load_products(), key=lambda p: p.id)
        assert repos.catalog.version() == catalog_version()
    assert db.ensure_catalog() is False


@pytest.mark.slow
@pytest.mark.parametrize("version", ["import:1f2e3d", "synthetic:10000:7"])
def test_a_catalog_of_our_own_is_never_reseeded_with_the_shipped_one(
    db: Database, version: str
) -> None:
    ours = [_product("g-9001", 12.5), _product("g-9002")]
    assert db.ensure_catalog() is True
    with db.write() as repos:
        assert repos.catalog.sync(ours, version) is True
    assert db.ensure_catalog() is False
    with db.read() as repos:
        assert _all(repos) == ours and repos.catalog.version() == version


@pytest.mark.slow
def test_a_changed_analysis_rebuilds_the_index_and_keeps_the_products(db: Database) -> None:
    from giftgenius.catalog.search import index_version

    assert db.ensure_catalog([_product("g-9001")], "import:abc") is True
    with db.write() as repos:  # an index built by an older analysis, half lost
        repos.session.execute(sa.text("DELETE FROM product_terms WHERE field = 'tag'"))
        repos.session.execute(
            sa.text("UPDATE catalog_meta SET value = 'old' WHERE key = 'index_version'")
        )
    with db.read() as repos:
        assert repos.catalog.search().stocked({"board-game"}) == set()
    assert db.ensure_catalog() is False  # not reseeded…
    with db.read() as repos:  # …but re-indexed
        assert repos.catalog.search().stocked({"board-game"}) == {"board-game"}
        assert repos.catalog.index_version() == index_version()
        assert [p.id for p in _all(repos)] == ["g-9001"]


@pytest.mark.slow
def test_read_sessions_cannot_write(db: Database) -> None:
    with pytest.raises(StorageError, match=r"inside db\.write\(\)"), db.read() as repos:
        repos.users.ensure("alice")
    assert _users(db) == []
