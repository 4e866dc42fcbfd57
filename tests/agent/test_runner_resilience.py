"""The run-cycle when the session store misbehaves after the turn's commit (scripted model)."""

from __future__ import annotations

from pathlib import Path

from giftgenius.app import build_agent
from giftgenius.errors import StorageError
from giftgenius.settings import load_settings


class FailingSaves:
    """Delegates to a real store but fails the next ``failures`` saves."""

    def __init__(self, inner, failures: int) -> None:
        self.inner, self.failures = inner, failures

    def save(self, session, expected_version, release=None):
        if self.failures:
            self.failures -= 1
            raise StorageError("Redis went away")
        return self.inner.save(session, expected_version, release=release)

    def __getattr__(self, name):
        return getattr(self.inner, name)


def test_a_failed_session_save_after_commit_loses_nothing(
    tmp_path: Path, script, seeded_home
) -> None:
    script.shortlist(
        "gift for my dad, he loves coffee, 60 USD",
        recipient="father",
        interests=["coffee"],
        budget_max=60,
        currency="USD",
    ).pick("the first one")
    agent = build_agent(load_settings(home=tmp_path / "home"))
    try:
        agent.sessions = FailingSaves(agent.sessions, failures=1)
        run = agent.open("flaky").run
        first = agent.turn(run.id, "flaky", "gift for my dad, he loves coffee, 60 USD")
        assert first.state.step == "finalizing"  # the user still got the shortlist
        assert agent.sessions.load(run.id) is None  # the live copy was not saved...
        state = agent.inspect("flaky")
        assert state is not None and state.loaded.source == "checkpoint"  # ...but rebuilt
        assert state.loaded.session.state.candidate_ids == first.state.candidate_ids
        second = agent.turn(run.id, "flaky", "the first one")
        assert second.state.selected_gift_id == first.state.candidate_ids[0]
        assert agent.sessions.load(run.id).version == 2
        agent.model.assert_consumed()
    finally:
        agent.close()
