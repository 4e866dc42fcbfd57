"""Reads on Postgres are single statements on read-only connections: no BEGIN, no ROLLBACK."""

from __future__ import annotations

import pytest
from psycopg.pq import TransactionStatus

from giftgenius.errors import StorageError
from giftgenius.storage.db import Database

pytestmark = pytest.mark.postgres


@pytest.mark.slow
def test_a_read_leaves_no_transaction_open_on_the_server(migrated_postgres_url: str) -> None:
    db = Database(migrated_postgres_url)
    try:
        with db.read() as repos:
            assert repos.runs.get("no-such-run") is None
            raw = repos.session.connection().connection.driver_connection
            assert raw is not None
            assert raw.info.transaction_status == TransactionStatus.IDLE
    finally:
        db.dispose()


@pytest.mark.slow
def test_a_write_inside_a_read_is_still_refused(migrated_postgres_url: str) -> None:
    db = Database(migrated_postgres_url)
    try:
        with pytest.raises(StorageError, match=r"inside db\.read\(\)"), db.read() as repos:
            repos.users.ensure("somebody")
        with db.read() as repos:
            assert not repos.users.exists("somebody")
    finally:
        db.dispose()
