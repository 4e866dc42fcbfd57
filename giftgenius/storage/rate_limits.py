"""Requests per user and period for the HTTP service, counted by the ``limits`` library.

A fixed window (``GIFTGENIUS_RATE_LIMIT``, "120/minute"): on Redis one atomic Lua script
per request (``INCR`` and ``EXPIRE`` of the window's key), shared by every worker and
machine; embedded, a counter in this process's memory (one worker is all the embedded
files allow). The key holds a hash of the user id, never the id itself, under
``<GIFTGENIUS_REDIS_PREFIX>:ratelimit``.
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.errors import StorageError as LimitsStorageError
from limits.storage import MemoryStorage, RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter

from giftgenius.errors import StorageError
from giftgenius.messages import speak
from giftgenius.settings import Settings


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    retry_after: int = 0  # whole seconds until the window resets (when refused)


def user_key(user_id: str) -> str:
    """What the counters, and the access log, know of a user: a short hash of the id."""
    return hashlib.sha256(user_id.encode("utf-8")).hexdigest()[:16]


class RateLimiter:
    """One fixed-window counter per user."""

    def __init__(self, limit: str, storage: Storage, *, where: str = "memory") -> None:
        self.item: RateLimitItem = parse(limit)
        self.limit = limit
        self._storage = storage
        self._limiter = FixedWindowRateLimiter(storage)
        self._where = where

    @classmethod
    def from_settings(cls, settings: Settings) -> RateLimiter:
        if not settings.redis_url:
            return cls(settings.rate_limit, MemoryStorage())
        storage = RedisStorage(
            settings.redis_url,
            key_prefix=f"{settings.redis_prefix}:ratelimit",
            wrap_exceptions=True,
            socket_timeout=5.0,
            socket_connect_timeout=2.0,
        )
        return cls(settings.rate_limit, storage, where=_where(settings.redis_url))

    def hit(self, user_id: str) -> Verdict:
        """Count one request of ``user_id``; whether it is within the limit."""
        key = user_key(user_id)
        try:
            if self._limiter.hit(self.item, key):
                return Verdict(True)
            reset = self._limiter.get_window_stats(self.item, key).reset_time
        except LimitsStorageError as exc:
            reason = exc.storage_error
            said = speak("storage", "redis.failed", where=self._where, reason=reason)
            raise StorageError(said) from exc
        return Verdict(False, max(1, math.ceil(reset - time.time())))

    def close(self) -> None:
        if isinstance(self._storage, MemoryStorage):
            self._storage.reset()


def _where(url: str) -> str:
    """The Redis URL without its password, for an error message."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"
