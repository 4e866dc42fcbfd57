"""A tool's refusal, end to end: the result carries a code and its parameters beside the
model's English, and a whole chat with the offline model tells the person in their language.
Sentences are our own, in English and French."""

from __future__ import annotations

import json

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.agent.tools import execute


@pytest.mark.slow
def test_a_refused_call_carries_its_code_and_parameters(make_ctx) -> None:
    ctx = make_ctx()
    late = ctx.today.replace(year=ctx.today.year - 1).isoformat()
    result = execute(ctx, "update_profile", json.dumps({"deadline": late}))
    assert result["ok"] is False and "already past" in result["error"]  # the model's text
    assert result["code"] == "deadline.past"
    assert result["params"] == {"deadline": late, "today": ctx.today.isoformat()}
    json.dumps(result)  # what the model is sent is plain JSON


@pytest.mark.parametrize(
    ("line", "said", "english"),
    [
        ("Une idée pour ma filleule qui fait de la danse, budget 7000 yens",
         "Pouvez-vous donner le budget en", ("catalog", "cannot", "the user")),
        ("A present for my godson who collects stamps, roughly 12000 yen",
         "Could you give the budget in", ("catalog converts", "Ask the user")),
    ],
)  # fmt: skip
def test_a_refusal_is_told_in_the_persons_language(
    agent: Agent, line: str, said: str, english: tuple[str, ...]
) -> None:
    user = "refused"
    run = agent.open(user).run
    reply = agent.turn(run.id, user, line).reply
    assert said in reply and "JPY" in reply
    assert not any(words in reply for words in english), reply


@pytest.mark.slow
@pytest.mark.parametrize(
    ("line", "recipient", "interest"),
    [
        ("Pour Margaux, ma nièce, qui adore l'escalade, budget 6000 yens", "nièce", "climbing"),
        ("Something for my grandpa who loves chess, about 8000 yen", "grandpa", "chess"),
    ],
)
def test_a_refused_budget_loses_nothing_else_the_message_said(
    agent: Agent, line: str, recipient: str, interest: str
) -> None:
    user = "partly"
    run = agent.open(user).run
    turned = agent.turn(run.id, user, line)
    assert "JPY" in turned.reply  # the budget is refused, and said so
    profile = turned.state.profile
    assert recipient in (profile.recipient or "")
    assert interest in profile.interests
    assert profile.budget is None
