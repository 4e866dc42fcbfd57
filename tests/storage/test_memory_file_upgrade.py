"""A ``memories.db`` written by an earlier version (schema 1, no tallies) is brought up to
date when opened: its notes are counted, and searches from the kept matrix stay exact."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import numpy as np

from giftgenius.storage.memories import Memory
from giftgenius.storage.memory_sqlite import SCHEMA_VERSION, SqliteVecMemoryStore, _driver

T0 = dt.datetime(2026, 12, 1, 12, tzinfo=dt.UTC)


def unit(seed: int) -> list[float]:
    vector = np.random.default_rng(seed).standard_normal(8)
    return list(vector / np.linalg.norm(vector))


def test_a_schema_1_file_gets_its_tallies(tmp_path: Path) -> None:
    path = tmp_path / "memories.db"
    store = SqliteVecMemoryStore(path, erased=lambda _run: False)
    for i in range(4):
        store.add(Memory("alice", f"r{i}", f"note {i}", unit(i), "m", T0, id=f"n{i}"))
    store.close()
    conn = _driver().connect(str(path))  # as schema 1 left it
    conn.execute("DROP TABLE memory_tallies")
    conn.execute("DROP INDEX memories_user_seq")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()

    again = SqliteVecMemoryStore(path, erased=lambda _run: False)
    for _ in range(3):  # sqlite-vec's first, then the matrix checked against the tally
        assert again.search("alice", unit(2), model="m", k=2)[0].text == "note 2"
    again.add(Memory("alice", "r9", "note 9", unit(9), "m", T0, id="n9"))
    assert [h.text for h in again.search("alice", unit(9), model="m", k=1)] == ["note 9"]
    conn = again._connection()
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("SELECT notes, removed FROM memory_tallies").fetchall() == [(5, 0)]
    again.close()
