"""A separate OS process doing read-modify-write updates of one session, for concurrency tests.

Usage: sessions_worker.py BACKEND TARGET PREFIX RUN_ID COUNT
  BACKEND sqlite (TARGET = file path) or redis (TARGET = URL; PREFIX = key prefix).
Prints "ready", waits for a line on stdin (so all workers start together), does COUNT
updates through ``update_session`` and prints one JSON line of stats.
"""

from __future__ import annotations

import json
import sys

from giftgenius.domain import Session
from giftgenius.storage.session_store import SessionStore, update_session


def open_store(backend: str, target: str, prefix: str) -> SessionStore:
    options = {"session_ttl": 600, "max_lifetime": 3600, "lease_ttl": 5.0}
    if backend == "sqlite":
        from giftgenius.storage.sqlite_sessions import SqliteSessionStore

        return SqliteSessionStore(target, **options)
    from giftgenius.storage.redis_sessions import RedisSessionStore

    return RedisSessionStore.from_url(target, prefix=prefix, **options)


def main(argv: list[str]) -> int:
    backend, target, prefix, run_id, count = argv
    store = open_store(backend, target, prefix)
    calls = 0

    def bump(session: Session) -> None:
        nonlocal calls
        calls += 1
        session.usage.requests += 1

    print("ready", flush=True)
    sys.stdin.readline()
    try:
        for _ in range(int(count)):
            if update_session(store, run_id, bump, attempts=10_000) is None:
                print(json.dumps({"error": "session vanished"}), flush=True)
                return 1
    finally:
        store.close()
    print(json.dumps({"updates": int(count), "attempts": calls}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
