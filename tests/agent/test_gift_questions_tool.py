"""get_gift_details answers questions about the run's listed gifts, with dates and prices
worked out, and changes nothing; ids outside the run are refused."""

from __future__ import annotations

import datetime as dt
import json

from giftgenius.agent.tools import TurnContext, execute
from giftgenius.catalog import price_in


def call(ctx: TurnContext, name: str, **args: object) -> dict:
    return execute(ctx, name, json.dumps(args))


def _listed(ctx: TurnContext, **extra: object) -> dict:
    found = call(
        ctx,
        "update_profile",
        recipient="sister",
        budget_max=60,
        currency="EUR",
        interests=["hiking"],
        **extra,
    )
    assert found["ok"] and len(ctx.state.candidate_ids) >= 3, found
    return found


def test_several_gifts_are_described_with_dates_and_prices_worked_out(make_ctx) -> None:
    ctx = make_ctx()
    _listed(ctx)
    first, third = ctx.state.candidate_ids[0], ctx.state.candidate_ids[2]
    asked = call(ctx, "get_gift_details", gift_ids=[first, third], by_date="2026-12-05")
    assert asked["ok"], asked
    products = ctx.products([first, third])
    assert [g["id"] for g in asked["gifts"]] == [first, third]
    assert [g["number"] for g in asked["gifts"]] == [1, 3]
    for gift in asked["gifts"]:
        product = products[gift["id"]]
        arrives = ctx.today + dt.timedelta(days=product.delivery_days)
        assert gift["description"] == product.description and gift["title"] == product.title
        assert gift["arrives_on"] == arrives.isoformat()
        assert gift["in_time_for_date"] == (arrives <= dt.date(2026, 12, 5))
        assert gift["in_time_for_deadline"] is None  # no deadline was set
        assert gift["price_in_budget_currency"] == price_in(product, "EUR", ctx.rates)
        assert gift["answers"] == ["hiking"] and gift["selected"] is False
        assert (gift["min_age"], gift["max_age"]) == (product.min_age, product.max_age)
    costs = {g["number"]: g["price_in_budget_currency"] for g in asked["gifts"]}
    assert asked["cheapest"] == [n for n, c in costs.items() if c == min(costs.values())]
    days = {g["number"]: g["delivery_days"] for g in asked["gifts"]}
    assert asked["soonest"] == [n for n, d in days.items() if d == min(days.values())]
    assert asked["by_date"] == "2026-12-05"


def test_the_deadline_set_says_whether_each_arrives_in_time(make_ctx) -> None:
    ctx = make_ctx()
    _listed(ctx, deadline="2026-12-20")
    asked = call(ctx, "get_gift_details", gift_ids=ctx.state.candidate_ids[:1])
    gift = asked["gifts"][0]
    assert asked["deadline"] == "2026-12-20" and gift["in_time_for_deadline"] is True
    assert gift["in_time_for_date"] is None and "cheapest" not in asked  # one gift


def test_a_question_changes_nothing(make_ctx) -> None:
    ctx = make_ctx()
    _listed(ctx, deadline="2026-12-20")
    assert call(ctx, "select_gift", gift_id=ctx.state.candidate_ids[1])["ok"]
    before = ctx.state.model_copy(deep=True)
    checkpoints, staged = len(ctx.checkpoints), len(ctx.staged)
    asked = call(ctx, "get_gift_details", gift_ids=ctx.state.candidate_ids, by_date="2026-12-02")
    assert asked["ok"] and [g["selected"] for g in asked["gifts"]].count(True) == 1
    assert ctx.state == before  # same step, same selected gift, same deadline
    assert len(ctx.checkpoints) == checkpoints and len(ctx.staged) == staged
    assert asked["state"]["selected_gift_id"] == before.selected_gift_id


def test_ids_outside_this_run_are_refused_with_a_clear_error(make_ctx) -> None:
    ctx = make_ctx()
    assert call(ctx, "get_gift_details", gift_ids=["g-0001"])["ok"] is False  # nothing listed
    _listed(ctx)
    before = ctx.state.model_copy(deep=True)
    listed = ctx.state.candidate_ids[0]
    outsider = next(i for i in ctx.state.search_pool if i not in ctx.state.candidate_ids)
    for foreign in (outsider, "g-9999", "not-an-id"):
        refused = call(ctx, "get_gift_details", gift_ids=[listed, foreign])
        assert refused["ok"] is False and refused["code"] == "gift.not_candidate"
        assert refused["params"]["gift_id"] == foreign  # the model mends its call from these
        assert refused["params"]["candidates"] == ctx.state.candidate_ids
        assert "not on the list" in refused["error"]  # the person's sentence
    other = make_ctx("bob")  # another user, another run, other gifts
    found = call(
        other,
        "update_profile",
        recipient="dad",
        budget_max=60,
        currency="EUR",
        interests=["coffee"],
    )
    theirs = [i for i in other.state.candidate_ids if i not in ctx.state.candidate_ids]
    assert found["ok"] and theirs
    assert call(other, "get_gift_details", gift_ids=theirs[:1])["ok"] is True
    assert call(ctx, "get_gift_details", gift_ids=theirs[:1])["ok"] is False
    assert call(ctx, "get_gift_details", gift_ids=[])["ok"] is False
    assert ctx.state == before


def test_the_same_gift_asked_twice_is_described_once(make_ctx) -> None:
    ctx = make_ctx()
    _listed(ctx)
    first = ctx.state.candidate_ids[0]
    asked = call(ctx, "get_gift_details", gift_ids=[first, first])
    assert [g["id"] for g in asked["gifts"]] == [first]
