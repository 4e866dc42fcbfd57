"""The series a conversation leaves, checked against what the conversation itself recorded.

Values are process-wide, so every test compares the registry before and after what it does
(``delta``), never absolute values: tests stay independent in any order and under xdist.
"""

from __future__ import annotations

import io
import json
import logging
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius import metrics
from giftgenius.agent.runner import Agent
from giftgenius.agent.timings import PHASES
from giftgenius.app import build_agent, build_reader
from giftgenius.cli.main import main
from giftgenius.errors import SessionBusy, StorageError, UsageError, VersionConflict
from giftgenius.settings import load_settings
from giftgenius.storage.sqlite_sessions import SqliteSessionStore

Key = tuple[str, tuple[tuple[str, str], ...]]

LINES = [
    "gift for my sister who loves tea, budget 40 EUR",
    "She lives in France",
    "the first one",
    "yes",
]


def snapshot() -> dict[Key, float]:
    """Every giftgenius_ sample in this process, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in metrics.REGISTRY.collect()
        if family.name.startswith("giftgenius_")
        for sample in family.samples
    }


class Delta:
    """What changed between two snapshots; ``of(name, **labels)`` reads one sample."""

    def __init__(self, before: dict[Key, float], after: dict[Key, float]) -> None:
        self.changed = {
            key: value - before.get(key, 0.0)
            for key, value in after.items()
            if value != before.get(key, 0.0)
        }

    def of(self, name: str, **labels: str) -> float:
        return self.changed.get((name, tuple(sorted(labels.items()))), 0.0)

    def by(self, name: str, label: str, **fixed: str) -> dict[str, float]:
        """The changed samples of ``name`` (with ``fixed`` labels), by the value of ``label``."""
        found = {}
        for (sample, labels), value in self.changed.items():
            named = dict(labels)
            if sample == name and all(named.get(k) == v for k, v in fixed.items()):
                found[named[label]] = value
        return found


@pytest.mark.slow
def test_a_whole_chat_counts_turns_model_calls_tools_checkpoints_and_store_operations(
    seeded_home: Path,
) -> None:
    before = snapshot()
    out, err = io.StringIO(), io.StringIO()
    code = main(
        ["chat", "--user", "metered"],
        stdin=io.StringIO("\n".join(LINES) + "\n"),
        stdout=out,
        stderr=err,
    )
    delta = Delta(before, snapshot())  # before anything below reads the stores
    assert code == 0, err.getvalue()

    # What the conversation recorded: its transcript, checkpoints and live session.
    settings = load_settings()
    reader = build_reader(settings)
    try:
        state = io.StringIO()
        assert main(["state", "--user", "metered", "--json"], stdout=state) == 0
        run_id = json.loads(state.getvalue())["run_id"]
        with reader.db.read() as repos:
            entries = repos.transcript.for_run(run_id)
            checkpoints = repos.checkpoints.list("metered", run_id)
            run = repos.runs.get(run_id)
        session = reader.sessions.load(run_id)
    finally:
        reader.close()
    assert run is not None and session is not None
    assert run.status == "done"  # the conversation went the whole way: a choice confirmed

    turns = len(LINES)
    assert delta.of("giftgenius_turns_total", outcome="ok") == turns
    assert delta.by("giftgenius_turns_total", "outcome") == {"ok": turns}
    assert delta.of("giftgenius_turn_seconds_count") == turns
    for phase in PHASES:
        assert delta.of("giftgenius_turn_phase_seconds_count", phase=phase) == turns, phase

    usage = session.usage
    model = "offline"
    calls = usage.requests + usage.summary_requests
    assert calls >= turns
    assert delta.of("giftgenius_model_calls_total", model=model, outcome="ok") == calls
    assert delta.of("giftgenius_model_calls_total", model=model, outcome="error") == usage.refusals
    assert delta.of("giftgenius_model_call_seconds_count", model=model) == calls + usage.refusals
    assert delta.of("giftgenius_model_tokens_total", model=model, kind="prompt") == (
        usage.prompt_tokens + usage.summary_prompt_tokens
    )
    assert delta.of("giftgenius_model_tokens_total", model=model, kind="completion") == (
        usage.completion_tokens + usage.summary_completion_tokens
    )

    called = {c.id: c.name for e in entries if e.role == "assistant" for c in e.tool_calls}
    refused = Counter(
        called[e.tool_call_id]
        for e in entries
        if e.role == "tool" and e.tool_call_id and json.loads(e.content or "{}").get("ok") is False
    )
    assert called  # the offline model did call tools
    assert delta.by("giftgenius_tool_calls_total", "tool") == Counter(called.values())
    assert delta.by("giftgenius_tool_errors_total", "tool") == dict(refused)

    steps = Counter(str(cp.step) for cp in checkpoints)
    assert steps["final_choice_made"] == 1
    assert delta.by("giftgenius_checkpoint_writes_total", "step") == steps
    assert delta.of("giftgenius_checkpoint_bytes_count") == len(checkpoints)
    sizes = sum(len(cp.payload_json().encode()) for cp in checkpoints)
    assert delta.of("giftgenius_checkpoint_bytes_sum") == sizes

    ops = delta.by("giftgenius_session_store_operations_total", "operation", backend="sqlite")
    assert ops["save"] == run.session_version == turns  # each committed turn publishes once
    # The lease comes with the session and goes with the save: one operation each a turn.
    assert ops["lease_acquire_load"] == turns  # never refused: no waiting
    # Only opening the run took a lease of its own (and loaded, and released it): every
    # turn's save gave its lease back.
    assert ops["lease_release"] == ops["lease_acquire"] == ops["load"] == 1
    assert delta.by("giftgenius_session_store_failures_total", "operation") == {}
    assert delta.of("giftgenius_lease_wait_seconds_count", outcome="acquired") == 0
    assert delta.of("giftgenius_active_sessions") == 0  # every lease given back


@pytest.fixture
def agent(seeded_home: Path) -> Iterator[Agent]:
    built = build_agent(load_settings(home=seeded_home, lease_wait=0.05))
    yield built
    built.close()


@pytest.mark.slow
def test_one_turn_loads_saves_and_holds_the_lease_once(agent: Agent) -> None:
    """Two session-store operations a turn: the lease with the load, the save with the
    release."""
    run = agent.open("solo").run
    before = snapshot()
    agent.turn(run.id, "solo", LINES[0])
    delta = Delta(before, snapshot())
    ops = delta.by("giftgenius_session_store_operations_total", "operation", backend="sqlite")
    assert {k: v for k, v in ops.items() if k != "lease_renew"} == {
        "lease_acquire_load": 1,
        "save": 1,
    }


@pytest.mark.slow
def test_a_turn_refused_as_busy_is_counted_with_its_wait(agent: Agent) -> None:
    run = agent.open("busy").run
    before = snapshot()
    with agent.sessions.lease(run.id, "another-window", wait=0), pytest.raises(SessionBusy):
        agent.turn(run.id, "busy", LINES[0])
    delta = Delta(before, snapshot())
    assert delta.by("giftgenius_turns_total", "outcome") == {"busy": 1}
    assert delta.of("giftgenius_lease_wait_seconds_count", outcome="busy") == 1
    assert delta.of("giftgenius_lease_wait_seconds_sum", outcome="busy") >= 0.05
    assert delta.of("giftgenius_turn_seconds_count") == 0  # a refused turn has no phases
    assert delta.of("giftgenius_active_sessions") == 0


def test_a_turn_too_long_is_counted_as_rejected(agent: Agent) -> None:
    run = agent.open("long").run
    before = snapshot()
    with pytest.raises(UsageError):
        agent.turn(run.id, "long", "x" * (agent.settings.max_input_chars + 1))
    assert Delta(before, snapshot()).by("giftgenius_turns_total", "outcome") == {"rejected": 1}


def test_store_failures_are_counted_but_a_lost_check_and_set_is_not(tmp_path: Path) -> None:
    store = SqliteSessionStore(tmp_path / "s.db", session_ttl=60, max_lifetime=600, lease_ttl=5)
    before = snapshot()
    with pytest.raises(VersionConflict):
        store.save(_session("r1"), expected_version=3)  # no such session: a lost race
    store.close()
    with pytest.raises(StorageError):
        store.load("r1")  # closed: the store refuses
    delta = Delta(before, snapshot())
    ops = delta.by("giftgenius_session_store_operations_total", "operation", backend="sqlite")
    assert ops == {"save": 1, "load": 1}
    failures = delta.by("giftgenius_session_store_failures_total", "operation", backend="sqlite")
    assert failures == {"load": 1}


@pytest.mark.slow
def test_a_metric_that_fails_never_breaks_a_turn(
    agent: Agent, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: object) -> object:
        raise OSError("no space left for the metrics files")

    run = agent.open("unmetered").run
    monkeypatch.setattr(metrics, "_child", broken)
    monkeypatch.setattr(metrics, "_complained", False)
    with caplog.at_level(logging.WARNING, logger="giftgenius.metrics"):
        first = agent.turn(run.id, "unmetered", LINES[0])
        second = agent.turn(run.id, "unmetered", LINES[1])
    assert first.reply and second.reply and second.version == 2
    complaints = [r for r in caplog.records if r.name == "giftgenius.metrics"]
    assert len(complaints) == 1  # said once, not on every hook


def _session(run_id: str):
    from giftgenius.domain import Session

    return Session(run_id=run_id, user_id="u")
