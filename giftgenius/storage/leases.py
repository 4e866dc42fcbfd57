"""Leases: one turn at a time per conversation, across processes and machines.

The lease machinery (wait with backoff, background renewal, compare-and-release) lives
here once so both backends behave identically; a backend only supplies three atomic
primitives (``LeaseOps``). A lease only serializes turns: a holder whose lease lapsed is
stopped by the version fence on commit and the check-and-set on save, not by asking the
lease. Retries and backoff are tenacity's.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from tenacity import (
    RetryCallState,
    Retrying,
    retry_if_result,
    stop_after_delay,
    wait_exponential,
)

from giftgenius import messages as catalogue
from giftgenius import metrics
from giftgenius.errors import SessionBusy, StorageError, UsageError, VersionConflict
from giftgenius.storage.session_store import Lease, check_run_id

if TYPE_CHECKING:
    from giftgenius.domain import Session

log = logging.getLogger(__name__)

BUSY_MESSAGE = catalogue.text("errors", "busy", "en")


# A waiter that has not polled for this long left (its process died): it loses its place.
QUEUE_STALE = 2.0


class LeaseOps(Protocol):
    """The atomic primitives a backend provides; each is one round trip / transaction.

    Waiting windows are served in the order they came: a waiter takes a place in the
    run's queue with its first queued try and keeps it by polling (a place not polled for
    ``QUEUE_STALE`` seconds is dropped), and the lease goes only to the queue's head — or,
    on a try without a waiter, only when nobody is queued. Without the queue the lease
    went to whichever poll came first after a release, and with sixteen windows some
    starved while others got every message through.
    """

    def lease_try_acquire(self, run_id: str, owner: str, waiter: str | None = None) -> bool:
        """Take the lease for ``owner`` if it is free and ``waiter`` is first in the queue
        (queued now if it was not); with no ``waiter``, only if nobody is queued."""

    def lease_leave_queue(self, run_id: str, waiter: str) -> None:
        """Give up a place in the queue (a waiter whose time ran out)."""

    def lease_renew(self, run_id: str, owner: str) -> bool:
        """Extend the lease iff ``owner`` still holds it (and it has not expired)."""

    def lease_release(self, run_id: str, owner: str) -> None:
        """Delete the lease iff ``owner`` still holds it."""

    def lease_try_acquire_and_load(self, run_id: str, owner: str) -> tuple[bool, Session | None]:
        """``lease_try_acquire`` without a waiter and, when it took the lease, ``load`` —
        in the same atomic step (one round trip / transaction): the lease and the live
        session. Nothing is loaded (nor its TTL slid) when the lease was not taken."""

    def load(self, run_id: str) -> Session | None:
        """The live session (``SessionStore.load``)."""


class HeldLease:
    """A lease held for one turn; the process's lease keeper renews it until released."""

    def __init__(self, ops: LeaseOps, run_id: str, owner: str, lease_ttl: float) -> None:
        self.run_id = run_id
        self.owner = owner
        self._ops = ops
        self._interval = lease_ttl / 3
        self._released = False  # set by the keeper's ``remove``, under its lock
        self._lost = threading.Event()
        self._renewed = threading.Condition()
        self._renewals = 0
        self.session: Session | None = None  # loaded with the lease (``hold_lease(load=True)``)
        self.returned = False  # given back by the store already (``give_back``)

    @property
    def renewals(self) -> int:
        return self._renewals

    @property
    def lost(self) -> bool:
        return self._lost.is_set()

    def wait_for_renewals(self, count: int, timeout: float) -> bool:
        """Block until ``count`` successful renewals happened (or the lease was lost)."""
        with self._renewed:
            return self._renewed.wait_for(
                lambda: self._renewals >= count or self._lost.is_set(), timeout
            )

    def _mark_lost(self) -> None:
        self._lost.set()
        with self._renewed:
            self._renewed.notify_all()

    def _renew(self) -> bool:
        """Renew once (on the keeper's thread); whether to keep renewing this lease."""
        try:
            still_ours = self._ops.lease_renew(self.run_id, self.owner)
        except StorageError as exc:
            # Transient store trouble: keep trying; if the lease lapses meanwhile, the
            # version fence stops this turn's commit.
            log.warning("lease renewal failed for run %s: %s", self.run_id, exc)
            return True
        except Exception:  # a bug: stop renewing this lease, never the keeper itself
            log.exception("lease renewal of run %s failed unexpectedly", self.run_id)
            return False
        if not still_ours:
            log.warning("lease on run %s lapsed; owner %s lost it", self.run_id, self.owner)
            self._mark_lost()
            return False
        with self._renewed:
            self._renewals += 1
            self._renewed.notify_all()
        return True


class _LeaseKeeper:
    """One daemon thread per process that renews every held lease when it falls due.

    A thread started and joined per turn cost more than the rest of a turn's bookkeeping
    (about a millisecond to start, and the join waits for the scheduler on a busy machine);
    the keeper is started once and a lease only enters and leaves its table. ``remove``
    waits while that lease's renewal is under way, so none runs after the lease is given
    back — what joining the old per-lease thread guaranteed.
    """

    def __init__(self) -> None:
        self.pid = os.getpid()
        self._cond = threading.Condition()
        self._due: dict[HeldLease, float] = {}
        self._renewing: HeldLease | None = None
        # When the keeper thread wakes next by itself (monotonic; inf: only when told). A
        # lease due no sooner needs no wake-up call: waking the thread at every turn made
        # the turn's thread wait for the GIL and the condition's lock on a busy machine.
        self._wake_at = float("inf")
        self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
        self._thread.start()

    def add(self, lease: HeldLease) -> None:
        with self._cond:
            due = time.monotonic() + lease._interval
            self._due[lease] = due
            if due < self._wake_at:
                self._cond.notify_all()

    def remove(self, lease: HeldLease) -> None:
        with self._cond:
            lease._released = True
            self._due.pop(lease, None)
            while self._renewing is lease:
                self._cond.wait()

    def _next_due(self) -> HeldLease:
        """Wait (under the lock) until a lease falls due, and take it off the table."""
        while True:
            if not self._due:
                if self._wake_at == float("inf"):
                    self._cond.wait()
                else:  # keep the wake-up a lease added meanwhile may count on
                    self._cond.wait(max(0.0, self._wake_at - time.monotonic()))
                    if time.monotonic() >= self._wake_at:
                        self._wake_at = float("inf")
                continue
            lease, due = min(self._due.items(), key=lambda item: item[1])
            now = time.monotonic()
            if due <= now:
                del self._due[lease]
                self._renewing = lease
                return lease
            self._wake_at = due
            self._cond.wait(due - now)

    def _run(self) -> None:
        while True:
            with self._cond:
                lease = self._next_due()
            keep = lease._renew()
            with self._cond:
                self._renewing = None
                if keep and not lease._released:
                    self._due[lease] = time.monotonic() + lease._interval
                self._cond.notify_all()


_keeper: _LeaseKeeper | None = None
_keeper_lock = threading.Lock()


def _lease_keeper() -> _LeaseKeeper:
    """The process's keeper, started on first use (again in a forked child: no thread
    survives a fork)."""
    global _keeper
    with _keeper_lock:
        if _keeper is None or _keeper.pid != os.getpid():
            _keeper = _LeaseKeeper()
        return _keeper


@contextmanager
def hold_lease(
    ops: LeaseOps,
    run_id: str,
    owner: str,
    *,
    wait: float,
    lease_ttl: float,
    load: bool = False,
) -> Iterator[HeldLease]:
    """Acquire (polling with backoff for up to ``wait`` s), renew while held, release.

    With ``load`` the live session comes with the lease (``HeldLease.session``): taken in
    the lease's own round trip when the lease is free at once, loaded after it otherwise.
    A lease the store gave back already (``give_back``: the session's save released it)
    is not released again.
    """
    check_run_id(run_id)
    if not owner:
        raise UsageError("A lease owner must be a non-empty string (e.g. a process/turn id).")
    wait = max(0.0, wait)
    session: Session | None = None
    if load:
        acquired, session = ops.lease_try_acquire_and_load(run_id, owner)
        if not acquired:
            acquired = _acquire(ops, run_id, owner, wait=wait, tried=True)
            if acquired:
                session = ops.load(run_id)
    else:
        acquired = _acquire(ops, run_id, owner, wait=wait)
    if not acquired:
        raise SessionBusy(BUSY_MESSAGE)
    lease = HeldLease(ops, run_id, owner, lease_ttl)
    lease.session = session
    keeper = _lease_keeper()
    keeper.add(lease)
    metrics.session_started()
    try:
        yield lease
    finally:
        metrics.session_ended()
        keeper.remove(lease)
        if not lease.returned:
            _release(ops, run_id, owner)


@contextmanager
def give_back(lease: Lease | None) -> Iterator[None]:
    """Around a store operation that also releases ``lease`` (a save that gives the lease
    back in its own round trip): the keeper stops renewing it first, and once the store
    answered — written, or refused (``VersionConflict``, ``RunErased``) — ``hold_lease``
    does not release it again; a store that did not answer leaves it to ``hold_lease``."""
    if not isinstance(lease, HeldLease):
        yield
        return
    _lease_keeper().remove(lease)
    try:
        yield
    except VersionConflict:
        lease.returned = True  # the store answered (a refusal releases all the same)
        raise
    lease.returned = True


def _release(ops: LeaseOps, run_id: str, owner: str) -> None:
    """Give the lease back; if the store is gone, log it and let the lease lapse by itself.

    Never raised: by the time a lease is released the turn has either committed (and must
    be answered, not reported as failed because Redis went away meanwhile) or failed with
    its own error, which a release error must not mask. An unreleased lease costs a waiting
    window at most the lease ttl.
    """
    try:
        ops.lease_release(run_id, owner)
    except StorageError as exc:
        log.warning(
            "could not release the lease on run %s; it lapses within its ttl: %s",
            run_id,
            exc,
            extra={"event": "lease_release_failed", "run_id": run_id},
        )


def _acquire(ops: LeaseOps, run_id: str, owner: str, *, wait: float, tried: bool = False) -> bool:
    """Try to take the lease, polling with backoff for up to ``wait`` s; False if never.

    ``tried``: the first try without a place in the queue was made already.
    """
    if not tried and ops.lease_try_acquire(run_id, owner):  # the usual case, no tenacity
        return True
    if wait <= 0:
        return False
    waiter = f"{owner}#{uuid.uuid4().hex[:12]}"  # one place in the queue for this wait
    started, outcome = time.perf_counter(), "error"  # the store failed mid-wait
    try:
        acquired = _wait_in_queue(ops, run_id, owner, waiter, wait)
        outcome = "acquired" if acquired else "busy"
        return acquired
    finally:
        metrics.lease_waited(time.perf_counter() - started, outcome)
        with contextlib.suppress(StorageError):  # a dead store keeps no queue to leave
            ops.lease_leave_queue(run_id, waiter)


def _wait_in_queue(ops: LeaseOps, run_id: str, owner: str, waiter: str, wait: float) -> bool:
    """Poll with backoff (never longer apart than a place is kept) until the lease is
    this waiter's, or ``wait`` s have passed."""
    backoff = wait_exponential(multiplier=0.01, exp_base=1.5, max=0.1)

    def until_the_deadline(state: RetryCallState) -> float:
        # The last poll happens at the deadline itself, not a backoff step before or after.
        return max(0.0, min(backoff(state), wait - (state.seconds_since_start or 0.0)))

    retrying = Retrying(
        retry=retry_if_result(lambda acquired: not acquired),
        stop=stop_after_delay(wait),
        wait=until_the_deadline,
        retry_error_callback=lambda _state: False,
    )
    return bool(retrying(ops.lease_try_acquire, run_id, owner, waiter))
