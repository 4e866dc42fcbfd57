"""What one turn asks of the database, counted: the budget the turn benchmark measures.

A turn that calls no tool needs four transactions: one read before it starts (the run row
and any message accepted after the live session's last one, in one statement), the
accepted message, the commit, and the check after the save that the run still exists —
and, with a shortlist to re-check (every turn after the complete profile, which searches
and filters at once), one read of the shortlisted products: five.
"""

from __future__ import annotations

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.bench.players import Player
from giftgenius.domain import Step
from giftgenius.errors import ModelError
from giftgenius.llm.scripted import FunctionModel


@pytest.mark.slow
def test_a_turn_without_tools_sends_four_transactions(agent: Agent) -> None:
    player = Player(agent)
    played = player.open(0)
    samples = [player.turn(played) for _ in range(6)]
    quiet = [s for s in samples if not s.tools]  # plan "s": every third turn only chats
    assert quiet, [s.tools for s in samples]
    live = agent.sessions.load(played.run_id)
    assert live is not None and live.state.step == Step.finalizing  # a shortlist to re-check
    for sample in quiet:
        assert sample.transactions == 4 + 1, (sample.turn, sample.transactions)


@pytest.mark.slow
def test_a_message_left_by_a_failed_turn_is_read_with_the_run_row(
    agent: Agent, bench_model: FunctionModel
) -> None:
    player = Player(agent)
    played = player.open(1)
    player.turn(played)
    # Accepted (in the transcript), then the model fails: the live session never gets it.
    with pytest.raises(ModelError):
        agent.turn(played.run_id, played.user_id, "a line this model never wrote")
    player.turn(played)
    users = [m for m in bench_model.requests[-1].messages if m.get("role") == "user"]
    newest = str(users[-1].get("content"))
    # The unanswered message is read back and sent, joined before the newest one.
    assert "\n\na line this model never wrote\n\n[s1 t" in newest
