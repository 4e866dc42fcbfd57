from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest

from giftgenius.agent.runner import Agent
from giftgenius.agent.tools import TurnContext
from giftgenius.app import build_agent
from giftgenius.catalog import load_rates
from giftgenius.domain import SessionState
from giftgenius.settings import load_settings
from giftgenius.storage.db import Database

TODAY = dt.date(2026, 11, 29)


@pytest.fixture
def db(seeded_db_file: Path, tmp_path: Path) -> Iterator[Database]:
    target = tmp_path / "gg.db"
    target.write_bytes(seeded_db_file.read_bytes())
    database = Database(f"sqlite:///{target}")
    yield database
    database.dispose()


@pytest.fixture
def make_ctx(db: Database):
    def make(user_id: str = "alice", run_id: str | None = None) -> TurnContext:
        with db.write() as repos:
            repos.users.ensure(user_id)
            run = repos.runs.start(user_id, run_id or f"run-{user_id}")
        return TurnContext(
            user_id=user_id,
            run_id=run.id,
            state=SessionState(),
            db=db,
            rates=load_rates(),
            today=TODAY,
            default_currency="USD",
        )

    return make


@pytest.fixture
def agent(seeded_home: Path) -> Iterator[Agent]:
    """A whole agent on the offline model over a seeded home (whole-chat tests)."""
    built = build_agent(load_settings(home=seeded_home))
    yield built
    built.close()
