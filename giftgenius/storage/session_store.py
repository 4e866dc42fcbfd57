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
        stored TTL restarts (sliding), never beyond the session's max lifetime.
        """

    def delete(self, run_id: str) -> None:
        """Remove the live session and its lease (used by /restart and forget)."""

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
