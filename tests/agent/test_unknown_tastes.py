"""Tastes nobody knows: after one honest "I don't know", ideas that suit the recipient and
the budget, said to be popular ones — never the same question again.

At the tool (what a real model calls) and in whole chats with the offline model and the
shipped catalog, with our own sentences in English and French.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from giftgenius import messages
from giftgenius.agent.runner import Agent
from giftgenius.agent.tools import TurnContext, execute
from giftgenius.catalog import load_products, load_rates, price_in
from giftgenius.catalog.search import children_only
from giftgenius.domain import Step
from giftgenius.language.vocabulary import popular_tags

PRODUCTS = {p.id: p for p in load_products()}
RATES = load_rates()


def _call(ctx: TurnContext, **args: Any) -> dict[str, Any]:
    result = execute(ctx, "update_profile", json.dumps(args))
    assert result["ok"], result
    return result


def _within(ids: list[str], amount: float, currency: str) -> bool:
    return all(price_in(PRODUCTS[i], currency, RATES) <= amount for i in ids)


def test_unknown_tastes_complete_the_profile_and_search_popular_gifts(make_ctx) -> None:
    ctx = make_ctx()
    asked = _call(ctx, recipient="my colleague", budget_max=25, currency="EUR")
    assert asked["missing"] == ["interests"] and "shortlist" not in asked
    found = _call(ctx, tastes_unknown=True)
    assert found["missing"] == [] and found["shortlist"]
    assert found["popular"]["audience"] == "colleague"
    assert ctx.state.profile.interests == []  # nobody said the colleague likes these
    shown = [c["id"] for c in found["shortlist"]]
    assert _within(shown, 25, "EUR")
    kinds = set(popular_tags("colleague"))
    assert all(kinds & set(PRODUCTS[i].tags) for i in shown)


@pytest.mark.slow
def test_a_child_gets_childrens_popular_gifts_and_a_grown_up_none(make_ctx) -> None:
    ctx = make_ctx()
    found = _call(ctx, recipient="my nephew", age=8, budget_max=30, tastes_unknown=True)
    shown = [PRODUCTS[c["id"]] for c in found["shortlist"]]
    assert shown and all(p.fits_age(8) for p in shown)
    grown = make_ctx("bob")
    found = _call(grown, recipient="my boss", budget_max=40, tastes_unknown=True)
    assert found["shortlist"]
    assert not any(children_only(PRODUCTS[c["id"]]) for c in found["shortlist"])


def test_a_taste_said_later_is_searched_for_itself(make_ctx) -> None:
    ctx = make_ctx()
    _call(ctx, recipient="my sister", budget_max=40, tastes_unknown=True)
    found = _call(ctx, interests=["tea"])
    assert ctx.state.profile.tastes_unknown is False
    assert "popular" not in found
    assert all("tea" in c["answers"] for c in found["shortlist"][:1])


def test_a_budget_change_keeps_saying_the_ideas_are_popular(make_ctx) -> None:
    ctx = make_ctx()
    _call(ctx, recipient="my neighbour", budget_max=30, tastes_unknown=True)
    found = _call(ctx, budget_max=60)
    assert found["popular"] and found["shortlist"]


def test_the_delivery_place_of_the_same_call_is_no_interest(make_ctx) -> None:
    ctx = make_ctx()
    _call(ctx, recipient="my sister", country="Tokyo", interests=["Tokyo", "tea"])
    assert ctx.state.profile.interests == ["tea"] and ctx.state.profile.country == "JP"


def _said(key: str, locale: str) -> str:
    """The words the popular note opens with (before its placeholder)."""
    return messages.text("tastes", key, locale).split("{")[0].strip(" ,")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lines", "amount", "currency", "locale"),
    [
        (["Secret Santa at work, my colleague, 25 euros", "honestly not a clue"], 25, "EUR", "en"),
        (["gift for my neighbour, 30 dollars, no idea what he's into"], 30, "USD", "en"),
        (["need something for my brother-in-law, $40", "I don't really know him",
          "the first one", "yes"], 40, "USD", "en"),
        (["un cadeau pour ma belle-mère, 35 euros", "aucune idée de ce qu'elle aime"],
         35, "EUR", "fr"),
        (["c'est pour un collègue que je connais à peine, 20 euros"], 20, "EUR", "fr"),
        (["pour ma tante, 50 euros", "franchement je sais pas", "la deuxième", "oui"],
         50, "EUR", "fr"),
    ],
)  # fmt: skip
def test_one_i_dont_know_then_a_shortlist_that_says_why(
    agent: Agent, lines: list[str], amount: float, currency: str, locale: str
) -> None:
    user = "santa"
    run = agent.open(user).run
    replies: list[str] = []
    result = None
    for line in lines:
        result = agent.turn(run.id, user, line)
        replies.append(result.reply)
        if result.state.step == Step.finalizing and len(replies) <= 2:
            assert _said("popular.whom", locale) in result.reply
            assert _within(result.state.candidate_ids, amount, currency)
    assert result is not None
    # the question about tastes is asked at most once, and never after "I don't know"
    question = messages.text("replies", "ask", locale).split("{")[0]
    asked = [r for r in replies if question and question in r and "1." not in r]
    assert len(asked) <= 1
    assert any(_said("popular.whom", locale) in r for r in replies)
    if len(lines) == 4:
        assert result.state.step == Step.done


@pytest.mark.slow
@pytest.mark.parametrize(
    "recipient",
    ["my mum", "my dad", "my grandma", "my teacher", "my boss", "my girlfriend", "my friend",
     "my brother", "my sister", "my son", "my teenage niece", "my neighbour", "the mailman"],
)  # fmt: skip
def test_every_audience_has_popular_ideas_at_a_modest_budget(make_ctx, recipient: str) -> None:
    found = _call(make_ctx(), recipient=recipient, budget_max=30, tastes_unknown=True)
    assert len(found["shortlist"]) >= 3, recipient
    assert _within([c["id"] for c in found["shortlist"]], 30, "USD")
