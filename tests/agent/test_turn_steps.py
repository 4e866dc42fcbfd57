"""The turn as its steps: what each step leaves behind, and the order they run in.

The summary settings make every turn with history fold it (a tiny trigger ratio, one
message kept), so a turn can both summarize and take checkpoints — the case where a
checkpoint used to carry the summary from before the fold. The model is scripted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.app import build_agent
from giftgenius.domain import CheckpointStep
from giftgenius.settings import load_settings

USER = "steps"


@pytest.fixture
def agent(tmp_path: Path, script, seeded_home):
    script.profile(
        "I need a gift for my sister",
        "A gift for your sister, noted. What does she enjoy, what budget do you have in mind, "
        "and must it arrive by a certain date or in a certain country?",
        recipient="sister",
    )
    script.shortlist(
        "she loves tea, budget 30 EUR", interests=["tea"], budget_max=30, currency="EUR"
    )
    script.summary("The user needs a gift for their sister.")
    bad = {"name": "update_profile", "arguments": {"deadline": "2020-01-01"}}
    good = {"name": "update_profile", "arguments": {"recipient": "sister"}}
    script.turn(
        "for my sister, by 2020",
        {"tool_calls": [bad, good]},
        {"reply": "Noted.", "expect_tool_error": True},
    )
    settings = load_settings(
        home=tmp_path / "home", summary_trigger_ratio=0.01, keep_recent_messages=1
    )
    built = build_agent(settings)
    yield built
    built.close()


@pytest.mark.slow
def test_checkpoints_carry_the_summary_the_session_carries(agent: Agent) -> None:
    run = agent.open(USER).run
    first = agent.turn(run.id, USER, "I need a gift for my sister")
    assert first.checkpoints == []  # the profile is incomplete: nothing to snapshot yet
    second = agent.turn(run.id, USER, "she loves tea, budget 30 EUR")
    assert second.summarized  # this turn folded the first one into the summary...
    assert CheckpointStep.filtered in second.checkpoints  # ...and took checkpoints

    live = agent.sessions.load(run.id)
    with agent.db.read() as repos:
        taken = [c for c in repos.checkpoints.list(USER, run.id) if c.session_version == 2]
    assert live is not None and live.summary.through_seq > 0 and live.summary.text
    assert [c.step for c in taken] == second.checkpoints
    assert [c.summary.through_seq for c in taken] == [live.summary.through_seq] * len(taken)
    assert [c.summary for c in taken] == [live.summary] * len(taken)


@pytest.mark.slow
def test_a_session_rebuilt_from_the_checkpoint_has_the_same_summary(agent: Agent) -> None:
    run = agent.open(USER).run
    agent.turn(run.id, USER, "I need a gift for my sister")
    agent.turn(run.id, USER, "she loves tea, budget 30 EUR")
    live = agent.sessions.load(run.id)
    agent.sessions.delete(run.id)  # the live copy expired or the store was wiped

    opened = agent.inspect(USER)
    assert opened is not None and opened.loaded.source == "checkpoint"
    assert opened.loaded.session.summary == live.summary


@pytest.mark.slow
def test_the_state_after_a_failed_tool_call_is_the_one_later_calls_built(agent: Agent) -> None:
    """One step calls a failing tool, then a good one; the next answers in words."""
    run = agent.open(USER).run
    result = agent.turn(run.id, USER, "for my sister, by 2020")
    assert result.tools_called == ["update_profile", "update_profile"]
    assert result.state.profile.recipient == "sister"
    live = agent.sessions.load(run.id)
    assert live is not None and live.state.profile.recipient == "sister"
    with agent.db.read() as repos:
        results = [e.content for e in repos.transcript.for_run(run.id) if e.role == "tool"]
    assert '"ok": false' in results[0] and '"recipient": "sister"' in results[1]
    assert agent.model.failures == []
