"""The seed's French dialogue: a choice made before leaving waits for the person's yes.

Played on the offline model through real processes, as a person pipes it: the first part
chooses and leaves ("je reviendrai pour finaliser plus tard"), so a gift is selected and no
order draft exists; ``resume`` and an explicit yes record the draft.
"""

from __future__ import annotations

import pytest

FIRST_PART = [
    "J'ai besoin d'un cadeau pour un collègue développeur, budget jusqu'à 50 $, "
    "il aime les jeux de société et la caféine.",
    "Il déteste les mugs et a déjà trop de carnets.",
    "Je prends la deuxième idée, mais je reviendrai pour finaliser plus tard.",
]


@pytest.mark.slow
def test_choosing_before_leaving_waits_for_the_yes_after_resume(proc) -> None:
    chat = proc("chat", "--user", "seed", stdin="\n".join(FIRST_PART) + "\n")
    assert chat.code == 0, chat.err
    state = proc("state", "--user", "seed", "--json").json()["state"]
    assert state["step"] == "finalizing"
    chosen = state["selected_gift_id"]
    assert chosen == state["candidate_ids"][1]  # the second idea
    assert state.get("order_draft_id") is None

    resumed = proc("resume", "--user", "seed", stdin="On finalise : oui, je confirme ce choix.\n")
    assert resumed.code == 0, resumed.err
    state = proc("state", "--user", "seed", "--json").json()
    assert state["state"]["step"] == "done"
    assert state["state"]["selected_gift_id"] == chosen
    assert state["state"]["order_draft_id"]
    assert state["checkpoints"][-1] == "final_choice_made"
