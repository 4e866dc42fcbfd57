"""Many processes opening a brand-new SQLite file at the same instant must all succeed.

Switching a new file to WAL needs an exclusive lock that SQLite does not always wait for on
its busy handler, so simultaneous first opens can fail with "database is locked" at once.
Both SQLite stores (the session cache and the database) open their files through one
helper that retries; these tests release 8 processes at a barrier onto a fresh file, round
after round, and require every open to succeed.
"""

from __future__ import annotations

import multiprocessing
import time
from multiprocessing.synchronize import Barrier
from pathlib import Path
from typing import Any

import pytest

PROCESSES = 8
ROUNDS = 15
TIMEOUT = 300


def _open_sessions(path: Path) -> None:
    from giftgenius.storage.sqlite_sessions import SqliteSessionStore

    store = SqliteSessionStore(path, session_ttl=60, max_lifetime=600, lease_ttl=5)
    store.close()


def _open_database(path: Path) -> None:
    from giftgenius.storage.db import Database

    db = Database(f"sqlite:///{path}")
    try:
        with db.engine.connect():
            pass
    finally:
        db.dispose()


_OPENERS = {"sessions": _open_sessions, "database": _open_database}


def _worker(kind: str, folder: str, barrier: Barrier, results: Any) -> None:
    """Open round r's fresh file as soon as every process reached the barrier."""
    opener = _OPENERS[kind]
    outcomes = []
    for round_no in range(ROUNDS):
        path = Path(folder) / f"round-{round_no}" / f"{kind}.db"
        barrier.wait(TIMEOUT)
        started = time.monotonic()
        try:
            opener(path)
        except Exception as exc:
            outcomes.append((round_no, f"{type(exc).__name__}: {exc}", time.monotonic() - started))
        else:
            outcomes.append((round_no, None, time.monotonic() - started))
    results.put(outcomes)


def _run(kind: str, folder: Path) -> list[tuple[int, str | None, float]]:
    context = multiprocessing.get_context("spawn")  # no inherited threads or connections
    for round_no in range(ROUNDS):  # a database file's folder must exist (a typo is refused)
        (folder / f"round-{round_no}").mkdir(parents=True, exist_ok=True)
    barrier = context.Barrier(PROCESSES)
    results = context.Queue()
    workers = [
        context.Process(target=_worker, args=(kind, str(folder), barrier, results))
        for _ in range(PROCESSES)
    ]
    for worker in workers:
        worker.start()
    try:
        outcomes = [item for _ in workers for item in results.get(timeout=TIMEOUT)]
    finally:
        for worker in workers:
            worker.join(TIMEOUT)
            if worker.is_alive():
                worker.kill()
    assert all(worker.exitcode == 0 for worker in workers)
    return outcomes


@pytest.mark.slow
@pytest.mark.parametrize("kind", sorted(_OPENERS))
def test_processes_opening_a_fresh_file_at_once_all_succeed(kind: str, tmp_path: Path) -> None:
    outcomes = _run(kind, tmp_path)

    assert len(outcomes) == PROCESSES * ROUNDS
    failures = [(r, error, round(elapsed, 2)) for r, error, elapsed in outcomes if error]
    assert failures == [], f"{len(failures)} of {len(outcomes)} opens failed"
    # Every file really is in WAL mode afterwards, whoever switched it.
    import sqlite3

    for round_no in range(ROUNDS):
        conn = sqlite3.connect(tmp_path / f"round-{round_no}" / f"{kind}.db")
        try:
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        finally:
            conn.close()
