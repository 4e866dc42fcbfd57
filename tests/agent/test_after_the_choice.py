"""After the choice is confirmed the run is finished, yet "remember her as Mum for next time"
is often said after the yes: keeping the recipient's profile is the one thing a finished run
still does. Nothing else changes it — no step, no shortlist, no new checkpoint — and the run
stays done. Sentences are our own, in English and French.
"""

from __future__ import annotations

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.domain import RunStatus, Step


@pytest.mark.parametrize(
    ("lines", "keep", "label", "said"),
    [
        (
            ["something for my grandpa, he's into chess, 35 dollars, ships to Ohio",
             "the first", "yes please"],
            "great, and please keep his details as Grandpa Joe",
            "grandpa joe",
            "saved",
        ),
        (
            ["un cadeau pour ma tante, elle adore le thé, 30 euros, livraison à Lille",
             "le premier", "oui"],
            "super, garde-la sous le nom tata Rose pour la prochaine fois",
            "tata rose",
            "enregistré",
        ),
    ],
)  # fmt: skip
@pytest.mark.slow
def test_a_profile_is_kept_after_the_yes_and_the_run_stays_done(
    agent: Agent, lines: list[str], keep: str, label: str, said: str
) -> None:
    user = "after-yes"
    run = agent.open(user).run
    for line in lines:
        done = agent.turn(run.id, user, line)
    assert done.state.step == Step.done
    with agent.db.read() as repos:
        checkpoints = repos.checkpoints.list(user, run.id)
    kept = agent.turn(run.id, user, keep)
    assert said in kept.reply.lower()
    assert kept.state.step == Step.done
    assert kept.state.selected_gift_id == done.state.selected_gift_id
    with agent.db.read() as repos:
        saved = repos.profiles.get(user, label)
        assert saved is not None and saved.profile.interests == done.state.profile.interests
        assert repos.runs.get(run.id).status == RunStatus.done
        assert repos.checkpoints.list(user, run.id) == checkpoints


@pytest.mark.slow
def test_a_change_after_the_yes_is_refused_and_nothing_moves(agent: Agent) -> None:
    user = "after-yes-change"
    run = agent.open(user).run
    for line in ["a gift for my sister, she loves yoga, 40 euros, in Madrid", "1", "yes"]:
        done = agent.turn(run.id, user, line)
    later = agent.turn(run.id, user, "actually make it 60 euros and she also likes candles")
    assert later.state.step == Step.done
    assert later.state.profile == done.state.profile
    assert "finished" in later.reply.lower()
