"""Candidates restored days later are re-checked against today's catalog."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import sqlalchemy as sa

from giftgenius.agent.revalidate import revalidate
from giftgenius.app import build_agent
from giftgenius.catalog import load_products, load_rates
from giftgenius.domain import Budget, ProfileDraft, SessionState, Step
from giftgenius.settings import load_settings

TODAY = dt.date(2026, 11, 29)


def _state(ids: list[str], **profile: object) -> SessionState:
    return SessionState(
        step=Step.finalizing,
        profile=ProfileDraft(
            recipient="friend",
            budget=Budget(amount=1000, currency="USD"),
            interests=["coffee"],
            **profile,
        ),
        candidate_ids=ids,
        search_pool=ids,
        selected_gift_id=ids[0],
    )


def test_sold_out_repriced_and_removed_candidates_are_dropped() -> None:
    products = {p.id: p for p in load_products() if p.in_stock}
    a, b, c, d = list(products)[:4]
    state = _state([a, b, c, d])
    today_catalog = dict(products)
    today_catalog[a] = products[a].model_copy(update={"in_stock": False})
    today_catalog[b] = products[b].model_copy(update={"price": 5000.0})
    del today_catalog[c]
    notes = revalidate(state, today_catalog, load_rates(), TODAY)
    assert state.candidate_ids == [d]
    assert state.selected_gift_id is None  # the selected gift sold out
    assert len(notes) == 3
    assert "out of stock" in notes[0] and "over budget" in notes[1]
    assert "removed from the catalog" in notes[2]
    assert state.step == Step.finalizing


def test_a_passed_deadline_empties_the_shortlist_and_steps_back_to_filtering() -> None:
    products = {p.id: p for p in load_products() if p.in_stock}
    ids = list(products)[:3]
    state = _state(ids, deadline=TODAY + dt.timedelta(days=2))
    notes = revalidate(state, products, load_rates(), TODAY + dt.timedelta(days=10))
    assert len(notes) == 3 and all("cannot arrive" in n for n in notes)
    assert state.step == Step.filtering and state.candidate_ids == ids


def test_nothing_changes_when_everything_still_passes() -> None:
    products = {p.id: p for p in load_products() if p.in_stock}
    state = _state(list(products)[:3])
    before = state.model_copy(deep=True)
    assert revalidate(state, products, load_rates(), TODAY) == []
    assert state == before


@pytest.mark.slow
def test_resume_days_later_reports_and_applies_what_changed(
    tmp_path: Path, script, seeded_home
) -> None:
    script.shortlist(
        "gift for my dad who loves coffee, 80 USD",
        recipient="father",
        interests=["coffee"],
        budget_max=80,
        currency="USD",
    ).says("which one arrives fastest?", "The second one arrives first.")
    settings = load_settings(home=tmp_path / "home")
    agent = build_agent(settings)
    opened = agent.open("later")
    agent.turn(opened.run.id, "later", "gift for my dad who loves coffee, 80 USD")
    session = agent.sessions.load(opened.run.id)
    assert session is not None and session.state.step == Step.finalizing
    first = session.state.candidate_ids[0]
    assert agent.model.failures == []
    agent.close()
    engine = sa.create_engine(settings.effective_database_url)
    with engine.begin() as conn:
        conn.execute(sa.text("UPDATE products SET in_stock = false WHERE id = :i"), {"i": first})
    engine.dispose()

    ten_days_later = build_agent(settings, clock=lambda: dt.datetime.now(dt.UTC) + dt.timedelta(10))
    try:
        resumed = ten_days_later.resume("later")
        assert any("out of stock" in n for n in resumed.notices)
        result = ten_days_later.turn(resumed.run.id, "later", "which one arrives fastest?")
        assert first not in result.state.candidate_ids
        assert result.notices == resumed.notices
        assert ten_days_later.model.failures == []
    finally:
        ten_days_later.close()
