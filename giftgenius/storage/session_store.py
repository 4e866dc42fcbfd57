"""The session store contract: live working copies of runs, under a sliding TTL.

Also what every caller of a store needs: the factory (Redis or the embedded SQLite file) and
read-modify-write with retries. Leases are ``leases.py``.

Every backend (Redis in production, a SQLite file embedded) passes the same contract
suite in ``tests/storage/test_sessions_contract.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

from tenacity import Retrying, retry_if_exception_type, stop_after_attempt, wait_random_exponential

from giftgenius.domain import Session, utcnow
from giftgenius.errors import RunErased, UsageError, VersionConflict
from giftgenius.messages import speak

if TYPE_CHECKING:
    from giftgenius.settings import Settings


class SessionStore(Protocol):
    def load(self, run_id: str) -> Session | None:
        """The live session, or None if it expired or never existed. Refreshes the TTL."""

    def save(
        self, session: Session, expected_version: int | None, *, release: Lease | None = None
    ) -> None:
        """Check-and-set: write iff the stored version equals ``expected_version``.

        ``None`` means "must not exist yet". Raises ``VersionConflict`` otherwise. The
        stored TTL restarts (sliding), never beyond the session's max lifetime. Raises
        ``RunErased`` (and writes nothing) while the run has a tombstone (``erase``) — in
        the same atomic step as the version check, so no interleaving writes one back.

        ``release``: the turn's lease (from ``lease``), given back in the same atomic step
        — one round trip — whether the save is written or refused; only its own holder's
        lease, as a release would (a lapsed holder never removes a newer one).
        """

    def delete(self, run_id: str) -> None:
        """Remove the live session and its lease (used by /restart and demos)."""

    def erase(self, run_id: str) -> None:
        """Leave a tombstone for the run and remove its live session and lease, atomically.

        Used by ``forget``. The tombstone outlives any session (its TTL is the max
        lifetime), and every ``save`` of the run is refused while it lives: a turn that
        was in flight when its run was erased cannot put the session back, even if it is
        killed or loses the database right after its save.
        """

    def is_erased(self, run_id: str) -> bool:
        """Whether the run has a live tombstone (``erase``): what other stores of the run's
        data (long-term memory) ask before and after they write, so ``forget`` wins there
        too."""

    def ping(self) -> None:
        """Raise ``StorageError`` unless the store answers (checked before a run is made)."""

    def lease(
        self, run_id: str, owner: str, *, wait: float, load: bool = False
    ) -> AbstractContextManager[Lease]:
        """Hold the run's lease for one turn; waits up to ``wait`` s then ``SessionBusy``.

        While held, the lease is renewed in the background so a slow model call does not
        lose it. If it lapses anyway, the version fence on commit and the check-and-set on
        save stop the late holder; the lease itself is never asked.

        With ``load``, the live session comes with the lease (``Lease.session``, as
        ``load`` returns it): in the same atomic step as taking a free lease, one round
        trip; a busy lease loads nothing until it is taken.
        """

    def close(self) -> None: ...


class Lease(Protocol):
    run_id: str
    owner: str
    session: Session | None  # with ``lease(load=True)``: the live session


Clock = Callable[[], float]
"""Epoch seconds; injectable so TTL tests move time instead of sleeping."""


def make_session_store(settings: Settings, *, clock: Clock | None = None) -> SessionStore:
    """Redis when ``settings.redis_url`` is set, else the embedded SQLite file."""
    if settings.redis_url:
        from giftgenius.storage.redis_sessions import RedisSessionStore

        return RedisSessionStore.from_url(
            settings.redis_url,
            prefix=settings.redis_prefix,
            session_ttl=settings.session_ttl,
            max_lifetime=settings.session_max_lifetime,
            lease_ttl=settings.lease_ttl,
            clock=clock,
        )
    from giftgenius.storage.sqlite_sessions import SqliteSessionStore

    return SqliteSessionStore(
        settings.sessions_path,
        session_ttl=settings.session_ttl,
        max_lifetime=settings.session_max_lifetime,
        lease_ttl=settings.lease_ttl,
        clock=clock,
    )


def update_session(
    store: SessionStore,
    run_id: str,
    fn: Callable[[Session], Session | None],
    *,
    attempts: int = 20,
    backoff: float = 0.002,
    max_backoff: float = 0.05,
) -> Session | None:
    """Load, apply ``fn``, save with check-and-set; on a lost race, reload and retry.

    ``fn`` mutates the session in place (or returns a replacement); it may run several
    times, so it must not have side effects. The saved session's ``version`` is bumped
    here. Returns the saved session, or None when there is no live session (expired or
    never created: the caller rebuilds it). Raises ``VersionConflict`` after ``attempts``.
    """
    if attempts < 1:
        raise ValueError("attempts must be at least 1")
    retrying = Retrying(
        retry=retry_if_exception_type(VersionConflict),
        stop=stop_after_attempt(attempts),
        # Full jitter: contenders spread out instead of colliding again in lockstep.
        wait=wait_random_exponential(multiplier=backoff, max=max_backoff),
        reraise=True,
    )
    return retrying(_update_once, store, run_id, fn)


def _update_once(
    store: SessionStore, run_id: str, fn: Callable[[Session], Session | None]
) -> Session | None:
    session = store.load(run_id)
    if session is None:
        return None
    expected = session.version
    changed = fn(session)
    if changed is not None:
        session = changed
    session.version = expected + 1
    session.updated_at = utcnow()
    store.save(session, expected_version=expected)
    return session


def check_run_id(run_id: str) -> str:
    """Run ids become key parts (and a Redis hash tag), so braces and blanks are refused."""
    if not run_id or "{" in run_id or "}" in run_id or any(c.isspace() for c in run_id):
        raise UsageError(speak("storage", "run.id_invalid", run=repr(run_id)))
    return run_id


def run_erased(run_id: str) -> RunErased:
    """What a backend raises for a save refused by the run's tombstone (``erase``)."""
    return RunErased(speak("storage", "run.erased", run=run_id))


def version_conflict(run_id: str, expected: object, stored: object) -> VersionConflict:
    """What a backend raises for a save whose check-and-set lost: the version it expected
    (None: no session yet) and the one the store holds (None: none, expired or deleted)."""
    want = (
        speak("storage", "session.none_yet")
        if expected is None
        else speak("storage", "session.version", version=expected)
    )
    have = (
        speak("storage", "session.gone")
        if stored is None
        else speak("storage", "session.version", version=stored)
    )
    return VersionConflict(
        speak("storage", "session.changed", run=run_id, expected=want, stored=have)
    )
