"""The production session store on Redis (standalone or Cluster).

A session is three keys — state (a hash: version, creation cap, the session minus its
messages and summary), messages and summary — plus its lease, and after ``forget`` the
run's tombstone. All five share ONE hash tag (the run id), so they live in one Cluster slot
and a Lua script may touch them together: save is a single check-and-set script that looks
for the tombstone and writes all three and their TTL, erase is one script that sets the
tombstone and deletes the rest, and load is a single script that reads them and slides
their TTL, so no reader ever sees half a save and no save lands after an erase.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

import redis
from pydantic import TypeAdapter, ValidationError

from giftgenius import metrics
from giftgenius.domain import Message, Session, Summary
from giftgenius.errors import ConfigError, StorageError
from giftgenius.messages import speak
from giftgenius.storage.checkpoints import decode_session
from giftgenius.storage.leases import QUEUE_STALE, HeldLease, give_back, hold_lease
from giftgenius.storage.session_store import (
    Clock,
    Lease,
    check_run_id,
    run_erased,
    version_conflict,
)

log = logging.getLogger(__name__)

_MESSAGES = TypeAdapter(list[Message])


def _load_lua(state: int, now: int, ttl: int, found: str, missing: str) -> str:
    """The load's Lua, for the state, messages and summary keys at ``KEYS[state]`` and on,
    and ``ARGV[now]``, ``ARGV[ttl]``: returns ``found`` (a Lua expression of ``row[1]``,
    ``messages`` and ``summary``) or ``missing`` when the session is absent, incomplete
    (an evicted part) or past its max lifetime."""
    a, b, c = (f"KEYS[{state + i}]" for i in range(3))
    return f"""
local row = redis.call('HMGET', {a}, 'data', 'cap')
if not row[1] then return {missing} end
local messages = redis.call('GET', {b})
local summary = redis.call('GET', {c})
local ttl = math.floor(math.min(tonumber(ARGV[{ttl}]), tonumber(row[2]) - tonumber(ARGV[{now}])))
if (not messages) or (not summary) or ttl <= 0 then
  redis.call('DEL', {a}, {b}, {c})
  return {missing}
end
redis.call('PEXPIRE', {a}, ttl)
redis.call('PEXPIRE', {b}, ttl)
redis.call('PEXPIRE', {c}, ttl)
return {found}
"""


# KEYS: state, messages, summary. ARGV: now_ms, ttl_ms.
# Returns nil when absent, incomplete (an evicted part) or past its max lifetime.
_LOAD = _load_lua(1, 1, 2, "{row[1],messages,summary}", "false")

# KEYS: state, messages, summary, tombstone, lease.
# ARGV: expected version ('' = must not exist), new version, state data, messages, summary,
#       now_ms, ttl_ms, cap_ms for a new session, lease owner ('' = no lease to release).
# Returns {1, ''} when written, {0, stored version or ''} on a conflict, {-1, ''} when the
# run was erased (its tombstone lives). The owner's lease is released whatever the outcome
# (compare-and-delete, as ``_RELEASE``): the save is the last thing a turn does under it.
_SAVE = """
if ARGV[9] ~= '' and redis.call('GET', KEYS[5]) == ARGV[9] then
  redis.call('DEL', KEYS[5])
end
if redis.call('EXISTS', KEYS[4]) == 1 then return {-1, ''} end
local current = redis.call('HGET', KEYS[1], 'version')
local cap
if ARGV[1] == '' then
  if current then return {0, current} end
  cap = ARGV[8]
else
  if current ~= ARGV[1] then return {0, current or ''} end
  cap = redis.call('HGET', KEYS[1], 'cap')
end
local ttl = math.floor(math.min(tonumber(ARGV[7]), tonumber(cap) - tonumber(ARGV[6])))
if ttl <= 0 then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
  return {0, ''}
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], 'version', ARGV[2], 'data', ARGV[3], 'cap', cap)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('SET', KEYS[2], ARGV[4], 'PX', ttl)
redis.call('SET', KEYS[3], ARGV[5], 'PX', ttl)
return {1, ''}
"""

# KEYS: tombstone, state, messages, summary, lease. ARGV: tombstone ttl_ms.
_ERASE = """
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
"""

# KEYS: lease. ARGV: owner, ttl_ms.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: lease, queue (waiter -> ticket), seen (waiter -> last poll, ms), ticket counter.
# ARGV: owner, waiter ('' for a try without a place in the queue), now_ms, stale_ms, ttl_ms.
# The queue's keys vanish a while after its last poll.
_ACQUIRE = """
local now, stale = tonumber(ARGV[3]), tonumber(ARGV[4])
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - stale)) do
  redis.call('ZREM', KEYS[2], gone)
  redis.call('ZREM', KEYS[3], gone)
end
local waiter = ARGV[2]
if waiter ~= '' then
  if not redis.call('ZSCORE', KEYS[2], waiter) then
    redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[4]), waiter)
  end
  redis.call('ZADD', KEYS[3], now, waiter)
  for i = 2, 4 do redis.call('PEXPIRE', KEYS[i], stale * 5) end
end
local head = redis.call('ZRANGE', KEYS[2], 0, 0)[1]
if head and head ~= waiter then
  return 0
end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[5]) then
  if waiter ~= '' then
    redis.call('ZREM', KEYS[2], waiter)
    redis.call('ZREM', KEYS[3], waiter)
  end
  return 1
end
return 0
"""

# KEYS: lease, queue, seen, ticket counter, state, messages, summary.
# ARGV: owner, now_ms, stale_ms, lease ttl_ms, session ttl_ms.
# _ACQUIRE without a waiter, then, when the lease was taken, _LOAD: {0} when the lease was
# not taken, {1} when it was and no session is live, {1, data, messages, summary} with one.
_ACQUIRE_AND_LOAD = """
local now, stale = tonumber(ARGV[2]), tonumber(ARGV[3])
for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - stale)) do
  redis.call('ZREM', KEYS[2], gone)
  redis.call('ZREM', KEYS[3], gone)
end
if redis.call('ZRANGE', KEYS[2], 0, 0)[1] then return {0} end
if not redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[4]) then return {0} end
""" + _load_lua(5, 2, 5, "{1,row[1],messages,summary}", "{1}")

# KEYS: queue, seen. ARGV: waiter.
_LEAVE_QUEUE = """
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""

# KEYS: lease. ARGV: owner. Compare-and-delete: never removes another holder's lease.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True)
class SessionKeys:
    """The keys of one session; ``{run_id}`` is the Cluster hash tag they share.

    The tombstone is named outside ``…:session:…`` so a scan for sessions never counts it.
    """

    state: str
    messages: str
    summary: str
    lease: str
    tombstone: str

    def all(self) -> list[str]:
        return [self.state, self.messages, self.summary, self.lease]


class RedisSessionStore:
    """``SessionStore`` on an injected ``redis.Redis`` client (pooled, with timeouts)."""

    backend = "redis"  # the metrics' label

    def __init__(
        self,
        client: redis.Redis,
        *,
        prefix: str = "giftgenius",
        session_ttl: float,
        max_lifetime: float,
        lease_ttl: float,
        clock: Clock | None = None,
        owns_client: bool = False,
    ) -> None:
        if not prefix or "{" in prefix or "}" in prefix:
            raise ConfigError(speak("storage", "redis.prefix", prefix=repr(prefix)))
        self._client = client
        self.prefix = prefix
        self.session_ttl = session_ttl
        self.max_lifetime = max_lifetime
        self.lease_ttl = lease_ttl
        self._clock: Clock = clock or time.time
        self._owns_client = owns_client
        self._where = _describe(client)
        self._load_script = client.register_script(_LOAD)
        self._save_script = client.register_script(_SAVE)
        self._erase_script = client.register_script(_ERASE)
        self._renew_script = client.register_script(_RENEW)
        self._release_script = client.register_script(_RELEASE)
        self._acquire_script = client.register_script(_ACQUIRE)
        self._acquire_and_load_script = client.register_script(_ACQUIRE_AND_LOAD)
        self._leave_queue_script = client.register_script(_LEAVE_QUEUE)

    @classmethod
    def from_url(
        cls,
        url: str,
        *,
        prefix: str = "giftgenius",
        session_ttl: float,
        max_lifetime: float,
        lease_ttl: float,
        clock: Clock | None = None,
        socket_timeout: float = 5.0,
        socket_connect_timeout: float = 2.0,
    ) -> RedisSessionStore:
        """A store owning a pooled client for ``url``; nothing connects until first use."""
        try:
            client = redis.Redis.from_url(
                url,
                socket_timeout=socket_timeout,
                socket_connect_timeout=socket_connect_timeout,
                health_check_interval=30,
            )
        except ValueError as exc:
            raise ConfigError(speak("storage", "redis.url", reason=exc)) from exc
        return cls(
            client,
            prefix=prefix,
            session_ttl=session_ttl,
            max_lifetime=max_lifetime,
            lease_ttl=lease_ttl,
            clock=clock,
            owns_client=True,
        )

    def keys(self, run_id: str) -> SessionKeys:
        tag = f"{{{check_run_id(run_id)}}}"
        base = f"{self.prefix}:session:{tag}"
        return SessionKeys(
            f"{base}:state",
            f"{base}:messages",
            f"{base}:summary",
            f"{base}:lease",
            f"{self.prefix}:erased:{tag}",
        )

    # -- SessionStore ------------------------------------------------------------------

    @metrics.store_operation("load")
    def load(self, run_id: str) -> Session | None:
        keys = self.keys(run_id)
        with self._errors():
            found = self._load_script(
                keys=[keys.state, keys.messages, keys.summary],
                args=[self._now_ms(), _ms(self.session_ttl)],
            )
        return None if found is None else self._decoded(run_id, keys, *found)

    def _decoded(
        self, run_id: str, keys: SessionKeys, data: bytes, messages: bytes, summary: bytes
    ) -> Session | None:
        try:
            fields: dict[str, Any] = json.loads(data)
            fields["messages"] = _MESSAGES.validate_json(messages)
            fields["summary"] = Summary.model_validate_json(summary)
            return decode_session(fields)  # older schemas upgraded
        except (ValueError, ValidationError) as exc:
            # A cache entry we cannot read is dropped; the agent rebuilds from durable data.
            log.warning("dropping unreadable session %s in %s: %s", run_id, self._where, exc)
            with self._errors():
                self._client.delete(keys.state, keys.messages, keys.summary)
            return None

    @metrics.store_operation("save")
    def save(
        self, session: Session, expected_version: int | None, *, release: Lease | None = None
    ) -> None:
        keys = self.keys(session.run_id)
        now_ms = self._now_ms()
        state = session.model_dump_json(exclude={"messages", "summary"})
        messages = _MESSAGES.dump_json(session.messages).decode()
        with give_back(release), self._errors():
            written, stored = self._save_script(
                keys=[keys.state, keys.messages, keys.summary, keys.tombstone, keys.lease],
                args=[
                    "" if expected_version is None else str(expected_version),
                    str(session.version),
                    state,
                    messages,
                    session.summary.model_dump_json(),
                    now_ms,
                    _ms(self.session_ttl),
                    now_ms + _ms(self.max_lifetime),
                    "" if release is None else release.owner,
                ],
            )
            if written == -1:
                raise run_erased(session.run_id)
            if written != 1:
                raise version_conflict(session.run_id, expected_version, _text(stored) or None)

    @metrics.store_operation("delete")
    def delete(self, run_id: str) -> None:
        with self._errors():
            self._client.delete(*self.keys(run_id).all())

    @metrics.store_operation("erase")
    def erase(self, run_id: str) -> None:
        keys = self.keys(run_id)
        with self._errors():
            self._erase_script(keys=[keys.tombstone, *keys.all()], args=[_ms(self.max_lifetime)])

    @metrics.store_operation("is_erased")
    def is_erased(self, run_id: str) -> bool:
        with self._errors():
            return bool(self._client.exists(self.keys(run_id).tombstone))

    @metrics.store_operation("ping")
    def ping(self) -> None:
        with self._errors():
            self._client.ping()

    def lease(
        self, run_id: str, owner: str, *, wait: float, load: bool = False
    ) -> AbstractContextManager[HeldLease]:
        return hold_lease(self, run_id, owner, wait=wait, lease_ttl=self.lease_ttl, load=load)

    def close(self) -> None:
        if self._owns_client:
            with self._errors():
                self._client.close()

    # -- LeaseOps ------------------------------------------------------------------------

    @metrics.store_operation("lease_acquire")
    def lease_try_acquire(self, run_id: str, owner: str, waiter: str | None = None) -> bool:
        queue, seen, counter = self.queue_keys(run_id)
        with self._errors():
            acquired = self._acquire_script(
                keys=[self.keys(run_id).lease, queue, seen, counter],
                args=[owner, waiter or "", self._now_ms(), _ms(QUEUE_STALE), _ms(self.lease_ttl)],
            )
        return acquired == 1

    @metrics.store_operation("lease_acquire_load")
    def lease_try_acquire_and_load(self, run_id: str, owner: str) -> tuple[bool, Session | None]:
        keys = self.keys(run_id)
        queue, seen, counter = self.queue_keys(run_id)
        with self._errors():
            found = self._acquire_and_load_script(
                keys=[keys.lease, queue, seen, counter, keys.state, keys.messages, keys.summary],
                args=[
                    owner,
                    self._now_ms(),
                    _ms(QUEUE_STALE),
                    _ms(self.lease_ttl),
                    _ms(self.session_ttl),
                ],
            )
        if found[0] != 1:
            return False, None
        if len(found) == 1:
            return True, None
        return True, self._decoded(run_id, keys, *found[1:])

    @metrics.store_operation("lease_leave_queue")
    def lease_leave_queue(self, run_id: str, waiter: str) -> None:
        queue, seen, _ = self.queue_keys(run_id)
        with self._errors():
            self._leave_queue_script(keys=[queue, seen], args=[waiter])

    def queue_keys(self, run_id: str) -> tuple[str, str, str]:
        """The run's waiting queue: places, last polls, ticket counter (one hash tag with
        its session; outside ``…:session:…``, so a scan for sessions never counts them)."""
        tag = f"{{{check_run_id(run_id)}}}"
        return (
            f"{self.prefix}:lease-queue:{tag}",
            f"{self.prefix}:lease-seen:{tag}",
            f"{self.prefix}:lease-ticket:{tag}",
        )

    @metrics.store_operation("lease_renew")
    def lease_renew(self, run_id: str, owner: str) -> bool:
        with self._errors():
            renewed = self._renew_script(
                keys=[self.keys(run_id).lease], args=[owner, _ms(self.lease_ttl)]
            )
        return renewed == 1

    @metrics.store_operation("lease_release")
    def lease_release(self, run_id: str, owner: str) -> None:
        with self._errors():
            self._release_script(keys=[self.keys(run_id).lease], args=[owner])

    # -- internals -----------------------------------------------------------------------

    def _now_ms(self) -> int:
        return int(self._clock() * 1000)

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except redis.RedisError as exc:
            raise StorageError(
                speak("storage", "redis.failed", where=self._where, reason=exc)
            ) from exc


def _ms(seconds: float) -> int:
    return max(1, int(seconds * 1000))


def _text(value: object) -> str | None:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def _describe(client: redis.Redis) -> str:
    """Where the client points, for error messages; never includes a password."""
    kwargs = client.connection_pool.connection_kwargs
    if "path" in kwargs:
        return f"unix://{kwargs['path']}?db={kwargs.get('db', 0)}"
    host, port = kwargs.get("host", "localhost"), kwargs.get("port", 6379)
    return f"redis://{host}:{port}/{kwargs.get('db', 0)}"
