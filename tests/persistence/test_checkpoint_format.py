"""Checkpoints written in older formats stay readable; newer formats are refused clearly."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from giftgenius.domain import (
    CHECKPOINT_FORMAT_VERSION,
    Budget,
    Checkpoint,
    CheckpointStep,
    ProfileDraft,
    SessionState,
    Step,
    Summary,
)
from giftgenius.errors import StorageError
from giftgenius.storage.checkpoints import decode_checkpoint, parse_age, parse_budget
from giftgenius.storage.db import Database
from giftgenius.storage.tables import CheckpointRow

FIXTURE = Path(__file__).parent / "fixtures" / "checkpoint_v1.json"


def _v1() -> tuple[dict[str, Any], dict[str, Any]]:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    row = dict(data["row"])
    row["created_at"] = datetime.fromisoformat(row["created_at"])
    return row, data["payload"]


def test_v1_checkpoint_is_upgraded_on_read() -> None:
    row, payload = _v1()
    cp = decode_checkpoint(row, payload)
    assert cp.format_version == CHECKPOINT_FORMAT_VERSION
    assert (cp.id, cp.run_id, cp.user_id) == (row["id"], row["run_id"], "legacy-user")
    assert cp.step is CheckpointStep.filtered and cp.session_version == 4
    assert cp.state.step is Step.finalizing
    assert cp.state.profile == ProfileDraft(
        recipient="colleague",
        audience="colleague",
        age=35,
        budget=Budget(amount=50, currency="USD"),
        interests=["board games", "coffee"],
        dislikes=["mugs"],
    )
    assert cp.state.candidate_ids == ["g-0012", "g-0044", "g-0107"]
    assert cp.state.selected_gift_id == "g-0044"
    assert cp.state.locale == "fr"
    assert cp.summary == Summary()


@pytest.mark.slow
def test_v1_checkpoint_row_in_the_database_reads_as_current(tmp_path: Path) -> None:
    row, payload = _v1()
    db = Database(f"sqlite:///{tmp_path / 'gg.db'}")
    with db.write() as repos:
        repos.runs.start("legacy-user", row["run_id"])
        repos.session.add(CheckpointRow(**row, payload=payload))
    with db.read() as repos:
        latest = repos.checkpoints.latest(row["run_id"])
        listed = repos.checkpoints.list("legacy-user")
    db.dispose()
    assert latest == decode_checkpoint(row, payload) and listed == [latest]


def test_current_format_round_trips() -> None:
    cp = Checkpoint(
        run_id="r" * 32,
        user_id="alice",
        step=CheckpointStep.candidates_generated,
        session_version=3,
        agent_version="0.1.0",
        state=SessionState(step=Step.filtering, candidate_ids=["g-1", "g-2"], locale="fr"),
        summary=Summary(text="wants coffee things", through_seq=6, tokens=5),
        next_seq=9,
    )
    meta = cp.model_dump(include={"id", "run_id", "user_id", "step", "created_at"})
    meta |= {
        "session_version": 3,
        "agent_version": "0.1.0",
        "format_version": CHECKPOINT_FORMAT_VERSION,
    }
    assert decode_checkpoint(meta, cp.payload()) == cp


def test_a_newer_format_is_refused_with_what_to_do() -> None:
    row, _ = _v1()
    newer = CHECKPOINT_FORMAT_VERSION + 1
    with pytest.raises(StorageError, match=rf"format version {newer}, newer.*upgrade GiftGenius"):
        decode_checkpoint(row, {"format_version": newer, "state": {}})
    with pytest.raises(StorageError, match="no valid format version"):
        decode_checkpoint(row | {"format_version": None}, {"state": {}})
    with pytest.raises(StorageError, match="cannot be read"):
        decode_checkpoint(
            row, {"format_version": CHECKPOINT_FORMAT_VERSION, "state": {"step": "dancing"}}
        )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("50 USD", Budget(amount=50, currency="USD")),
        ("$50", Budget(amount=50, currency="USD")),
        ("40€", Budget(amount=40, currency="EUR")),
        ("30 euros", Budget(amount=30, currency="EUR")),
        ("£25.50", Budget(amount=25.5, currency="GBP")),
        ("20-60 EUR", Budget(amount=60, currency="EUR", min_amount=20)),
        ("40 quid", Budget(amount=40, currency="GBP")),  # the currency table the offline model uses
        ("us$ 30", Budget(amount=30, currency="USD")),
        ("75", Budget(amount=75, currency="USD")),
        ("cheap", None),
        ("", None),
    ],
)
def test_v1_budget_strings(text: str, expected: Budget | None) -> None:
    assert parse_budget(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [("30-40", 35), ("25", 25), ("60+", 60), ("5-8", 6), ("adult", None), (None, None)],
)
def test_v1_age_ranges(text: str | None, expected: int | None) -> None:
    assert parse_age(text) == expected
