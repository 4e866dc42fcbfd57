"""A turn's own statements on the driver's connection (``storage/turn_rows.py``), on SQLite
and on a real Postgres: rows read back through the repositories as theirs do, and the
fence, the transcript's seq and the staged changes keep their all-or-nothing commit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.domain import (
    Checkpoint,
    CheckpointStep,
    ProfileDraft,
    RecipientProfile,
    RunStatus,
    SessionState,
    Step,
    ToolCall,
    TranscriptEntry,
    new_id,
)
from giftgenius.errors import RunClosed, StorageError, VersionConflict
from giftgenius.storage.db import Database
from giftgenius.storage.repositories import Repos
from giftgenius.storage.turn_rows import Fence

USER = "turn-rows"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'giftgenius.db'}"
    else:
        url = request.getfixturevalue("migrated_postgres_url")
    database = Database(url)
    yield database
    database.dispose()


def _run(db: Database, user: str = USER) -> str:
    with db.write() as repos:
        return repos.runs.start(user, new_id()).id


def _entry(run_id: str, seq: int, role: str = "user", **fields: object) -> TranscriptEntry:
    return TranscriptEntry(run_id=run_id, seq=seq, turn_id="t1", role=role, **fields)  # type: ignore[arg-type]


def _checkpoint(run_id: str, version: int, user: str = USER) -> Checkpoint:
    state = SessionState(step=Step.filtering, candidate_ids=["g-0001"], locale="fr")
    return Checkpoint(
        run_id=run_id,
        user_id=user,
        step=CheckpointStep.filtered,
        session_version=version,
        state=state,
        agent_version="test",
    )


def _fence(run_id: str, expected: int, new: int, **fields: object) -> Fence:
    return Fence(run_id, expected, new, step=Step.filtering, agent_version="test", **fields)  # type: ignore[arg-type]


@pytest.mark.slow
def test_rows_written_here_read_back_through_the_repositories_and_back(db: Database) -> None:
    run_id = _run(db)
    call = ToolCall(id="c1", name="search_candidates", arguments='{"q": "thé"}')
    db.turns.accept([_entry(run_id, 1, content="un cadeau pour ma sœur")])
    sizes = db.turns.commit(
        [
            _entry(run_id, 2, "assistant", tool_calls=[call]),
            _entry(run_id, 3, "tool", content='{"ok": true}', tool_call_id="c1"),
        ],
        [_checkpoint(run_id, 1)],
        _fence(run_id, 0, 1),
    )
    assert len(sizes) == 1 and sizes[0] > 0
    with db.read() as repos:
        run, entries = repos.runs.get_with_transcript(run_id, 0)
        latest = repos.checkpoints.latest(run_id)
    mine, read_here = db.turns.run_after(run_id, 0)
    assert run is not None and mine == run
    assert (run.session_version, run.step, run.agent_version) == (1, Step.filtering, "test")
    assert read_here == entries and [e.seq for e in entries] == [1, 2, 3]
    assert entries[0].content == "un cadeau pour ma sœur" and entries[1].tool_calls == [call]
    assert entries[0].created_at.tzinfo is not None
    assert latest is not None and latest.state.candidate_ids == ["g-0001"]
    assert db.turns.run_after(run_id, 3) == (run, [])
    assert db.turns.run_after(run_id, None) == (run, None)
    assert db.turns.run_after("no-such-run", 0) == (None, [])
    assert db.turns.exists(run_id) and not db.turns.exists("no-such-run")


@pytest.mark.slow
def test_a_stale_fence_commits_nothing(db: Database) -> None:
    run_id = _run(db)
    db.turns.commit([_entry(run_id, 1)], [], _fence(run_id, 0, 1))
    with pytest.raises(VersionConflict, match="no longer at session version 0") as lost:
        db.turns.commit(
            [_entry(run_id, 2, "assistant", content="late")],
            [_checkpoint(run_id, 1)],
            _fence(run_id, 0, 1),  # another window committed version 1 first
        )
    assert not isinstance(lost.value, RunClosed)
    with db.read() as repos:
        assert [e.seq for e in repos.transcript.for_run(run_id)] == [1]
        assert repos.checkpoints.list(USER, run_id) == []
        run = repos.runs.get(run_id)
    assert run is not None and run.session_version == 1


@pytest.mark.slow
def test_a_fence_on_a_closed_or_erased_run_says_so(db: Database) -> None:
    run_id = _run(db)
    with db.write() as repos:
        repos.runs.set_status(run_id, RunStatus.abandoned)
    with pytest.raises(RunClosed, match="is abandoned"):
        db.turns.commit([_entry(run_id, 1)], [], _fence(run_id, 0, 1))
    with pytest.raises(RunClosed, match="no longer exists"):
        db.turns.commit([], [], _fence("no-such-run", 0, 1))
    with db.read() as repos:
        assert repos.transcript.for_run(run_id) == []


@pytest.mark.slow
def test_a_seq_already_taken_is_a_version_conflict(db: Database) -> None:
    run_id = _run(db)
    db.turns.accept([_entry(run_id, 1, content="first window")])
    with pytest.raises(VersionConflict, match="already taken"):
        db.turns.accept([_entry(run_id, 1, content="second window")])
    with pytest.raises(VersionConflict):
        db.turns.commit([_entry(run_id, 1, "assistant")], [], _fence(run_id, 0, 1))
    with db.read() as repos:
        entries = repos.transcript.for_run(run_id)
        run = repos.runs.get(run_id)
    assert [e.content for e in entries] == ["first window"]
    assert run is not None and run.session_version == 0  # the fence went with it


@pytest.mark.slow
def test_staged_changes_land_with_the_turn_or_not_at_all(db: Database) -> None:
    run_id = _run(db)

    def save_profile(label: str) -> object:
        def change(repos: Repos) -> object:
            profile = ProfileDraft(recipient="sister", interests=["tea"])
            return repos.profiles.upsert(
                RecipientProfile(id=new_id(), user_id=USER, label=label, profile=profile)
            )

        return change

    db.turns.commit([_entry(run_id, 1)], [], _fence(run_id, 0, 1), [save_profile("sis")])
    with pytest.raises(VersionConflict):
        db.turns.commit([_entry(run_id, 2)], [], _fence(run_id, 0, 1), [save_profile("mum")])
    with db.read() as repos:
        labels = [p.label for p in repos.profiles.list(USER)]
        entries = repos.transcript.for_run(run_id)
    assert labels == ["sis"] and [e.seq for e in entries] == [1]


@pytest.mark.slow
def test_the_write_lock_is_taken_as_db_write_takes_it(tmp_path: Path) -> None:
    """On SQLite a connection that served a read (``query_only`` on) still writes."""
    db = Database(f"sqlite:///{tmp_path / 'giftgenius.db'}")
    try:
        run_id = _run(db)
        for seq in range(1, 4):
            with db.read() as repos:
                assert repos.runs.get(run_id) is not None
            db.turns.accept([_entry(run_id, seq)])
        with db.read() as repos:
            assert len(repos.transcript.for_run(run_id)) == 3
    finally:
        db.dispose()


@pytest.mark.postgres
def test_an_unreachable_postgres_is_a_storage_error_naming_it() -> None:
    db = Database("postgresql+psycopg://postgres@127.0.0.1:1/giftgenius")
    db._ready = True  # the schema check would fail first; the turn's own statements here
    try:
        with pytest.raises(StorageError, match=r"Cannot reach the database at .*127\.0\.0\.1:1"):
            db.turns.exists("a-run")
        with pytest.raises(StorageError, match="Cannot reach the database"):
            db.turns.accept([_entry("a-run", 1)])
    finally:
        db.dispose()
