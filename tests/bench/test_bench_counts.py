"""The load test's count of lost and duplicated messages, and the turn bench's figures."""

from __future__ import annotations

import argparse

import pytest
from rich.console import Console

from giftgenius.agent.runner import Agent
from giftgenius.bench.catalogs import progress_bar
from giftgenius.bench.load import count_transcript
from giftgenius.bench.players import Player, Stores
from giftgenius.bench.stats import Breakdown, percentile
from giftgenius.bench.turn import TurnBench, parser, report
from giftgenius.domain import TranscriptEntry
from giftgenius.storage.db import Database


@pytest.mark.slow
def test_the_transcript_count_sees_a_lost_and_a_duplicated_line(agent: Agent) -> None:
    player = Player(agent)
    played = player.open(3)
    for _ in range(3):
        player.turn(played)
    assert count_transcript(agent, [played]) == (0, 0, 0)
    agent.db.turns.accept(
        [
            TranscriptEntry(
                run_id=played.run_id, seq=900, turn_id="x", role="user", content=played.sent[1]
            ),
            TranscriptEntry(
                run_id=played.run_id, seq=901, turn_id="x", role="user", content="who sent this?"
            ),
        ]
    )
    assert count_transcript(agent, [played]) == (0, 1, 1)
    played.replies.append("a reply the transcript never got")
    assert count_transcript(agent, [played]) == (1, 1, 1)


def test_percentiles_are_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50 and percentile(values, 99) == 99
    assert percentile([3.0], 99) == 3.0 and percentile([], 50) == 0.0


@pytest.mark.slow
def test_conversation_and_catalog_parts_print_every_figure(stores: Stores) -> None:
    args: argparse.Namespace = parser().parse_args(
        ["--turns", "2,4", "--catalog", "200,400", "--sessions", "2", "--processes", "1"]
    )
    with progress_bar(Console(force_terminal=False)) as progress:
        bench = TurnBench(args, stores, progress)
        bench.conversations(200)
        for size in (200, 400):
            bench.catalog(size)
        bench.erase()
    figures = bench.figures
    assert set(figures.milestones) == {2, 4}
    window: Breakdown = figures.milestones[4]
    assert window.count == 2 * 4  # both sessions' turns 1..4 (the window is 10 turns)
    # Phases are disjoint parts of the turn: they never add up to more than it (how much
    # they leave out is a figure the command prints, not something a test can time).
    assert 0 <= window.unexplained_pct < 100
    assert figures.catalogs[400]["search"]["turns"] == 2
    assert figures.catalogs[400]["filter"]["p50_ms"] > 0
    figures.load_average = [0.0, 0.0]
    text = report(figures, args)
    assert "turn 4: p50" in text and "outside model and tools" in text and "     400" in text
    # The benchmark's users are gone.
    db = Database.from_settings(stores.for_catalog(200, 0).settings())
    with db.read() as repos:
        assert repos.runs.list_for(f"{bench.prefix}-c-0") == []
    db.dispose()
