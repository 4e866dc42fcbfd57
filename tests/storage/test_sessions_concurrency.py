"""Several OS processes updating one session: check-and-set must apply every update once."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from giftgenius.domain import Session
from giftgenius.errors import StorageError
from giftgenius.storage.sqlite_sessions import SqliteSessionStore

WORKER = Path(__file__).with_name("sessions_worker.py")
PROCESSES = 4
UPDATES = 250
TIMEOUT = 90


def run_workers(backend: str, target: str, prefix: str, run_id: str) -> list[dict[str, int]]:
    """Start every worker, release them together, and collect their stats."""
    args = [backend, target, prefix, run_id, str(UPDATES)]
    workers = [
        subprocess.Popen(
            [sys.executable, str(WORKER), *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(PROCESSES)
    ]
    try:
        for worker in workers:
            assert worker.stdout is not None
            line = worker.stdout.readline()
            assert line.strip() == "ready", worker.communicate(timeout=TIMEOUT)[1]
        for worker in workers:
            assert worker.stdin is not None
            worker.stdin.write("go\n")
            worker.stdin.flush()
        stats = []
        for worker in workers:
            out, err = worker.communicate(timeout=TIMEOUT)
            assert worker.returncode == 0, err
            stats.append(json.loads(out.strip().splitlines()[-1]))
        return stats
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()


def check_all_applied(store: object, run_id: str, stats: list[dict[str, int]]) -> None:
    final = store.load(run_id)  # type: ignore[attr-defined]
    assert final is not None
    total = PROCESSES * UPDATES
    assert final.usage.requests == total
    assert final.version == total
    assert sum(s["updates"] for s in stats) == total
    print(f"{total} updates took {sum(s['attempts'] for s in stats)} attempts")


@pytest.mark.slow
def test_sqlite_four_processes_apply_every_update(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    store = SqliteSessionStore(path, session_ttl=600, max_lifetime=3600, lease_ttl=5)
    try:
        run_id = uuid.uuid4().hex
        store.save(Session(run_id=run_id, user_id="alice"), expected_version=None)
        stats = run_workers("sqlite", str(path), "-", run_id)
        check_all_applied(store, run_id, stats)
    finally:
        store.close()


@pytest.mark.slow
@pytest.mark.redis
def test_redis_four_processes_apply_every_update(redis_url: str, redis_prefix: str) -> None:
    from giftgenius.storage.redis_sessions import RedisSessionStore

    store = RedisSessionStore.from_url(
        redis_url, prefix=redis_prefix, session_ttl=600, max_lifetime=3600, lease_ttl=5
    )
    try:
        run_id = uuid.uuid4().hex
        store.save(Session(run_id=run_id, user_id="alice"), expected_version=None)
        stats = run_workers("redis", redis_url, redis_prefix, run_id)
        check_all_applied(store, run_id, stats)
    finally:
        store.close()


@pytest.mark.slow
def test_sqlite_locked_too_long_is_a_storage_error_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "sessions.db"
    store = SqliteSessionStore(
        path, session_ttl=600, max_lifetime=3600, lease_ttl=5, busy_timeout=0.2
    )
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another process mid-write, never finishing
        with pytest.raises(StorageError, match=r"sessions\.db stayed locked.*try again"):
            store.save(Session(run_id=uuid.uuid4().hex, user_id="alice"), expected_version=None)
        blocker.execute("ROLLBACK")
        session = Session(run_id=uuid.uuid4().hex, user_id="alice")
        store.save(session, expected_version=None)  # usable again once the lock is gone
        assert store.load(session.run_id) == session
    finally:
        blocker.close()
        store.close()


def test_sqlite_unusable_path_is_a_storage_error(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "file"
    not_a_dir.write_text("")
    with pytest.raises(StorageError, match="GIFTGENIUS_HOME"):
        SqliteSessionStore(not_a_dir / "sessions.db", session_ttl=1, max_lifetime=1, lease_ttl=1)
