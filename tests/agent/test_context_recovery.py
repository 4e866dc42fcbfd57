"""An endpoint that still answers context_length_exceeded: shrink once, then say so plainly.

The model behind the refusals is a scripted one, so the history's size does not depend on
how the offline model words its replies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.agent.runner import CONTEXT_TOO_LARGE
from giftgenius.app import build_agent
from giftgenius.errors import ContextLengthExceeded
from giftgenius.settings import load_settings


class Refusing:
    """Refuses the first ``refusals`` requests as too long, then defers to the real model."""

    def __init__(self, inner, refusals: int) -> None:
        self.inner, self.refusals, self.name = inner, refusals, inner.name
        self.sizes: list[int] = []

    def complete(self, request, on_text=None):
        self.sizes.append(len(str(request.messages)))
        if self.refusals:
            self.refusals -= 1
            raise ContextLengthExceeded("This model's maximum context length is 10 tokens.")
        return self.inner.complete(request, on_text)


def _agent(tmp_path: Path, refusals: int):
    agent = build_agent(load_settings(home=tmp_path / "home", context_window=5400))
    agent.model = Refusing(agent.model, refusals)
    return agent


@pytest.mark.slow
def test_one_refusal_is_retried_with_a_smaller_context(tmp_path: Path, script, seeded_home) -> None:
    chatter = [f"she likes tea, and tell me about option {i}" for i in range(12)]
    for i, text in enumerate(chatter):
        script.says(text, f"Option {i} is a loose-leaf tea sampler.")
    script.shortlist(
        "gift for my sister, 30 EUR", recipient="sister", budget_max=30, currency="EUR"
    )
    agent = _agent(tmp_path, refusals=1)
    try:
        run = agent.open("cl").run
        for text in chatter:  # some history, so shrinking has something to drop
            agent.model.refusals = 0
            agent.turn(run.id, "cl", text)
        agent.model.refusals, agent.model.sizes = 1, []
        result = agent.turn(run.id, "cl", "gift for my sister, 30 EUR")
        assert result.reply != CONTEXT_TOO_LARGE["en"]
        assert agent.model.sizes[1] < agent.model.sizes[0]
        assert result.usage.refusals == 1
        agent.model.inner.assert_consumed()
    finally:
        agent.close()


def test_persistent_refusal_tells_the_user_and_keeps_the_message(
    tmp_path: Path, script, seeded_home
) -> None:
    agent = _agent(tmp_path, refusals=99)  # the empty script: no request may get through
    try:
        run = agent.open("cl2").run
        result = agent.turn(run.id, "cl2", "gift for my sister, 30 EUR")
        assert result.reply == CONTEXT_TOO_LARGE["en"]
        with agent.db.read() as repos:
            said = [e.content for e in repos.transcript.for_run(run.id)]
        assert said == ["gift for my sister, 30 EUR", CONTEXT_TOO_LARGE["en"]]
        assert agent.model.inner.requests == []
    finally:
        agent.close()
