"""Every turn says where its time went; the phases add up to it and the model stands apart."""

from __future__ import annotations

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.agent.timings import PHASES
from giftgenius.bench.players import Player


@pytest.mark.slow
def test_phases_are_filled_and_add_up_to_no_more_than_the_turn(agent: Agent) -> None:
    player = Player(agent, filters=True)
    played = player.open(0)
    samples = [player.turn(played) for _ in range(4)]
    assert [s.tools for s in samples] == [
        ("update_profile",),  # the complete profile: searches and filters
        ("search_candidates",),  # a new search, filtered
        ("update_profile",),  # a new budget: the filters again
        (),  # a plain reply: the shortlist re-checked, no tool
    ]
    for sample in samples:
        assert set(sample.phases) == set(PHASES)
        assert all(value >= 0 for value in sample.phases.values())
        for busy in ("load", "accept", "context", "model", "tools", "commit", "save"):
            assert sample.phases[busy] > 0, (sample.turn, busy)
        assert sum(sample.phases.values()) <= sample.total
    # The run-cycle's own total leaves out only the call itself.
    result = agent.turn(played.run_id, played.user_id, "[f0 t5] and now?")
    timings = result.timings
    assert 0 < sum(timings.phases().values()) <= timings.total


NAP = 0.5  # seconds each model call sleeps: far above what a busy machine adds to a phase


@pytest.mark.slow
def test_the_model_time_is_not_counted_in_the_steps_that_call_it(agent: Agent) -> None:
    slow = agent.model

    class Sleepy:
        name = slow.name

        def complete(self, request, on_text=None):
            import time

            time.sleep(NAP)
            return slow.complete(request, on_text)

    agent.model = Sleepy()  # type: ignore[assignment]
    player = Player(agent)
    played = player.open(1)
    sample = player.turn(played)
    assert sample.phases["model"] >= NAP  # the tool call (the agent presents its outcome)
    assert sample.phases["context"] < NAP and sample.phases["tools"] < NAP
