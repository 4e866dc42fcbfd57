"""A gift named by what it is, in a whole chat with the offline model and the shipped catalog.

The person names a thing the shortlist does not show; it is found in the catalog within
their budget and country, offered with its price in their currency, and recorded only
after a yes. Sentences are our own, in English and French.
"""

from __future__ import annotations

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.domain import Step


@pytest.mark.parametrize(
    ("lines", "gift", "offered"),
    [
        (
            ["a present for my uncle, espresso addict, 45 dollars, he lives in Denver",
             "do you have a stovetop one?"],
            "g-0072",
            "not on the list",
        ),
        (
            ["Pour mon parrain qui adore le café, 120 euros, livraison en Belgique",
             "je prendrais plutôt un moulin en bois"],
            "g-0057",
            "pas dans la liste",
        ),
    ],
)  # fmt: skip
@pytest.mark.slow
def test_a_thing_named_off_the_list_is_offered_then_confirmed(
    agent: Agent, lines: list[str], gift: str, offered: str
) -> None:
    user = "namer"
    run = agent.open(user).run
    *facts, naming = lines
    for line in facts:
        shown = agent.turn(run.id, user, line)
    assert shown.state.step == Step.finalizing and gift not in shown.state.candidate_ids
    named = agent.turn(run.id, user, naming)
    assert named.state.selected_gift_id == gift and offered in named.reply
    assert "≈" in named.reply  # its price in the budget's currency, as the list shows prices
    assert named.state.step == Step.finalizing  # nothing is recorded before a yes
    done = agent.turn(run.id, user, "oui" if "Pour" in lines[0] else "yes")
    assert done.state.step == Step.done and done.state.selected_gift_id == gift
