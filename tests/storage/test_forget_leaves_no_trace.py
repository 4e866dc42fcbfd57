"""What ``forget`` erased is not left readable in the database's own files: not in SQLite's
free pages or write-ahead logs (while other connections keep the files open) — the
long-term memory file included — not as dead tuples in Postgres's tables."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa

from giftgenius.app import build_agent
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database

MARKER = "zanzibarquux"


def _chat_then_forget(settings, user: str) -> None:
    agent = build_agent(settings)
    try:
        run = agent.open(user).run
        agent.turn(
            run.id, user, f"a gift for my sister {MARKER}, she loves tea and {MARKER}, 40 dollars"
        )
        agent.turn(run.id, user, f"the first one, and {MARKER} again")
        agent.turn(run.id, user, "yes")  # confirmed: a long-term note is written
        (note,) = agent.memory.recall(user, f"tea {MARKER}")
        assert MARKER in note.text
        agent.forget(user)
    finally:
        agent.close()


@pytest.mark.slow
def test_sqlite_files_hold_no_erased_text(tmp_path: Path, seeded_home) -> None:
    settings = load_settings(home=tmp_path / "home")
    other = Database(settings.effective_database_url)  # another process's open handle
    with other.read() as repos:
        repos.runs.list_for("someone")
    try:
        _chat_then_forget(settings, "erased")
        files = [p for p in (tmp_path / "home").rglob("*") if p.is_file() and ".db" in p.name]
        assert any(p.name.endswith("-wal") for p in files)
        for path in files:
            assert MARKER.encode() not in path.read_bytes(), path.name
    finally:
        other.dispose()


@pytest.mark.slow
@pytest.mark.postgres
def test_postgres_keeps_no_dead_tuple_of_erased_text(
    tmp_path: Path, seeded_postgres_url: str, seeded_home
) -> None:
    settings = load_settings(home=tmp_path / "home", database_url=seeded_postgres_url)
    engine = sa.create_engine(seeded_postgres_url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pageinspect")
            for table in ("transcript", "checkpoints", "runs", "memories"):
                conn.exec_driver_sql(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
        _chat_then_forget(settings, "erased-pg")
        with engine.connect() as conn:
            for table in ("transcript", "checkpoints", "memories"):
                pages = conn.execute(
                    sa.text("SELECT pg_relation_size(:t) / current_setting('block_size')::int"),
                    {"t": table},
                ).scalar_one()
                found = conn.execute(
                    sa.text(
                        "SELECT count(*) FROM generate_series(0, :n - 1) AS page, "
                        "LATERAL heap_page_items(get_raw_page(:t, page::int)) "
                        "WHERE t_data IS NOT NULL "
                        "AND position(convert_to(:m, 'UTF8') IN t_data) > 0"
                    ),
                    {"n": pages, "t": table, "m": MARKER},
                ).scalar_one()
                assert found == 0, table
    finally:
        engine.dispose()
