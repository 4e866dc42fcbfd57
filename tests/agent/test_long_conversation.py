"""A conversation of 300 turns stays inside a 4,000-token window on the offline engine.

End to end on the offline model on purpose: the figures it checks are the offline model's
own conversation, the one ``giftgenius bench state`` prints.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from giftgenius.app import build_agent
from giftgenius.bench.state import play
from giftgenius.catalog import load_products
from giftgenius.settings import load_settings


@pytest.mark.slow
def test_300_turns_stay_inside_the_budget_and_remember_the_early_dislike(tmp_path: Path) -> None:
    settings = load_settings(home=tmp_path / "home", context_window=4000)
    agent = build_agent(settings)
    try:
        rows = list(play(agent, "marathon", 300, {100, 200}))
    finally:
        agent.close()
    last = rows[-1]
    assert last["refusals"] == 0  # the offline engine enforces the 4,000-token window
    assert last["step"] == "done"
    assert last["summarizations"] >= 1
    assert last["truncations"] >= 30
    assert all(r["last_prompt_tokens"] <= 4000 - settings.completion_reserve_tokens for r in rows)
    # Checkpoints and the live session stay small however long the conversation runs.
    assert max(r["checkpoint_bytes"] for r in rows) < 4096
    assert rows[-1]["session_bytes"] < 4 * rows[0]["session_bytes"] + 60_000
    reopened = build_agent(settings)
    try:
        with reopened.db.read() as repos:
            run = repos.runs.latest_for("marathon")
            order = repos.orders.for_run(run.id)
    finally:
        reopened.close()
    assert order is not None
    gift = {p.id: p for p in load_products()}[order.gift_id]
    assert "mug" not in gift.tags  # the dislike from turn 3 still shapes the final choice
