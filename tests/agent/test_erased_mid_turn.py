"""A window whose user is erased (``forget``) while a turn is in flight is told so — never
"another window changed this conversation… your message is kept" (it was erased) — and
every later line gets the same plain next step, not an internal error about run ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.errors import RunClosed
from giftgenius.settings import load_settings

ERASED = r"was erased \(giftgenius forget\)"


class ForgetsDuring:
    """A model that lets ``forget`` erase the user before its ``call``-th answer."""

    def __init__(self, inner, forget, call: int) -> None:
        self.inner, self.forget, self.call, self.name = inner, forget, call, inner.name
        self.calls = 0

    def complete(self, request, on_text=None):
        self.calls += 1
        if self.calls == self.call:
            self.forget()
        return self.inner.complete(request, on_text)


@pytest.fixture
def agent(tmp_path: Path, seeded_home):
    agent = build_agent(load_settings(home=tmp_path / "home"))
    try:
        yield agent
    finally:
        agent.close()


@pytest.mark.slow
@pytest.mark.parametrize("line", ["hello there", "gift for my dad, he loves coffee, 40 dollars"])
def test_the_turn_in_flight_is_told_its_user_was_erased(agent, line: str) -> None:
    run = agent.open("gone").run
    agent.model = ForgetsDuring(agent.model, lambda: agent.forget("gone"), call=1)
    with pytest.raises(RunClosed, match=ERASED) as told:
        agent.turn(run.id, "gone", line)
    assert "kept in the transcript" not in str(told.value)
    with agent.db.read() as repos:
        assert repos.runs.list_for("gone") == []


@pytest.mark.slow
def test_later_lines_of_that_window_get_the_same_next_step(agent) -> None:
    run = agent.open("gone-later").run
    agent.turn(run.id, "gone-later", "hello there")
    agent.forget("gone-later")
    for line in ("are you there?", "gift for my mum"):
        with pytest.raises(RunClosed, match=ERASED) as told:
            agent.turn(run.id, "gone-later", line)
        assert "giftgenius chat --user gone-later" in str(told.value)
        assert "does not belong" not in str(told.value)


class ErasedThenFlushed:
    """A session store where ``forget`` runs just before a save, and the save then fails
    as a flushed or restarted Redis would: the tombstone cannot stop it, nor tell."""

    def __init__(self, inner, forget) -> None:
        self.inner, self.forget = inner, forget

    def save(self, session, expected_version, release=None):
        from giftgenius.errors import StorageError

        self.forget()
        raise StorageError("Redis went away")

    def __getattr__(self, name):
        return getattr(self.inner, name)


@pytest.mark.slow
def test_the_window_is_told_even_when_the_session_store_lost_the_tombstone(agent) -> None:
    run = agent.open("flushed").run
    agent.sessions = ErasedThenFlushed(agent.sessions, lambda: agent.forget("flushed"))
    with pytest.raises(RunClosed, match=ERASED):
        agent.turn(run.id, "flushed", "hello there")
