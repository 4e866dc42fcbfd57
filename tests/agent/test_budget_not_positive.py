"""A budget of zero or less is refused by ``update_profile`` itself, whichever model sent it:
the schema lets the figure through so the refusal can say why, in the person's language,
and ask for a positive amount; the budget known and the rest of the message stay. Sentences
are our own, in English and French."""

from __future__ import annotations

import json

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.agent.tools import TurnContext, execute
from giftgenius.replies import refusals


def call(ctx: TurnContext, name: str, **args: object) -> dict:
    return execute(ctx, name, json.dumps(args))


@pytest.mark.parametrize("amount", [0, -20, -0.5])
def test_the_tool_refuses_a_budget_of_zero_or_less(make_ctx, amount: float) -> None:
    ctx = make_ctx()
    before = ctx.state.model_copy(deep=True)
    result = call(ctx, "update_profile", recipient="my aunt", budget_max=amount, currency="EUR")
    assert result["ok"] is False and result["code"] == "budget.not_positive"
    assert result["params"] == {"amount": amount, "currency": "EUR"}
    assert "more than zero" in result["error"]  # what to ask, in the person's words
    assert ctx.state == before  # nothing half-recorded


def test_a_refused_budget_keeps_the_one_known(make_ctx) -> None:
    ctx = make_ctx()
    assert call(ctx, "update_profile", recipient="my aunt", budget_max=40, currency="EUR")["ok"]
    assert call(ctx, "update_profile", budget_max=-5)["ok"] is False
    budget = ctx.state.profile.budget
    assert budget is not None and budget.amount == 40 and budget.currency == "EUR"


@pytest.mark.parametrize("amount", [0.01, 1, 35])
def test_a_positive_budget_is_taken(make_ctx, amount: float) -> None:
    ctx = make_ctx()
    assert call(ctx, "update_profile", recipient="my aunt", budget_max=amount)["ok"]
    assert ctx.state.profile.budget is not None and ctx.state.profile.budget.amount == amount


@pytest.mark.parametrize(
    ("locale", "said"),
    [("en", "more than zero"), ("fr", "supérieur à zéro")],
)
def test_the_refusal_is_told_in_the_persons_language(locale: str, said: str) -> None:
    result = {"ok": False, "code": "budget.not_positive",
              "params": {"amount": -20, "currency": "EUR"}}  # fmt: skip
    sentence = refusals.render(result, locale)
    assert said in sentence and "20" in sentence and "€" in sentence


@pytest.mark.slow
@pytest.mark.parametrize(
    ("line", "said", "recipient", "interest"),
    [
        ("A gift for my nephew who loves chess, -20 euros", "more than zero", "nephew", "chess"),
        ("Pour ma marraine qui adore le jardinage, 0 euro", "supérieur à zéro", "marraine",
         "gardening"),
        ("something for my boss, she's into yoga, budget: -15 dollars", "more than zero", "boss",
         "yoga"),
    ],
)  # fmt: skip
def test_a_chat_asks_again_and_loses_nothing_else(
    agent: Agent, line: str, said: str, recipient: str, interest: str
) -> None:
    user = "nought"
    run = agent.open(user).run
    turned = agent.turn(run.id, user, line)
    assert said in turned.reply, turned.reply
    profile = turned.state.profile
    assert profile.budget is None  # no budget taken from a figure of zero or less
    assert recipient in (profile.recipient or "")
    assert interest in profile.interests
