"""What the model is told of a recipient from earlier searches: once the run names someone
known, their notes travel in the system message of every later request, newest first,
within about 300 tokens; nobody named, or nobody known, sends none. The real agent, the
offline model, and a wrapper that keeps each request as sent."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from giftgenius.agent.memory import BLOCK_TOKENS
from giftgenius.agent.prompt_window import MEMORY_PREFIX
from giftgenius.app import build_agent
from giftgenius.settings import load_settings

DECEMBER = dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC)


class Keeping:
    """The agent's model, keeping the system message of every request."""

    def __init__(self, inner) -> None:
        self.inner, self.name = inner, inner.name
        self.systems: list[str] = []

    def complete(self, request, on_text=None):
        self.systems.append(str(request.messages[0]["content"]))
        return self.inner.complete(request, on_text)


def _agent(home: Path, when: dt.datetime):
    agent = build_agent(load_settings(home=home), clock=lambda: when)
    agent.model = Keeping(agent.model)
    return agent


def _play(home: Path, when: dt.datetime, lines: list[str], *, new: bool = False) -> list[str]:
    agent = _agent(home, when)
    try:
        run = agent.open("me", new=new).run
        for line in lines:
            agent.turn(run.id, "me", line)
        return agent.model.systems
    finally:
        agent.close()


@pytest.mark.slow
def test_a_known_recipients_notes_reach_the_model_bounded(seeded_home: Path) -> None:
    first = _play(
        seeded_home, DECEMBER, ["a gift for my mum, she loves coffee, 60 euros", "1", "yes"]
    )
    assert not any(MEMORY_PREFIX in s for s in first)  # nothing known yet

    may = DECEMBER + dt.timedelta(days=160)
    lines = ["hello", "it's for my mum, she still loves coffee", "60 euros"]
    again = _play(seeded_home, may, lines, new=True)
    assert MEMORY_PREFIX not in again[0] and MEMORY_PREFIX not in again[1]  # not known yet
    block = again[-1].split(MEMORY_PREFIX, 1)[1]
    assert block.startswith("- Gift search for mum on December 1, 2026.") and "Chose " in block

    agent = _agent(seeded_home, may)
    try:
        assert agent.counter.count_text(block.split("\n\nSummary of")[0]) <= BLOCK_TOKENS
    finally:
        agent.close()


@pytest.mark.slow
def test_another_recipient_is_told_nothing_of_mum(seeded_home: Path) -> None:
    _play(seeded_home, DECEMBER, ["a gift for my mum, she loves coffee, 60 euros", "1", "yes"])
    lines = ["a gift for my sister, 40 euros", "she loves coffee"]
    later = _play(seeded_home, DECEMBER + dt.timedelta(days=30), lines, new=True)
    assert len(later) == 2
    assert not any(MEMORY_PREFIX in s for s in later)


@pytest.mark.slow
def test_many_notes_are_cut_to_whole_notes_within_the_bound(seeded_home: Path) -> None:
    for month in range(1, 7):  # six searches for mum, each a note
        day = DECEMBER + dt.timedelta(days=31 * month)
        lines = [f"a gift for my mum, she loves coffee and gardening and tea, {40 + month} euros"]
        _play(seeded_home, day, [*lines, "1", "yes"], new=True)
    lines = ["for my mum again", "she loves coffee"]
    systems = _play(seeded_home, DECEMBER + dt.timedelta(days=400), lines, new=True)
    block = systems[-1].split(MEMORY_PREFIX, 1)[1]
    notes = [line for line in block.splitlines() if line.startswith("- ")]
    assert 1 <= len(notes) < 6
    budgets = [line.split("up to €")[1][:2] for line in notes]
    assert budgets == ["46", "45", "44", "43", "42"][: len(notes)]  # newest first
