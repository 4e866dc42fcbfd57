"""A gift named by what it is is found off the list only when it fits the recipient: the
ages a relation tells hold there as in every search (an uncle naming a junior golf set is
not offered it; a nephew of five is)."""

from __future__ import annotations

import pytest

from giftgenius.domain import Step
from tests.agent.test_described_choice import call

JUNIOR_GOLF = "g-0910"  # Junior Golf Set with Soft Clubs, 3 to 8


def _named(make_ctx, recipient: str, age: int | None) -> dict:
    ctx = make_ctx()
    facts = {"recipient": recipient, "interests": ["golf"], "budget_max": 60, "currency": "EUR"}
    if age is not None:
        facts["age"] = age
    shown = call(ctx, "update_profile", **facts)
    assert shown["ok"] and ctx.state.step == Step.finalizing
    listed = JUNIOR_GOLF in ctx.state.candidate_ids
    result = call(ctx, "select_described_gift", described="the junior golf set with soft clubs")
    return {"result": result, "selected": ctx.state.selected_gift_id, "listed": listed}


@pytest.mark.slow
def test_an_uncle_naming_a_childs_product_is_not_offered_it(make_ctx) -> None:
    for recipient in ("my uncle", "mon parrain", "ma tante"):
        named = _named(make_ctx, recipient, None)
        assert not named["listed"] and named["selected"] != JUNIOR_GOLF, recipient


def test_a_child_of_five_naming_it_is_offered_it(make_ctx) -> None:
    named = _named(make_ctx, "my nephew", 5)
    assert named["selected"] == JUNIOR_GOLF
