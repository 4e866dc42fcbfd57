"""The session store contract: live working copies of runs, under a sliding TTL.

Every backend (Redis in production, a SQLite file embedded) passes the same contract
suite in ``tests/storage/test_sessions_contract.py``.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Protocol

from giftgenius.domain import Session


class SessionStore(Protocol):
    def load(self, run_id: str) -> Session | None:
        """The live session, or None if it expired or never existed. Refreshes the TTL."""

    def save(self, session: Session, expected_version: int | None) -> None:
        """Check-and-set: write iff the stored version equals ``expected_version``.

        ``None`` means "must not exist yet". Raises ``VersionConflict`` otherwise. The
        stored TTL restarts (sliding), never beyond the session's max lifetime. Raises
        ``RunErased`` (and writes nothing) while the run has a tombstone (``erase``) — in
        the same atomic step as the version check, so no interleaving writes one back.
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

    def ping(self) -> None:
        """Raise ``StorageError`` unless the store answers (checked before a run is made)."""

    def lease(self, run_id: str, owner: str, *, wait: float) -> AbstractContextManager[Lease]:
        """Hold the run's lease for one turn; waits up to ``wait`` s then ``SessionBusy``.

        While held, the lease is renewed in the background so a slow model call does not
        lose it. If it lapses anyway, the version fence on commit and the check-and-set on
        save stop the late holder; the lease itself is never asked.
        """

    def close(self) -> None: ...


class Lease(Protocol):
    run_id: str
    owner: str
