"""A lease that cannot be given back (the store went away) never fails the turn it served."""

from __future__ import annotations

import logging

import pytest

from giftgenius.errors import StorageError
from giftgenius.storage.leases import hold_lease


class _StoreGoneAtRelease:
    """Lease primitives whose store disappears once the lease is taken."""

    def __init__(self) -> None:
        self.released = 0

    def lease_try_acquire(self, run_id: str, owner: str, waiter: str | None = None) -> bool:
        return True

    def lease_leave_queue(self, run_id: str, waiter: str) -> None:
        return None

    def lease_renew(self, run_id: str, owner: str) -> bool:
        return True

    def lease_release(self, run_id: str, owner: str) -> None:
        self.released += 1
        raise StorageError("The Redis session store at redis://127.0.0.1:1/0 failed.")


def test_a_turn_that_ended_well_is_not_failed_by_the_release(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ops = _StoreGoneAtRelease()
    with caplog.at_level(logging.WARNING), hold_lease(ops, "r1", "turn-a", wait=0, lease_ttl=5):
        pass  # the turn committed
    assert ops.released == 1
    (record,) = [r for r in caplog.records if getattr(r, "event", None) == "lease_release_failed"]
    assert record.run_id == "r1" and "lapses within its ttl" in record.getMessage()


def test_a_failing_turn_keeps_its_own_error() -> None:
    ops = _StoreGoneAtRelease()
    with (
        pytest.raises(ValueError, match="the turn's own"),
        hold_lease(ops, "r1", "turn-a", wait=0, lease_ttl=5),
    ):
        raise ValueError("the turn's own error")
    assert ops.released == 1
