"""What only the message's words add — a budget read from "about 40", a goodbye — is sent
by the offline model with its calls, so the person reads it before the outcome the agent
presents, in the one model call the line costs."""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.settings import load_settings


class Counted:
    def __init__(self, inner) -> None:
        self.inner, self.name, self.calls = inner, inner.name, 0

    def complete(self, request, on_text=None):
        self.calls += 1
        return self.inner.complete(request, on_text)


@pytest.fixture
def agent(tmp_path: Path, seeded_home):
    agent = build_agent(load_settings(home=tmp_path / "home"))
    agent.model = Counted(agent.model)
    try:
        yield agent
    finally:
        agent.close()


@pytest.mark.slow
def test_an_approximate_budget_is_said_before_the_shortlist(agent) -> None:
    run = agent.open("about").run
    result = agent.turn(run.id, "about", "gift for my dad, he loves coffee, about 40 dollars")
    assert agent.model.calls == 1
    note, _, rest = result.reply.partition("\n\n")
    assert (
        note == "You said about $40, so I took $40 as the budget; tell me if you want it different."
    )
    assert rest.startswith("Noted: for your dad") and "ideas that fit" in rest


@pytest.mark.slow
def test_choosing_before_leaving_says_goodbye_and_asks_for_the_yes_later(agent) -> None:
    run = agent.open("later").run
    agent.turn(run.id, "later", "gift for my dad, he loves coffee, 40 dollars")
    agent.model.calls = 0
    result = agent.turn(run.id, "later", "I'll take the second one, but I'll come back later")
    assert agent.model.calls == 1
    assert result.state.selected_gift_id == result.state.candidate_ids[1]
    assert result.state.order_draft_id is None
    assert result.reply.startswith("See you later!") and "Shall I confirm it" in result.reply
