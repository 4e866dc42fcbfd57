"""Alembic owns the schema: up, down and up again on both backends; old schemas refused."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext

from giftgenius.errors import SchemaOutdated, StorageError
from giftgenius.settings import load_settings
from giftgenius.storage import migrate
from giftgenius.storage.db import Database, create_db_engine, mask_url, normalize_url
from giftgenius.storage.tables import Base

TABLES = {
    "gift_history",
    "memories",
    "memory_tallies",
    "users",
    "runs",
    "transcript",
    "recipient_profiles",
    "products",
    "catalog_meta",
    "order_drafts",
    "checkpoints",
    "product_terms",
    "product_postings",
    "api_keys",
}


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'gg.db'}"
    return request.getfixturevalue("postgres_url")


def _tables(url: str) -> set[str]:
    engine = create_db_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names()) - {"alembic_version"}
    finally:
        engine.dispose()


def _drift(url: str) -> list[object]:
    engine = create_db_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()


@pytest.mark.slow
def test_empty_to_head_to_base_and_back(db_url: str) -> None:
    assert migrate.current(db_url) is None
    migrate.upgrade(db_url)
    assert migrate.current(db_url) == migrate.head()
    assert _tables(db_url) == TABLES
    assert _drift(db_url) == []  # the ORM classes match what the migrations built
    migrate.downgrade(db_url, "base")
    assert migrate.current(db_url) is None and _tables(db_url) == set()
    migrate.upgrade(db_url, "head")
    assert _tables(db_url) == TABLES
    migrate.downgrade(db_url, "0001")
    assert _tables(db_url) == TABLES - {
        "product_terms",
        "product_postings",
        "api_keys",
        "gift_history",
        "memories",
        "memory_tallies",
    }
    migrate.downgrade(db_url)  # one step back from the first revision is the empty schema
    assert migrate.current(db_url) is None
    with pytest.raises(StorageError, match="Cannot downgrade"):
        migrate.downgrade(db_url)


@pytest.mark.slow
def test_the_search_index_migration_backfills_existing_products(db_url: str) -> None:
    """Products written before the term index existed are found by the database search."""
    from giftgenius.catalog.search import words_query

    migrate.upgrade(db_url, "0001")
    engine = create_db_engine(db_url)
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO products (id, title, description, price, currency, tags, "
                "recipients, ships_to, delivery_days, in_stock, updated_at) VALUES ('g-0001', "
                "'Jeu de société des châteaux', 'A board game of castles for the family.', "
                "'25.00', 'EUR', '[\"board-game\"]', '[\"anyone\"]', '[\"FR\"]', 4, "
                "true, '2026-11-30 10:00:00')"
            )
        )
    engine.dispose()
    migrate.upgrade(db_url)
    db = Database(db_url, auto_migrate=False)
    with db.read() as repos:
        catalog = repos.catalog.search()
        assert catalog.ranked_ids(words_query("board games"), limit=5) == ["g-0001"]
        assert catalog.ranked_ids(words_query("châteaux castle"), limit=5) == ["g-0001"]
        assert catalog.stocked({"board-game", "tea"}) == {"board-game"}
    db.dispose()


@pytest.mark.slow
def test_the_tally_migration_counts_the_notes_that_exist(db_url: str) -> None:
    """Notes written before the tallies existed are counted, so a process's kept copy of a
    user's vectors is checked against the truth from the first search on."""
    migrate.upgrade(db_url, "0008_memories_by_recipient")
    engine = create_db_engine(db_url)
    with engine.begin() as conn:
        for seq, user in [(1, "alice"), (2, "bob"), (5, "alice")]:
            conn.execute(
                sa.text(
                    "INSERT INTO memories (seq, id, user_id, run_id, model, created_at, text,"
                    " embedding) VALUES (:seq, :id, :user, 'r', 'm', '2026-12-01 10:00:00',"
                    " 'a note', :vector)"
                ),
                {"seq": seq, "id": f"n{seq}", "user": user, "vector": b"\0\0\x80\x3f"},
            )
    engine.dispose()
    migrate.upgrade(db_url)
    engine = create_db_engine(db_url)
    with engine.connect() as conn:
        tallies = conn.execute(
            sa.text("SELECT user_id, notes, last_seq, removed FROM memory_tallies ORDER BY 1")
        ).all()
    engine.dispose()
    assert [tuple(row) for row in tallies] == [("alice", 2, 5, 0), ("bob", 1, 2, 0)]


@pytest.mark.slow
def test_sqlite_migrates_itself_on_first_use(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "fresh-home")
    db = Database.from_settings(settings)
    with db.read() as repos:
        assert repos.runs.list_for("alice") == []
    db.dispose()
    assert (tmp_path / "fresh-home" / "giftgenius.db").is_file()
    assert migrate.current(settings.effective_database_url) == migrate.head()


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_refuses_an_old_schema_and_says_what_to_run(postgres_url: str) -> None:
    db = Database(postgres_url)
    with pytest.raises(SchemaOutdated, match="run `giftgenius db upgrade`"), db.read():
        pass
    migrate.upgrade(postgres_url)
    migrate.downgrade(postgres_url, "base")  # an old revision: the schema before 0001
    with pytest.raises(SchemaOutdated, match=f"this GiftGenius needs {migrate.head()}"), db.write():
        pass
    assert _tables(postgres_url) == set()  # refused, not migrated behind the user's back
    migrate.upgrade(postgres_url)
    with db.write() as repos:
        repos.users.ensure("alice")
    db.dispose()


@pytest.mark.slow
def test_a_schema_from_a_newer_giftgenius_is_refused(db_url: str) -> None:
    migrate.upgrade(db_url)
    engine = create_db_engine(db_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = 'ffff_future'"))
    engine.dispose()
    db = Database(db_url, auto_migrate=True)
    with pytest.raises(SchemaOutdated, match="newer GiftGenius"), db.read():
        pass
    db.dispose()


def test_unreachable_postgres_names_the_url_without_its_password() -> None:
    db = Database("postgresql://gg:s3cret@127.0.0.1:1/giftgenius")
    with pytest.raises(StorageError, match="Cannot reach the database") as caught, db.read():
        pass
    message = str(caught.value)
    assert "127.0.0.1:1/giftgenius" in message and "s3cret" not in message
    assert "GIFTGENIUS_DATABASE_URL" in message
    with pytest.raises(StorageError, match="Cannot reach") as caught:
        migrate.upgrade("postgresql://gg:s3cret@127.0.0.1:1/giftgenius")
    assert "s3cret" not in str(caught.value)


def test_urls_are_normalized_and_masked() -> None:
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"
    assert mask_url("postgresql+psycopg://u:pw@h/db") == "postgresql+psycopg://u:***@h/db"
    with pytest.raises(StorageError, match="SQLite or PostgreSQL"):
        Database("mysql://u@h/db")
    with pytest.raises(StorageError, match="not valid"):
        Database("not a url")
