"""A database that answers but cannot do the work is named for what happened.

A full disk, or a statement with more values than the server takes, used to come out as
"Cannot reach the database … check that the server is running", which sends the person to
look at a server that is running fine.
"""

from __future__ import annotations

from pathlib import Path

import psycopg.errors
import pytest
import sqlalchemy as sa
from sqlalchemy.exc import OperationalError

from giftgenius.errors import StorageError
from giftgenius.storage.db import Database


def _select_in() -> sa.TextClause:
    return sa.text("SELECT 1 WHERE 1 IN :xs").bindparams(sa.bindparam("xs", expanding=True))


@pytest.mark.slow
def test_a_full_sqlite_file_says_the_disk_is_full(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'full.db'}")
    try:
        db.prepare()
        with pytest.raises(StorageError) as caught, db.write() as repos:
            pages = repos.session.execute(sa.text("PRAGMA page_count")).scalar_one()
            repos.session.execute(sa.text(f"PRAGMA max_page_count = {pages + 1}"))
            repos.session.execute(sa.text("CREATE TABLE filler (x BLOB)"))
            repos.session.execute(sa.text("INSERT INTO filler VALUES (randomblob(1000000))"))
    finally:
        db.dispose()
    message = str(caught.value)
    assert "disk is full" in message and "Free some space" in message
    assert "Cannot reach" not in message


@pytest.mark.slow
def test_postgres_out_of_space_says_the_disk_is_full(tmp_path: Path) -> None:
    """Postgres's DiskFull, as psycopg raises it (a full disk cannot be made in a test)."""
    db = Database(f"sqlite:///{tmp_path / 'x.db'}")
    full = psycopg.errors.DiskFull(
        'could not extend file "base/16384/16385": No space left on device'
    )
    try:
        db.prepare()
        with pytest.raises(StorageError) as caught, db.write():
            raise OperationalError("INSERT INTO runs …", {}, full)
    finally:
        db.dispose()
    message = str(caught.value)
    assert "disk is full" in message and "No space left on device" in message
    assert "Cannot reach" not in message


@pytest.mark.slow
def test_too_many_values_for_sqlite_is_named(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'many.db'}")
    try:
        db.prepare()
        with pytest.raises(StorageError) as caught, db.read() as repos:
            repos.session.execute(_select_in(), {"xs": list(range(300_000))})
    finally:
        db.dispose()
    message = str(caught.value)
    assert "more values than it takes at once" in message
    assert "Cannot reach" not in message


@pytest.mark.slow
@pytest.mark.postgres
def test_too_many_values_for_postgres_is_named(migrated_postgres_url: str) -> None:
    db = Database(migrated_postgres_url)
    try:
        with pytest.raises(StorageError) as caught, db.read() as repos:
            repos.session.execute(_select_in(), {"xs": list(range(70_000))})
    finally:
        db.dispose()
    message = str(caught.value)
    assert "more values than it takes at once" in message and "65535" in message
    assert "Cannot reach" not in message
