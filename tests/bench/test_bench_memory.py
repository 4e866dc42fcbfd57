"""``giftgenius bench memory`` end to end, small: it builds its scratch store, times the
searches at each size, reports bytes a note, and leaves nothing behind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sqlalchemy as sa

from giftgenius.bench import memory
from giftgenius.settings import load_settings


def _run(capsys: pytest.CaptureFixture[str], settings, *argv: str) -> dict:
    assert memory.main([*argv, "--json"], settings) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.slow
def test_bench_memory_embedded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = load_settings(home=tmp_path / "home")
    figures = _run(capsys, settings, "--others", "300", "--sizes", "5,40", "--repeat", "5")
    assert figures["backend"] == "embedded"
    assert figures["notes"] == 340 and figures["other_users_notes"] == 300
    assert figures["bytes_per_note"] > 4 * figures["dimensions"]  # a float32 vector at least
    assert [row["user_notes"] for row in figures["results"]] == [5, 40]
    assert all(
        row["searches"] == 5 and row["p99_ms"] >= row["p50_ms"] > 0 for row in figures["results"]
    )
    # a recipient's block: whole notes, within the bound the agent gives it
    assert all(0 < row["block_tokens"] <= 300 for row in figures["results"])
    assert all(row["block_p50_ms"] > 0 for row in figures["results"])
    assert not (tmp_path / "home" / "memories.db").exists()  # a scratch store, not the home's


@pytest.mark.slow
@pytest.mark.postgres
def test_bench_memory_postgres_drops_its_scratch_database(
    migrated_postgres_url: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dropped: list[str] = []
    drop = memory._drop_database

    def recorded(url: str, name: str) -> None:
        dropped.append(name)
        drop(url, name)

    monkeypatch.setattr(memory, "_drop_database", recorded)
    settings = load_settings(home=tmp_path / "home", database_url=migrated_postgres_url)
    figures = _run(capsys, settings, "--others", "500", "--sizes", "10", "--repeat", "3")
    assert figures["backend"] == "postgres" and figures["notes"] == 510
    engine = sa.create_engine(migrated_postgres_url)
    try:
        with engine.connect() as conn:
            left = conn.execute(
                sa.text("SELECT count(*) FROM pg_database WHERE datname = :n"), {"n": dropped[0]}
            ).scalar_one()
            mine = conn.execute(sa.text("SELECT count(*) FROM memories")).scalar_one()
    finally:
        engine.dispose()
    assert mine == 0  # the configured database was never written
    assert len(dropped) == 1 and left == 0
