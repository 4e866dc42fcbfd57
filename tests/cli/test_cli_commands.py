"""Commands besides chat: JSON shapes, demos, retention and forgetting.

Conversations that only set up data for a command run on a scripted model (the ``script``
fixture); the demos keep the offline model on purpose, end to end.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest

from giftgenius.demos import PriceCap, get_demo
from giftgenius.domain import Currency

PRODUCT_KEYS = {
    "id",
    "title",
    "description",
    "price",
    "currency",
    "prices",
    "tags",
    "recipients",
    "min_age",
    "max_age",
    "ships_to",
    "delivery_days",
    "in_stock",
}


@pytest.mark.slow
def test_catalog_show_and_search_json(cli) -> None:
    found = cli("catalog", "search", "board", "games", "--json")
    assert found.code == 0
    doc = found.json()
    assert doc["query"] == "board games" and doc["results"]
    first = doc["results"][0]
    assert set(first) >= PRODUCT_KEYS
    assert set(first["prices"]) == set(get_args(Currency))  # every budget currency
    french = cli("catalog", "search", "jeux", "de", "société", "--json").json()
    assert {r["id"] for r in french["results"]} == {r["id"] for r in doc["results"]}
    shown = cli("catalog", "show", first["id"], "--json").json()
    assert shown == first
    assert first["title"] in cli("catalog", "show", first["id"]).out


@pytest.mark.slow
def test_demo_list_and_every_shipped_demo_passes(cli) -> None:
    """End to end on the offline model on purpose: every shipped demo must pass."""
    listed = cli("demo", "--list")
    names = [line.split()[0] for line in listed.out.splitlines() if line.strip()]
    assert len(names) >= 4 and "coworker-fr" in names and "come-back-later" in names
    for name in names:
        ran = cli("demo", name, "--json")
        report = ran.json()  # exactly one JSON document on stdout
        assert ran.code == 0, (name, report["expectations"], ran.err)
        assert report["step"] == "done" and report["selected_gift_id"]
        assert report["checkpoints"][-1] == "final_choice_made"
        assert "you> " in ran.err  # the conversation goes to stderr with --json


@pytest.mark.slow
def test_come_back_later_demo_resumes_from_the_checkpoint(cli) -> None:
    """End to end on the offline model on purpose, like every demo."""
    report = cli("demo", "come-back-later", "--json").json()
    assert report["resumed_from"] == "checkpoint"
    assert report["expectations"] == {"passed": True, "failures": []}


@pytest.mark.slow
def test_a_wrong_expectation_exits_5_and_still_prints_json(cli, tmp_path: Path) -> None:
    """A demo end to end on the offline model on purpose, with an expectation it must fail."""
    demo = get_demo("coworker-fr").model_copy(deep=True)
    demo.expect.not_tags = ["board-game", "coffee", "chocolate", "tea", "puzzle", "card-game"]
    demo.expect.max_price = PriceCap(amount=1, currency="USD")
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(demo.model_dump(mode="json")))
    ran = cli("demo", "--file", str(path), "--json")
    assert ran.code == 5
    report = ran.json()
    assert report["expectations"]["passed"] is False
    assert any("over 1" in f for f in report["expectations"]["failures"])


@pytest.mark.slow
def test_checkpoints_json_shape_and_unknown_user(cli, script) -> None:
    script.shortlist(
        "gift for my mum, she loves tea, 40 EUR",
        recipient="mother",
        interests=["tea"],
        budget_max=40,
        currency="EUR",
    )
    cli("chat", "--user", "c1", stdin="gift for my mum, she loves tea, 40 EUR\n")
    doc = cli("checkpoints", "--user", "c1", "--json").json()
    assert doc["user_id"] == "c1"
    steps = [c["step"] for c in doc["checkpoints"]]
    assert steps[:3] == ["profile_collected", "candidates_generated", "filtered"]
    first = doc["checkpoints"][0]
    assert {"id", "run_id", "step", "created_at", "session_version", "state"} <= set(first)
    assert {"step", "profile", "candidate_ids", "selected_gift_id"} <= set(first["state"])
    assert cli("checkpoints", "--user", "stranger", "--json").json()["checkpoints"] == []
    assert cli("checkpoints", "--user", "c1", "--run", "not-a-run", "--json").code == 1


@pytest.mark.slow
def test_state_json_says_where_it_came_from(cli, script) -> None:
    script.shortlist(
        "gift for a friend who likes hiking, 30 GBP",
        recipient="friend",
        interests=["hiking"],
        budget_max=30,
        currency="GBP",
    )
    cli("chat", "--user", "s1", stdin="gift for a friend who likes hiking, 30 GBP\n")
    doc = cli("state", "--user", "s1", "--json").json()
    assert doc["source"] == "live" and doc["session_version"] >= 1
    assert doc["state"]["profile"]["budget"] == {
        "amount": 30.0,
        "currency": "GBP",
        "min_amount": None,
    }


@pytest.mark.slow
def test_forget_erases_the_user_and_nobody_else(cli, script) -> None:
    script.shortlist(
        "gift for my boss, loves coffee, 45 USD",
        recipient="boss",
        interests=["coffee"],
        budget_max=45,
        currency="USD",
    )
    for user in ("f1", "f2"):
        cli("chat", "--user", user, stdin="gift for my boss, loves coffee, 45 USD\n")
    ran = cli("forget", "--user", "f1")
    assert ran.code == 0 and "Forgot user f1" in ran.out
    assert cli("checkpoints", "--user", "f1", "--json").json()["checkpoints"] == []
    assert cli("state", "--user", "f1", "--json").json()["run_id"] is None
    assert cli("checkpoints", "--user", "f2", "--json").json()["checkpoints"]


@pytest.mark.slow
def test_prune_keeps_the_latest_checkpoint_of_an_unfinished_run(cli, script) -> None:
    script.shortlist(
        "gift for my sister, she loves books, 25 EUR",
        recipient="sister",
        interests=["books"],
        budget_max=25,
        currency="EUR",
    )
    cli("chat", "--user", "p1", stdin="gift for my sister, she loves books, 25 EUR\n")
    before = cli("checkpoints", "--user", "p1", "--json").json()["checkpoints"]
    ran = cli("prune", "--older-than", "0s", "--keep-last", "0")
    assert ran.code == 0
    after = cli("checkpoints", "--user", "p1", "--json").json()["checkpoints"]
    assert [c["id"] for c in after] == [before[-1]["id"]]


@pytest.mark.slow
def test_db_upgrade_and_downgrade_on_the_embedded_database(cli) -> None:
    up = cli("db", "upgrade")
    assert up.code == 0 and "Schema revision:" in up.out
    down = cli("db", "downgrade", "base")
    assert down.code == 0 and "empty" in down.out
    assert cli("db", "upgrade").code == 0
