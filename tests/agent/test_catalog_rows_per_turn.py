"""A turn's cost does not grow with the catalog: at 10,000 products, every turn of a whole
gift conversation (and picking the run up again) reads at most MAX_PRODUCT_ROWS_PER_TURN
product rows — counted as the ORM builds them from the rows the driver returned."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from giftgenius.agent.runner import Agent
from giftgenius.agent.tools.candidates import MAX_PRODUCT_ROWS_PER_TURN
from giftgenius.app import build_agent
from giftgenius.catalog.synthetic import catalog_version, synthetic_products
from giftgenius.domain import Step
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database
from giftgenius.storage.tables import ProductRow

USER = "rows"
SIZE = 10_000


@pytest.fixture
def counted() -> Iterator[list[int]]:
    """A one-element counter of product rows loaded, in any session of this process."""
    rows = [0]

    def loaded(*_: object) -> None:
        rows[0] += 1

    event.listen(ProductRow, "load", loaded)
    yield rows
    event.remove(ProductRow, "load", loaded)


@pytest.fixture
def agent(tmp_path: Path, script) -> Iterator[Agent]:
    settings = load_settings(home=tmp_path / "home")
    settings.home.mkdir(parents=True)
    db = Database.from_settings(settings)
    db.ensure_catalog(list(synthetic_products(SIZE, seed=1)), catalog_version(SIZE, 1))
    db.dispose()
    script.profile("a gift for my grandmother", "What does she enjoy?", recipient="grandmother")
    script.turn(
        "she loves tea, gardening and jazz, 40 euros, to France",
        script.call(
            "update_profile",
            interests=["tea", "jardinage", "jazz"],
            budget_max=40,
            currency="EUR",
            country="FR",
        ),  # complete: searches and filters in the same call
        script.reply("Here is what I found."),
    )
    # A budget change re-runs the filters over the same search.
    script.profile("make it 35 euros", "These pass.", budget_max=35)
    script.turn(
        "tell me about the first",
        script.call("get_gift_details", gift_ids=[{"$state": "/candidate_ids/0"}]),
        script.reply("Here are its details."),
    )
    script.pick("the first one")
    script.confirm("yes")
    built = build_agent(settings)
    yield built
    built.close()


@pytest.mark.slow  # writing 10,000 products and their index takes 10-20 s here
def test_no_turn_reads_more_than_k_product_rows(agent: Agent, counted: list[int]) -> None:
    with agent.db.read() as repos:
        assert repos.catalog.count() == SIZE  # ensure_catalog left the generated one alone
    per_turn: dict[str, int] = {}
    counted[0] = 0
    run = agent.open(USER).run
    per_turn["open"] = counted[0]
    for text in [
        "a gift for my grandmother",
        "she loves tea, gardening and jazz, 40 euros, to France",
        "make it 35 euros",
        "tell me about the first",
        "the first one",
    ]:
        counted[0] = 0
        agent.turn(run.id, USER, text)
        per_turn[text] = counted[0]
    counted[0] = 0
    reopened = agent.open(USER)  # resume: revalidates the shortlist, shows it again
    per_turn["resume"] = counted[0]
    assert reopened.shortlist and reopened.loaded.session.state.step == Step.finalizing
    counted[0] = 0
    agent.turn(run.id, USER, "yes")
    per_turn["yes"] = counted[0]
    live = agent.sessions.load(run.id)
    assert live is not None and live.state.step == Step.done
    assert max(per_turn.values()) <= MAX_PRODUCT_ROWS_PER_TURN, per_turn
    assert per_turn["she loves tea, gardening and jazz, 40 euros, to France"] > 0, per_turn
