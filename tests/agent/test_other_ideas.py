"""Other ideas: ``search_candidates`` after a shortlist leaves out the gifts already shown
since the search's facts last changed, and when none is left keeps the list on show and
says so (``no_others``). The rule is the agent's: any model asking for other ideas gets it."""

from __future__ import annotations

import json

from giftgenius.agent.tools import TurnContext, execute
from giftgenius.domain import Step
from giftgenius.replies.outcomes import Outcome, present

COFFEE = {"recipient": "brother", "interests": ["coffee"], "budget_max": 80, "currency": "USD"}
CHESS = {"recipient": "uncle", "interests": ["chess"], "budget_max": 40, "currency": "EUR"}


def call(ctx: TurnContext, name: str, **args: object) -> dict:
    return execute(ctx, name, json.dumps(args))


def ids(result: dict) -> list[str]:
    return [c["id"] for c in result["shortlist"]]


def said(name: str, result: dict, ctx: TurnContext, locale: str = "en") -> str:
    state = ctx.state.model_dump(mode="json")
    reply = present([Outcome(name, {}, result)], state, locale, latest=1)
    assert reply is not None
    return reply


def test_other_ideas_leave_out_every_gift_shown(make_ctx) -> None:
    ctx = make_ctx()
    first = call(ctx, "update_profile", **COFFEE)
    assert len(ids(first)) == 6 and "others" not in first
    second = call(ctx, "search_candidates")
    assert second["others"] is True and len(ids(second)) == 6
    assert not set(ids(second)) & set(ids(first))
    third = call(ctx, "search_candidates")
    assert not set(ids(third)) & (set(ids(first)) | set(ids(second)))
    assert ctx.state.shown_ids == [*ids(first), *ids(second), *ids(third)]
    assert ctx.state.candidate_ids == ids(third) and ctx.state.step == Step.finalizing
    assert said("search_candidates", third, ctx).startswith("Here are 6 other ideas that fit")
    assert said("search_candidates", third, ctx, "fr").startswith("Voici 6 autres idées")


def test_with_nothing_new_the_list_on_show_stays_and_it_is_said(make_ctx) -> None:
    ctx = make_ctx()
    first = call(ctx, "update_profile", **CHESS)
    shown = ids(first)
    assert 0 < len(shown) < 6  # every fitting chess gift is on show already
    again = call(ctx, "search_candidates")
    assert again["no_others"] is True and ids(again) == shown
    assert ctx.state.candidate_ids == shown and ctx.state.step == Step.finalizing
    reply = said("search_candidates", again, ctx)
    assert reply.startswith("Those are all the ideas I have that fit everything you said")
    assert "1. **" in reply  # the list again, to choose from
    assert call(ctx, "select_gift", gift_id=shown[0])["ok"]


def test_a_changed_search_starts_what_was_shown_afresh(make_ctx) -> None:
    ctx = make_ctx()
    call(ctx, "update_profile", **COFFEE)
    call(ctx, "search_candidates")
    tea = call(ctx, "update_profile", interests=["tea"])
    assert ctx.state.shown_ids == ids(tea)
    budget = call(ctx, "update_profile", budget_max=60)  # a filter: the same search, again
    assert ctx.state.shown_ids == ids(budget)


def test_a_first_search_by_the_tool_is_no_other_ideas(make_ctx) -> None:
    ctx = make_ctx()
    call(ctx, "update_profile", **COFFEE)
    ctx.state.shown_ids = []  # as a state written before anything was shown
    found = call(ctx, "search_candidates")
    assert "others" not in found and ids(found)
