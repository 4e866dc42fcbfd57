"""What only the Redis session store has: Cluster slots, PTTLs, wiped or missing servers."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
import redis
from redis.crc import key_slot

from giftgenius.domain import Message, Session
from giftgenius.errors import ConfigError, StorageError
from giftgenius.settings import Settings
from giftgenius.storage.redis_sessions import RedisSessionStore
from giftgenius.storage.session_store import make_session_store

TTL = 60
OPTIONS = {"session_ttl": TTL, "max_lifetime": 600, "lease_ttl": 2.0}


def new_session() -> Session:
    return Session(
        run_id=uuid.uuid4().hex, user_id="alice", messages=[Message(role="user", content="hi")]
    )


@pytest.fixture
def store(redis_url: str, redis_prefix: str) -> Iterator[RedisSessionStore]:
    store = RedisSessionStore.from_url(redis_url, prefix=redis_prefix, **OPTIONS)
    yield store
    store.close()


@pytest.fixture
def raw(redis_url: str) -> Iterator[redis.Redis]:
    client = redis.Redis.from_url(redis_url)
    yield client
    client.close()


def test_crc16_slot_matches_the_cluster_spec_vector() -> None:
    assert key_slot(b"123456789") == 12739


def test_all_keys_of_a_session_and_its_tombstone_share_one_slot_named_by_the_run_id() -> None:
    store = RedisSessionStore(redis.Redis(), prefix="gg", **OPTIONS)
    run_ids = [uuid.uuid4().hex for _ in range(20)]

    keys = store.keys("r1")
    assert keys.all() == [
        "gg:session:{r1}:state",
        "gg:session:{r1}:messages",
        "gg:session:{r1}:summary",
        "gg:session:{r1}:lease",
    ]
    assert keys.tombstone == "gg:erased:{r1}"  # outside ``:session:``, same slot (erase, save)
    for run_id in run_ids:
        run_keys = store.keys(run_id)
        slots = {key_slot(k.encode()) for k in [*run_keys.all(), run_keys.tombstone]}
        assert slots == {key_slot(run_id.encode())}
    # The tag is the run id, not the prefix: sessions spread over the cluster.
    assert len({key_slot(r.encode()) for r in run_ids}) > 10


def test_prefix_with_braces_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="GIFTGENIUS_REDIS_PREFIX"):
        RedisSessionStore(redis.Redis(), prefix="gg{x}", **OPTIONS)


@pytest.mark.redis
def test_save_and_load_set_the_ttl_on_every_key(store: RedisSessionStore, raw: redis.Redis) -> None:
    session = new_session()
    store.save(session, expected_version=None)
    keys = store.keys(session.run_id)
    for key in (keys.state, keys.messages, keys.summary):
        assert TTL * 1000 - 2000 < raw.pttl(key) <= TTL * 1000

    for key in (keys.state, keys.messages, keys.summary):
        raw.pexpire(key, 5000)
    assert store.load(session.run_id) == session
    for key in (keys.state, keys.messages, keys.summary):
        assert raw.pttl(key) > TTL * 1000 - 2000, "load slides every key's TTL"


@pytest.mark.redis
def test_ttl_never_reaches_past_the_max_lifetime(
    redis_url: str, redis_prefix: str, raw: redis.Redis
) -> None:
    store = RedisSessionStore.from_url(
        redis_url, prefix=redis_prefix, session_ttl=60, max_lifetime=3, lease_ttl=1
    )
    try:
        session = new_session()
        store.save(session, expected_version=None)
        assert 0 < raw.pttl(store.keys(session.run_id).messages) <= 3000
    finally:
        store.close()


@pytest.mark.redis
def test_lease_key_carries_the_lease_ttl(store: RedisSessionStore, raw: redis.Redis) -> None:
    run_id = uuid.uuid4().hex
    with store.lease(run_id, "turn-a", wait=0):
        assert raw.get(store.keys(run_id).lease) == b"turn-a"
        assert 0 < raw.pttl(store.keys(run_id).lease) <= 2000
    assert raw.exists(store.keys(run_id).lease) == 0


@pytest.mark.redis
def test_session_missing_a_part_is_treated_as_gone(
    store: RedisSessionStore, raw: redis.Redis
) -> None:
    session = new_session()
    store.save(session, expected_version=None)
    raw.delete(store.keys(session.run_id).messages)  # e.g. evicted under memory pressure

    assert store.load(session.run_id) is None
    store.save(session, expected_version=None)
    assert store.load(session.run_id) == session


@pytest.mark.redis
def test_decoding_client_is_supported(redis_url: str, redis_prefix: str) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    store = RedisSessionStore(client, prefix=redis_prefix, **OPTIONS)
    try:
        session = new_session()
        store.save(session, expected_version=None)
        assert store.load(session.run_id) == session
        with store.lease(session.run_id, "turn-a", wait=0) as lease:
            assert lease.owner == "turn-a"
        with store.lease(session.run_id, "turn-b", wait=0):  # released through this client too
            pass
    finally:
        client.close()


@pytest.mark.redis
def test_flushed_redis_loads_as_none_and_accepts_a_rebuild(wipe_db: redis.Redis) -> None:
    client = wipe_db
    store = RedisSessionStore(client, prefix="ggwipe", **OPTIONS)
    try:
        session = new_session()
        store.save(session, expected_version=None)
        client.flushdb()
        client.script_flush()  # a restarted Redis forgets scripts too

        assert store.load(session.run_id) is None
        store.save(session, expected_version=None)
        assert store.load(session.run_id) == session
    finally:
        store.close()  # the fixture owns the client


def test_unreachable_redis_is_a_storage_error_naming_the_url() -> None:
    store = RedisSessionStore.from_url(
        "redis://127.0.0.1:1/0", socket_connect_timeout=0.5, socket_timeout=0.5, **OPTIONS
    )
    try:
        with pytest.raises(StorageError, match=r"redis://127\.0\.0\.1:1/0.*GIFTGENIUS_REDIS_URL"):
            store.load("r1")
        with pytest.raises(StorageError, match="Redis"):
            store.save(new_session(), expected_version=None)
        with pytest.raises(StorageError), store.lease("r1", "turn-a", wait=0):
            pass
        with pytest.raises(StorageError, match="GIFTGENIUS_REDIS_URL"):
            store.ping()  # what `chat` asks before it starts a run
    finally:
        store.close()


def test_invalid_redis_url_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="GIFTGENIUS_REDIS_URL"):
        RedisSessionStore.from_url("http://example", **OPTIONS)


@pytest.mark.redis
def test_factory_picks_redis_when_a_url_is_set(redis_url: str, redis_prefix: str) -> None:
    settings = Settings(redis_url=redis_url, redis_prefix=redis_prefix, session_ttl=TTL)
    store = make_session_store(settings)
    try:
        assert isinstance(store, RedisSessionStore)
        assert store.prefix == redis_prefix and store.session_ttl == TTL
        session = new_session()
        store.save(session, expected_version=None)
        assert store.load(session.run_id) == session
    finally:
        store.close()
