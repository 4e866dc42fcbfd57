"""The piped chat, end to end, as a user runs it (the command-line contract in README.md).

The chat loop and its commands run on a scripted model (the ``script`` fixture), so the
offline model's wording cannot break them; the seed dialogue alone keeps the offline model.
"""

from __future__ import annotations

import pytest

from giftgenius.catalog import load_products, load_rates, price_in

SEED = [
    "J'ai besoin d'un cadeau pour un collègue développeur, budget jusqu'à 50 $, "
    "il aime les jeux de société et la caféine",
    "Il déteste les mugs et a déjà trop de carnets",
    "Livraison en France",
]
FOUR_STEPS = ["profile_collected", "candidates_generated", "filtered", "final_choice_made"]


@pytest.mark.slow
def test_french_seed_conversation_ends_with_a_fitting_gift(proc) -> None:
    """End to end on the offline model on purpose: the seed dialogue must keep working."""
    lines = [*SEED, "Je prends le premier", "Oui, je confirme"]
    chat = proc("chat", "--user", "u1", stdin="\n".join(lines) + "\n")
    assert chat.code == 0, chat.err
    assert "offline model" in chat.err
    state = proc("state", "--user", "u1", "--json").json()
    assert state["state"]["step"] == "done"
    assert state["state"]["locale"] == "fr"
    gift_id = state["state"]["selected_gift_id"]
    product = {p.id: p for p in load_products()}[gift_id]
    assert price_in(product, "USD", load_rates()) <= 50
    assert not {"mug", "notebook"} & set(product.tags)
    assert "*" in product.ships_to or "FR" in product.ships_to
    steps = [c["step"] for c in proc("checkpoints", "--user", "u1", "--json").json()["checkpoints"]]
    assert steps[0] == "profile_collected" and steps[-1] == "final_choice_made"
    assert [s for s in FOUR_STEPS if s in steps] == FOUR_STEPS
    assert sorted(steps, key=FOUR_STEPS.index) == steps  # never out of order


def _script_seed(script) -> None:
    script.shortlist(
        SEED[0],
        recipient="colleague",
        budget_max=50,
        currency="USD",
        interests=["board games", "coffee"],
    )
    # Each change re-runs the filters inside update_profile.
    script.profile(SEED[1], "No mugs or notebooks, then.", dislikes=["mug", "notebook"])
    script.profile(SEED[2], "All of these ship to France.", country="FR")


@pytest.mark.slow
def test_quit_midway_then_resume_in_a_new_process(proc, script) -> None:
    _script_seed(script)
    first = proc("chat", "--user", "u1", stdin="\n".join([*SEED, "/quit", "never sent"]) + "\n")
    assert first.code == 0, first.err
    before = proc("state", "--user", "u1", "--json").json()
    assert before["state"]["step"] == "finalizing"
    assert before["state"]["candidate_ids"]
    resumed = proc("resume", "--user", "u1", stdin="/state\n")
    assert resumed.code == 0, resumed.err
    assert "Bon retour ! Vous cherchiez un cadeau pour votre collègue" in resumed.out
    assert "Lequel vous plaît ?" in resumed.out  # the shortlist again, then the question
    assert "\n1. " in resumed.out and "**" not in resumed.out  # piped: plain text
    after = proc("state", "--user", "u1", "--json").json()
    assert after["run_id"] == before["run_id"]
    assert after["state"]["step"] == before["state"]["step"]
    assert after["state"]["candidate_ids"] == before["state"]["candidate_ids"]
    assert "never sent" not in proc("state", "--user", "u1").out


@pytest.mark.slow
def test_chat_continues_the_unfinished_run_and_new_abandons_it(cli, script) -> None:
    script.profile(
        "gift for my sister, budget 40 euros", recipient="sister", budget_max=40, currency="EUR"
    )
    cli("chat", "--user", "u2", stdin="gift for my sister, budget 40 euros\n")
    again = cli("chat", "--user", "u2", stdin="")
    assert "Welcome back! You were looking for a gift for your sister" in again.out
    run_before = cli("state", "--user", "u2", "--json").json()["run_id"]
    fresh = cli("chat", "--user", "u2", "--new", stdin="")
    assert "Welcome back" not in fresh.out
    state = cli("state", "--user", "u2", "--json").json()
    assert state["run_id"] != run_before and state["state"]["step"] == "collecting_profile"


@pytest.mark.slow
def test_slash_commands_in_piped_chat(cli, script) -> None:
    script.shortlist(
        "gift for my dad who loves coffee, 60 dollars",
        recipient="father",
        interests=["coffee"],
        budget_max=60,
        currency="USD",
    )
    ran = cli(
        "chat",
        "--user",
        "u3",
        stdin="\n".join(
            [
                "gift for my dad who loves coffee, 60 dollars",
                "/state",
                "/usage",
                "/checkpoints",
                "/bogus",
                "/restart",
                "/state",
                "/quit",
            ]
        )
        + "\n",
    )
    assert ran.code == 0
    assert "step: filtering" in ran.out or "step: finalizing" in ran.out
    assert "last request:" in ran.out and "estimated cost" in ran.out
    assert "profile_collected" in ran.out
    assert "Unknown command /bogus" in ran.err
    assert "Started a new gift search" in ran.err
    assert "step: collecting_profile" in ran.out


@pytest.mark.slow
def test_overlong_input_is_refused_and_the_chat_goes_on(cli, monkeypatch, script) -> None:
    script.profile("gift for my mum", recipient="mother")
    monkeypatch.setenv("GIFTGENIUS_MAX_INPUT_CHARS", "30")
    ran = cli("chat", "--user", "u4", stdin="x" * 31 + "\n" + "gift for my mum\n")
    assert ran.code == 0
    assert "the limit is 30" in ran.err and "not taken" in ran.err
    state = cli("state", "--user", "u4", "--json").json()
    assert state["state"]["profile"]["recipient"] == "mother"


@pytest.mark.slow
def test_exit_codes(cli) -> None:
    assert cli("chat", "--user", "bad user!").code == 2
    assert "Invalid user id" in cli("state", "--user", "x" * 65).err
    assert cli("resume", "--user", "nobody").code == 3
    assert cli("catalog", "show", "g-nope").code == 1
    assert cli("demo", "no-such-demo").code == 1
    assert cli("prune", "--older-than", "ninety").code == 2
    assert cli("chat").code == 2


@pytest.mark.slow
def test_resume_of_a_finished_or_foreign_run_exits_3(cli, script) -> None:
    script.shortlist(
        "gift for my brother, loves tea, 30 USD",
        recipient="brother",
        interests=["tea"],
        budget_max=30,
        currency="USD",
    )
    cli("chat", "--user", "u5", stdin="gift for my brother, loves tea, 30 USD\n")
    run_id = cli("state", "--user", "u5", "--json").json()["run_id"]
    assert cli("resume", "--user", "u6", "--run", run_id).code == 3
    cli("chat", "--user", "u5", "--new", stdin="")
    assert cli("resume", "--user", "u5", "--run", run_id).code == 3  # abandoned
