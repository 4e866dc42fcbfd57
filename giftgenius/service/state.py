"""What one service process holds: the settings, the agent (built once), the rate limiter."""

from __future__ import annotations

import math
import threading
from typing import TYPE_CHECKING

from fastapi import Request

from giftgenius.settings import Settings

if TYPE_CHECKING:
    from giftgenius.agent.runner import Agent
    from giftgenius.storage.rate_limits import RateLimiter


class Service:
    """The process's agent and limiter, made on first use (or at start-up by ``warm``).

    One agent serves every request: its stores are pools, safe across threads, and each
    turn works on copies of its session under the session's lease.
    """

    def __init__(self, settings: Settings, agent: Agent | None = None) -> None:
        self.settings = settings
        self._agent = agent
        self._limiter: RateLimiter | None = None
        self._lock = threading.Lock()

    @property
    def busy_retry(self) -> float:
        """Seconds a client is told to wait on a busy session: a lease's lifetime, after
        which even a crashed holder's lease has lapsed."""
        return float(math.ceil(self.settings.lease_ttl))

    def agent(self) -> Agent:
        if self._agent is None:
            with self._lock:
                if self._agent is None:
                    from giftgenius.app import build_agent

                    self._agent = build_agent(self.settings)
        return self._agent

    def limiter(self) -> RateLimiter:
        if self._limiter is None:
            with self._lock:
                if self._limiter is None:
                    from giftgenius.storage.rate_limits import RateLimiter

                    self._limiter = RateLimiter.from_settings(self.settings)
        return self._limiter

    def ping_sessions(self) -> None:
        """Ask the session store; without an agent yet (the database may be what failed),
        on a store of its own."""
        if self._agent is not None:
            self._agent.sessions.ping()
            return
        from giftgenius.storage.session_store import make_session_store

        store = make_session_store(self.settings)
        try:
            store.ping()
        finally:
            store.close()

    def warm(self) -> None:
        self.agent()
        self.limiter()

    def close(self) -> None:
        with self._lock:
            if self._agent is not None:
                self._agent.close()
                self._agent = None
            if self._limiter is not None:
                self._limiter.close()
                self._limiter = None


def service(request: Request) -> Service:
    """The process's ``Service`` (a FastAPI dependency)."""
    found: Service = request.app.state.service
    return found
