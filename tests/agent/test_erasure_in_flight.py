"""Erasure wins over a turn in flight, even when the turn cannot look for its run afterwards.

``forget`` (``RunReader.forget``) runs in the middle of a real turn, at its session save,
on both session stores. The database then stops answering the turn's own check that its
run still exists (``Agent._unless_erased``), as when Postgres goes down or the process is
killed right after its save: the tombstone alone must keep the erased session out of the
store. The same with real processes stopped by a signal is in
``tests/faults/test_turns_in_flight.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import giftgenius.agent.runner as runner
from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent, build_reader
from giftgenius.domain import Session
from giftgenius.errors import RunClosed, RunErased, StorageError
from giftgenius.settings import Settings, load_settings

SETUP = "gift for my dad, he loves coffee, 60 USD"
PICK = "the first one"
USER = "erase-me"


@pytest.fixture(params=["sqlite", pytest.param("redis", marks=pytest.mark.redis)])
def settings(request: pytest.FixtureRequest, seeded_home: Path) -> Settings:
    if request.param == "sqlite":
        return load_settings(home=seeded_home)
    url = request.getfixturevalue("redis_url")
    return load_settings(
        home=seeded_home, redis_url=url, redis_prefix=request.getfixturevalue("redis_prefix")
    )


@pytest.fixture
def agent(settings: Settings, script) -> Iterator[Agent]:
    script.shortlist(
        SETUP, recipient="father", interests=["coffee"], budget_max=60, currency="USD"
    ).pick(PICK)
    made = build_agent(settings)
    yield made
    made.close()


def _forget(settings: Settings, user: str) -> None:
    """``giftgenius forget`` as another process runs it: its own stores."""
    reader = build_reader(settings)
    try:
        assert reader.forget(user)["runs"] == 1
    finally:
        reader.close()


def _database_down(agent: Agent, monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's own database reads fail from here on (its writes are done by then)."""

    def unreachable():
        raise StorageError("Cannot reach the database (test)")

    monkeypatch.setattr(agent.db, "read", unreachable)
    monkeypatch.setattr(agent.db.turns, "exists", lambda run_id: unreachable())


def _left_behind(settings: Settings, run_id: str) -> Session | None:
    """What another process finds in the session store; it may not write one back either."""
    reader = build_reader(settings)
    try:
        with pytest.raises(RunErased):
            reader.sessions.save(Session(run_id=run_id, user_id=USER), expected_version=None)
        with reader.db.read() as repos:
            assert repos.runs.list_for(USER) == []
        return reader.sessions.load(run_id)
    finally:
        reader.close()


@pytest.mark.slow
def test_forget_before_the_save_refuses_it_without_the_database(
    agent: Agent, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forget runs while the turn is at ``before_session_save``; then no database."""
    run = agent.open(USER).run
    agent.turn(run.id, USER, SETUP)
    assert agent.sessions.load(run.id) is not None
    real_fault = runner.fault

    def forget_there(name: str) -> None:
        real_fault(name)
        if name == "before_session_save":
            _forget(settings, USER)
            _database_down(agent, monkeypatch)

    monkeypatch.setattr(runner, "fault", forget_there)
    with pytest.raises(RunClosed, match=r"erased \(giftgenius forget\)"):
        agent.turn(run.id, USER, PICK)
    assert _left_behind(settings, run.id) is None


@pytest.mark.slow
def test_forget_just_after_the_save_leaves_nothing_when_the_check_fails(
    agent: Agent, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save lands, forget runs, and the turn's look for its run cannot reach the
    database (as if the turn were killed right after its save): the erase removed it."""
    run = agent.open(USER).run
    agent.turn(run.id, USER, SETUP)
    real_save = agent.sessions.save

    def save_then_forget(session: Session, expected_version: int | None, release=None) -> None:
        real_save(session, expected_version, release=release)
        _forget(settings, USER)
        _database_down(agent, monkeypatch)

    monkeypatch.setattr(agent.sessions, "save", save_then_forget)
    result = agent.turn(run.id, USER, PICK)  # answered: the failed check is only logged
    assert result.reply
    assert _left_behind(settings, run.id) is None


@pytest.mark.slow
def test_forget_cut_off_after_the_tombstones_says_to_run_it_again(
    agent: Agent, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails between the tombstones and the rows: say so; a second run ends it."""
    run = agent.open(USER).run
    agent.turn(run.id, USER, SETUP)
    reader = build_reader(settings)
    try:

        def unreachable():
            raise StorageError("Cannot reach the database (test)")

        write = reader.db.write
        monkeypatch.setattr(reader.db, "write", unreachable)
        with pytest.raises(StorageError, match=r"erased, but not the stored data.*forget --user"):
            reader.forget(USER)
        monkeypatch.setattr(reader.db, "write", write)  # the database answers again
        assert reader.sessions.load(run.id) is None
        with reader.db.read() as repos:
            assert [r.id for r in repos.runs.list_for(USER)] == [run.id]  # nothing lost
        assert reader.forget(USER)["runs"] == 1
    finally:
        reader.close()
    assert _left_behind(settings, run.id) is None
