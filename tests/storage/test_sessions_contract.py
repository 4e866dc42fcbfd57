"""The one SessionStore contract suite, run against every backend (SQLite and Redis).

Time moves through ``Backend.age``: the SQLite store reads an offset clock, and on Redis the
same offset feeds the max-lifetime arithmetic while the keys' remaining PTTL is cut by the
same amount — so TTL behaviour is checked without sleeping through it.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from giftgenius.domain import Message, ProfileDraft, Session, SessionState, Step, Summary, ToolCall
from giftgenius.errors import RunErased, SessionBusy, UsageError, VersionConflict
from giftgenius.settings import Settings
from giftgenius.storage.session_store import SessionStore, make_session_store, update_session
from giftgenius.storage.sqlite_sessions import SqliteSessionStore

TTL = 60
MAX_LIFETIME = 600
LEASE_TTL = 0.5


class OffsetClock:
    """Real time plus a jump we control: leases still lapse in real time, TTLs on demand."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.time() + self.offset

    def advance(self, seconds: float) -> None:
        self.offset += seconds


@dataclass
class Backend:
    name: str
    clock: OffsetClock
    factory: Callable[..., SessionStore]
    age_keys: Callable[[str, float], None]
    stores: list[SessionStore] = field(default_factory=list)

    def make(self, **overrides: Any) -> SessionStore:
        """Another store on the same backend (like another process's), closed at teardown."""
        options = {"session_ttl": TTL, "max_lifetime": MAX_LIFETIME, "lease_ttl": LEASE_TTL}
        options.update(overrides)
        store = self.factory(clock=self.clock, **options)
        self.stores.append(store)
        return store

    def age(self, run_id: str, seconds: float) -> None:
        """Let ``seconds`` pass for this run's session and lease."""
        self.clock.advance(seconds)
        self.age_keys(run_id, seconds)


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    clock = OffsetClock()
    if request.param == "sqlite":
        path = tmp_path / "sessions.db"

        def factory(**options: Any) -> SessionStore:
            return SqliteSessionStore(path, **options)

        def age_keys(run_id: str, seconds: float) -> None:
            return None  # the offset clock alone expires SQLite rows

        backend = Backend("sqlite", clock, factory, age_keys)
    else:
        import redis

        from giftgenius.storage.redis_sessions import RedisSessionStore

        url = request.getfixturevalue("redis_url")
        prefix = request.getfixturevalue("redis_prefix")
        raw = redis.Redis.from_url(url)

        def factory(**options: Any) -> SessionStore:
            return RedisSessionStore.from_url(url, prefix=prefix, **options)

        def age_keys(run_id: str, seconds: float) -> None:
            base = f"{prefix}:session:{{{run_id}}}"
            parts = ("state", "messages", "summary", "lease")
            for key in [*(f"{base}:{part}" for part in parts), f"{prefix}:erased:{{{run_id}}}"]:
                left = raw.pttl(key)
                assert left != -1, f"{key} has no TTL: it would never expire"
                if left == -2:
                    continue
                if left - seconds * 1000 <= 0:
                    raw.delete(key)
                else:
                    raw.pexpire(key, int(left - seconds * 1000))

        backend = Backend("redis", clock, factory, age_keys)
        request.addfinalizer(raw.close)
    yield backend
    for store in backend.stores:
        store.close()


@pytest.fixture
def store(backend: Backend) -> SessionStore:
    return backend.make()


def new_session(**fields: Any) -> Session:
    return Session(run_id=uuid.uuid4().hex, user_id="alice", **fields)


def rich_session() -> Session:
    return new_session(
        state=SessionState(
            step=Step.filtering,
            profile=ProfileDraft(recipient="sister", interests=["coffee", "board games"]),
            candidate_ids=["g1", "g2"],
            locale="fr",
        ),
        messages=[
            Message(role="user", content="Un cadeau pour ma sœur", seq=1, tokens=7),
            Message(
                role="assistant",
                tool_calls=[ToolCall(id="c1", name="search_candidates", arguments="{}")],
                seq=2,
            ),
            Message(role="tool", content='{"ok": true}', tool_call_id="c1", seq=3),
        ],
        summary=Summary(text="She likes coffee.", through_seq=0, tokens=4),
        next_seq=4,
    )


def bump(session: Session) -> None:
    session.usage.requests += 1


# -- round trip and check-and-set ----------------------------------------------------------


def test_save_then_load_round_trips_every_field(backend: Backend, store: SessionStore) -> None:
    session = rich_session()
    store.save(session, expected_version=None)

    assert store.load(session.run_id) == session
    assert backend.make().load(session.run_id) == session, "another client sees the same"


def test_unknown_run_loads_as_none(store: SessionStore) -> None:
    assert store.load(uuid.uuid4().hex) is None


def test_cas_save_advances_and_stale_version_conflicts(store: SessionStore) -> None:
    session = new_session()
    store.save(session, expected_version=None)
    stale = session.model_copy(deep=True)

    session.version = 1
    session.state.locale = "fr"
    store.save(session, expected_version=0)

    stale.version = 1
    stale.usage.requests = 99
    with pytest.raises(VersionConflict, match=r"expected version 0.*has version 1"):
        store.save(stale, expected_version=0)
    loaded = store.load(session.run_id)
    assert loaded is not None
    assert (loaded.version, loaded.state.locale, loaded.usage.requests) == (1, "fr", 0)


def test_double_create_conflicts_and_keeps_the_first(store: SessionStore) -> None:
    first = new_session()
    store.save(first, expected_version=None)
    second = Session(run_id=first.run_id, user_id="bob")

    with pytest.raises(VersionConflict, match="expected no session yet"):
        store.save(second, expected_version=None)
    loaded = store.load(first.run_id)
    assert loaded is not None and loaded.user_id == "alice"


def test_update_of_a_missing_session_conflicts(store: SessionStore) -> None:
    with pytest.raises(VersionConflict, match="none"):
        store.save(new_session(version=1), expected_version=0)


def test_update_session_applies_and_bumps_version(store: SessionStore) -> None:
    session = new_session()
    store.save(session, expected_version=None)

    saved = update_session(store, session.run_id, bump)
    again = update_session(store, session.run_id, bump)

    assert saved is not None and again is not None
    assert (again.version, again.usage.requests) == (2, 2)
    assert store.load(session.run_id) == again


def test_update_session_on_missing_session_returns_none(store: SessionStore) -> None:
    assert update_session(store, uuid.uuid4().hex, bump) is None


def test_update_session_gives_up_after_attempts(store: SessionStore) -> None:
    session = new_session()
    store.save(session, expected_version=None)

    def race(current: Session) -> None:
        """Another writer gets in between every load and save."""
        other = current.model_copy(deep=True)
        other.version = current.version + 1
        store.save(other, expected_version=current.version)

    with pytest.raises(VersionConflict):
        update_session(store, session.run_id, race, attempts=3, backoff=0)
    loaded = store.load(session.run_id)
    assert loaded is not None and loaded.version == 3


def test_invalid_run_id_is_refused(store: SessionStore) -> None:
    with pytest.raises(UsageError, match="braces"):
        store.load("a}b")


# -- TTL ---------------------------------------------------------------------------------


def test_session_expires_after_ttl_without_activity(backend: Backend, store: SessionStore) -> None:
    session = new_session()
    store.save(session, expected_version=None)

    backend.age(session.run_id, TTL - 5)
    assert store.load(session.run_id) is not None
    backend.age(session.run_id, TTL + 1)
    assert store.load(session.run_id) is None
    store.save(session, expected_version=None)  # gone means a fresh create is allowed
    assert store.load(session.run_id) == session


def test_load_and_save_slide_the_ttl(backend: Backend, store: SessionStore) -> None:
    session = new_session()
    store.save(session, expected_version=None)

    for _ in range(3):  # 3 x 0.7 TTL: far past one TTL, alive because each load slides it
        backend.age(session.run_id, TTL * 0.7)
        assert store.load(session.run_id) is not None
    backend.age(session.run_id, TTL * 0.7)
    session.version = 1
    store.save(session, expected_version=0)
    backend.age(session.run_id, TTL * 0.7)
    assert store.load(session.run_id) == session


def test_max_lifetime_caps_the_sliding_ttl(backend: Backend) -> None:
    store = backend.make(session_ttl=60, max_lifetime=100)
    session = new_session()
    store.save(session, expected_version=None)

    backend.age(session.run_id, 50)
    assert store.load(session.run_id) is not None
    backend.age(session.run_id, 45)  # t=95: alive, but now only 5 s of lifetime remain
    session.version = 1
    store.save(session, expected_version=0)
    backend.age(session.run_id, 10)  # t=105: well inside the TTL, past the lifetime
    assert store.load(session.run_id) is None
    session.version = 2
    with pytest.raises(VersionConflict):
        store.save(session, expected_version=1)


def test_a_store_that_answers_pings(store: SessionStore) -> None:
    store.ping()


def test_delete_removes_session_and_lease(store: SessionStore) -> None:
    session = new_session()
    store.save(session, expected_version=None)
    with store.lease(session.run_id, "turn-a", wait=0):
        store.delete(session.run_id)

        assert store.load(session.run_id) is None
        with store.lease(session.run_id, "turn-b", wait=0) as lease:  # no wait: it was freed
            assert lease.owner == "turn-b"
    store.delete(session.run_id)  # deleting nothing is fine


# -- erasure (forget) ---------------------------------------------------------------------


def test_erase_removes_the_session_and_refuses_every_later_save(
    backend: Backend, store: SessionStore
) -> None:
    session = new_session()
    store.save(session, expected_version=None)
    stale = session.model_copy(deep=True)
    with store.lease(session.run_id, "turn-a", wait=0):
        store.erase(session.run_id)

        assert store.load(session.run_id) is None
        with store.lease(session.run_id, "turn-b", wait=0):  # the lease went with it
            pass
    # A turn in flight saves what it loaded (version 0), or a rebuilt session (no version).
    stale.version = 1
    with pytest.raises(RunErased, match="erased"):
        store.save(stale, expected_version=0)
    with pytest.raises(RunErased, match="erased"):
        backend.make().save(stale, expected_version=None)  # another process: the same
    assert store.load(session.run_id) is None
    other = new_session()
    store.save(other, expected_version=None)  # other runs are untouched
    assert store.load(other.run_id) == other


def test_erase_of_a_run_without_a_live_session_still_refuses_its_save(
    store: SessionStore,
) -> None:
    session = new_session()
    assert not store.is_erased(session.run_id)
    store.erase(session.run_id)
    assert store.is_erased(session.run_id)  # what long-term memory asks before it writes
    store.erase(session.run_id)  # twice is fine
    with pytest.raises(RunErased):
        store.save(session, expected_version=None)
    assert store.load(session.run_id) is None


def test_the_tombstone_lasts_the_max_lifetime_then_expires(backend: Backend) -> None:
    store = backend.make(session_ttl=60, max_lifetime=100)
    session = new_session()
    store.erase(session.run_id)

    backend.age(session.run_id, 95)  # past the session TTL, inside the max lifetime
    with pytest.raises(RunErased):
        store.save(session, expected_version=None)
    assert store.is_erased(session.run_id)
    backend.age(session.run_id, 10)  # t=105: the tombstone is gone, like any session
    assert not store.is_erased(session.run_id)
    store.save(session, expected_version=None)
    assert store.load(session.run_id) == session


# -- leases ------------------------------------------------------------------------------


def test_lease_is_exclusive_across_clients(backend: Backend, store: SessionStore) -> None:
    other = backend.make()
    run_id = uuid.uuid4().hex
    with store.lease(run_id, "turn-a", wait=0) as lease:
        assert (lease.run_id, lease.owner) == (run_id, "turn-a")
        with (
            pytest.raises(SessionBusy, match="busy in another window"),
            other.lease(run_id, "turn-b", wait=0),
        ):
            pass
        # The same owner cannot nest either.
        with pytest.raises(SessionBusy), store.lease(run_id, "turn-a", wait=0):
            pass
        with other.lease(uuid.uuid4().hex, "turn-b", wait=0) as elsewhere:
            assert elsewhere.owner == "turn-b"  # another run's lease is independent
    with other.lease(run_id, "turn-b", wait=0) as taken:  # free again once A released it
        assert taken.run_id == run_id


@pytest.mark.slow
def test_lease_waits_then_reports_busy(store: SessionStore) -> None:
    run_id = uuid.uuid4().hex
    with store.lease(run_id, "turn-a", wait=0):
        started = time.monotonic()
        with pytest.raises(SessionBusy, match="not taken"), store.lease(run_id, "b", wait=0.3):
            pass
        assert time.monotonic() - started >= 0.3


def test_lease_waiter_gets_the_lease_once_released(store: SessionStore) -> None:
    run_id = uuid.uuid4().hex
    held, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def first_turn() -> None:
        try:
            with store.lease(run_id, "turn-a", wait=0):
                held.set()
                release.wait(10)
        except BaseException as exc:  # surfaced by the assertion below
            errors.append(exc)
            held.set()

    worker = threading.Thread(target=first_turn)
    worker.start()
    assert held.wait(10)
    release.set()
    with store.lease(run_id, "turn-b", wait=5) as lease:
        assert lease.owner == "turn-b"
    worker.join(10)
    assert errors == []


def _waiting(store: SessionStore, run_id: str, owner: str, order: list[str]) -> threading.Thread:
    """A window that waits for the lease (up to 10 s), notes when it got it, gives it back."""

    def turn() -> None:
        with store.lease(run_id, owner, wait=10):
            order.append(owner)
            time.sleep(0.05)

    thread = threading.Thread(target=turn)
    thread.start()
    return thread


@pytest.mark.slow
def test_waiting_windows_are_served_in_the_order_they_came(
    backend: Backend, store: SessionStore
) -> None:
    run_id = uuid.uuid4().hex
    order: list[str] = []
    with store.lease(run_id, "holder", wait=0):
        waiters = []
        for name in ("first", "second", "third"):
            waiters.append(_waiting(backend.make(), run_id, name, order))
            time.sleep(0.25)  # each has polled, and queued, before the next comes
    for waiter in waiters:
        waiter.join(15)
    assert order == ["first", "second", "third"]


@pytest.mark.slow
def test_a_newcomer_does_not_jump_the_queue(backend: Backend, store: SessionStore) -> None:
    run_id = uuid.uuid4().hex
    order: list[str] = []
    newcomer = backend.make()
    with store.lease(run_id, "holder", wait=0):
        waiter = _waiting(backend.make(), run_id, "waiting", order)
        time.sleep(0.3)
    # Released: the window that waited is next, not one that tries at this very moment.
    with pytest.raises(SessionBusy), newcomer.lease(run_id, "newcomer", wait=0):
        pass
    waiter.join(15)
    assert order == ["waiting"]


@pytest.mark.slow
def test_a_waiter_that_gave_up_or_died_does_not_block_the_queue(
    backend: Backend, store: SessionStore
) -> None:
    run_id = uuid.uuid4().hex
    with (
        store.lease(run_id, "holder", wait=0),
        pytest.raises(SessionBusy),
        backend.make().lease(run_id, "gave-up", wait=0.3),
    ):
        pass
    with backend.make().lease(run_id, "next", wait=0) as lease:  # nobody is queued now
        assert lease.owner == "next"


@pytest.mark.slow
def test_renewal_keeps_the_lease_past_its_ttl(backend: Backend, store: SessionStore) -> None:
    other = backend.make()
    run_id = uuid.uuid4().hex
    with store.lease(run_id, "turn-a", wait=0) as lease:
        # Renewals come every ttl/3: four of them mean more than one ttl has passed.
        assert lease.wait_for_renewals(4, timeout=10)  # type: ignore[attr-defined]
        assert not lease.lost  # type: ignore[attr-defined]
        with pytest.raises(SessionBusy), other.lease(run_id, "turn-b", wait=0):
            pass


@pytest.mark.slow
def test_lapsed_lease_is_lost_and_release_spares_the_new_owner(
    backend: Backend, store: SessionStore
) -> None:
    other = backend.make()
    session = new_session()
    store.save(session, expected_version=None)
    run_id = session.run_id

    with ExitStack() as turn_a:
        lease_a = turn_a.enter_context(store.lease(run_id, "turn-a", wait=0))
        mine = store.load(run_id)
        assert mine is not None
        backend.age(run_id, LEASE_TTL * 3)  # turn A stalls past its lease

        with other.lease(run_id, "turn-b", wait=5):  # A's lease lapsed: B takes the run
            # A's renewal thread finds the lease gone and stops renewing it.
            assert lease_a.wait_for_renewals(10**6, timeout=10)  # type: ignore[attr-defined]
            assert lease_a.lost  # type: ignore[attr-defined]
            theirs = other.load(run_id)
            assert theirs is not None
            theirs.version = 1
            other.save(theirs, expected_version=0)

            # The lapsed holder's save is fenced by the version check-and-set.
            mine.version = 1
            mine.usage.requests = 42
            with pytest.raises(VersionConflict):
                store.save(mine, expected_version=0)

            turn_a.close()  # releasing A must not free B's lease
            with pytest.raises(SessionBusy), store.lease(run_id, "turn-c", wait=0):
                pass
    loaded = store.load(run_id)
    assert loaded is not None and loaded.usage.requests == 0


def test_lease_is_released_when_the_turn_fails(store: SessionStore) -> None:
    run_id = uuid.uuid4().hex
    with pytest.raises(RuntimeError, match="boom"), store.lease(run_id, "turn-a", wait=0):
        raise RuntimeError("boom")
    with store.lease(run_id, "turn-b", wait=0) as lease:
        assert lease.owner == "turn-b"


# -- the lease with the load, the save with the release ------------------------------------
# A turn takes its lease and loads its session in one round trip (``lease(load=True)``),
# and saves its session and gives the lease back in one (``save(release=)``): every
# guarantee of the separate steps must still hold.


def test_lease_with_load_brings_the_live_session(store: SessionStore) -> None:
    session = rich_session()
    store.save(session, expected_version=None)
    with store.lease(session.run_id, "turn-a", wait=0, load=True) as lease:
        assert lease.session == session
    with store.lease(uuid.uuid4().hex, "turn-a", wait=0, load=True) as empty:
        assert empty.session is None  # no live session: nothing, and the lease all the same


@pytest.mark.slow
def test_lease_with_load_still_refuses_a_busy_session(
    backend: Backend, store: SessionStore
) -> None:
    other = backend.make()
    session = new_session()
    store.save(session, expected_version=None)
    run_id = session.run_id
    with store.lease(run_id, "turn-a", wait=0, load=True):
        with pytest.raises(SessionBusy), other.lease(run_id, "turn-b", wait=0, load=True):
            pass
        with pytest.raises(SessionBusy), other.lease(run_id, "turn-b", wait=0.3, load=True):
            pass
    with other.lease(run_id, "turn-b", wait=0, load=True) as lease:  # free once A left
        assert lease.owner == "turn-b" and lease.session == session


@pytest.mark.slow
def test_lease_with_load_does_not_jump_the_queue(backend: Backend, store: SessionStore) -> None:
    run_id = uuid.uuid4().hex
    order: list[str] = []
    newcomer = backend.make()
    with store.lease(run_id, "holder", wait=0, load=True):
        waiter = _waiting(backend.make(), run_id, "waiting", order)
        time.sleep(0.3)
    with pytest.raises(SessionBusy), newcomer.lease(run_id, "newcomer", wait=0, load=True):
        pass
    waiter.join(15)
    assert order == ["waiting"]


@pytest.mark.slow
def test_a_waiting_turn_loads_the_session_its_predecessor_saved(
    backend: Backend, store: SessionStore
) -> None:
    session = new_session()
    store.save(session, expected_version=None)
    run_id = session.run_id
    loaded: list[Session | None] = []

    def next_turn() -> None:
        with backend.make().lease(run_id, "turn-b", wait=10, load=True) as lease:
            loaded.append(lease.session)

    with store.lease(run_id, "turn-a", wait=0, load=True) as lease:
        waiter = threading.Thread(target=next_turn)
        waiter.start()
        time.sleep(0.3)  # B is waiting: it must not load before A's save
        assert lease.session is not None
        mine = lease.session
        mine.version = 1
        bump(mine)
        store.save(mine, expected_version=0, release=lease)
        waiter.join(15)
    assert len(loaded) == 1 and loaded[0] is not None
    assert (loaded[0].version, loaded[0].usage.requests) == (1, 1)


def test_save_with_release_gives_the_lease_back_at_once(
    backend: Backend, store: SessionStore
) -> None:
    other = backend.make()
    session = new_session()
    store.save(session, expected_version=None)
    run_id = session.run_id
    with ExitStack() as turn_a:
        lease = turn_a.enter_context(store.lease(run_id, "turn-a", wait=0, load=True))
        assert lease.session is not None
        mine = lease.session
        mine.version = 1
        store.save(mine, expected_version=0, release=lease)
        with other.lease(run_id, "turn-b", wait=0) as taken:  # free before A's block ends
            assert taken.owner == "turn-b"
            turn_a.close()  # A's block ending must not release B's lease
            with pytest.raises(SessionBusy), backend.make().lease(run_id, "turn-c", wait=0):
                pass
    loaded = store.load(run_id)
    assert loaded is not None and loaded.version == 1


def test_a_refused_save_still_gives_the_lease_back(backend: Backend, store: SessionStore) -> None:
    other = backend.make()
    session = new_session()
    store.save(session, expected_version=None)
    run_id = session.run_id
    with store.lease(run_id, "turn-a", wait=0, load=True) as lease:
        stale = session.model_copy(update={"version": 7})
        with pytest.raises(VersionConflict):
            store.save(stale, expected_version=6, release=lease)
        with other.lease(run_id, "turn-b", wait=0) as taken:
            assert taken.owner == "turn-b"
    with store.lease(run_id, "turn-a", wait=0, load=True) as lease:
        other.erase(run_id)
        with pytest.raises(RunErased):
            store.save(session.model_copy(update={"version": 1}), expected_version=0, release=lease)
        with other.lease(run_id, "turn-b", wait=0) as taken:
            assert taken.owner == "turn-b"
    assert store.load(run_id) is None


@pytest.mark.slow
def test_save_with_release_fences_a_stale_writer_and_spares_the_new_holder(
    backend: Backend, store: SessionStore
) -> None:
    other = backend.make()
    session = new_session()
    store.save(session, expected_version=None)
    run_id = session.run_id
    with ExitStack() as turn_a:
        lease_a = turn_a.enter_context(store.lease(run_id, "turn-a", wait=0, load=True))
        mine = lease_a.session
        assert mine is not None
        backend.age(run_id, LEASE_TTL * 3)  # turn A stalls past its lease
        with other.lease(run_id, "turn-b", wait=5, load=True) as lease_b:
            assert lease_a.wait_for_renewals(10**6, timeout=10)  # type: ignore[attr-defined]
            theirs = lease_b.session
            assert theirs is not None
            theirs.version = 1
            other.save(theirs, expected_version=0)

            mine.version = 1
            mine.usage.requests = 42
            with pytest.raises(VersionConflict):  # fenced, and B's lease is not A's to free
                store.save(mine, expected_version=0, release=lease_a)
            turn_a.close()
            with pytest.raises(SessionBusy), backend.make().lease(run_id, "turn-c", wait=0):
                pass
    loaded = store.load(run_id)
    assert loaded is not None and (loaded.version, loaded.usage.requests) == (1, 0)


# -- factory -----------------------------------------------------------------------------


def test_factory_defaults_to_the_sqlite_file_in_home(tmp_path: Path) -> None:
    settings = Settings(home=tmp_path / "home")
    store = make_session_store(settings)
    try:
        assert isinstance(store, SqliteSessionStore)
        assert store.path == settings.sessions_path
        session = new_session()
        store.save(session, expected_version=None)
        assert settings.sessions_path.is_file()
        assert store.load(session.run_id) == session
    finally:
        store.close()
