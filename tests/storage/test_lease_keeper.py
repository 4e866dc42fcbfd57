"""Held leases are renewed by one keeper thread per process, never a thread per turn."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from giftgenius.storage.leases import hold_lease
from giftgenius.storage.sqlite_sessions import SqliteSessionStore


class _CountingOps:
    """Lease primitives that always succeed and count the renewals per run."""

    def __init__(self) -> None:
        self.renewed: dict[str, int] = {}
        self.lock = threading.Lock()

    def lease_try_acquire(self, run_id: str, owner: str, waiter: str | None = None) -> bool:
        return True

    def lease_leave_queue(self, run_id: str, waiter: str) -> None:
        return None

    def lease_renew(self, run_id: str, owner: str) -> bool:
        with self.lock:
            self.renewed[run_id] = self.renewed.get(run_id, 0) + 1
        return True

    def lease_release(self, run_id: str, owner: str) -> None:
        return None


def test_turns_one_after_another_start_no_thread_each(tmp_path: Path) -> None:
    store = SqliteSessionStore(
        tmp_path / "sessions.db", session_ttl=60, max_lifetime=600, lease_ttl=5
    )
    before = set(threading.enumerate())
    started: set[threading.Thread] = set()
    for number in range(6):
        with store.lease(f"run-{number}", "turn-a", wait=0):
            started |= set(threading.enumerate()) - before
    store.close()
    assert len(started) <= 1, sorted(t.name for t in started)


@pytest.mark.slow
def test_leases_held_side_by_side_are_each_renewed_and_none_after_release() -> None:
    ops = _CountingOps()
    with (
        hold_lease(ops, "left", "turn-a", wait=0, lease_ttl=0.15) as left,
        hold_lease(ops, "right", "turn-b", wait=0, lease_ttl=0.15) as right,
    ):
        assert left.wait_for_renewals(3, timeout=10)
        assert right.wait_for_renewals(3, timeout=10)
    after_release = dict(ops.renewed)
    threading.Event().wait(0.3)  # six renewal intervals
    assert ops.renewed == after_release
