"""Wire the parts together from settings: the one place that knows every backend."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from giftgenius.agent.runner import Agent
from giftgenius.domain import utcnow
from giftgenius.llm.factory import make_model, model_context_window
from giftgenius.settings import Settings
from giftgenius.storage.db import Database
from giftgenius.storage.sessions import make_session_store


def build_agent(settings: Settings, *, clock: Callable[[], dt.datetime] = utcnow) -> Agent:
    settings.home.mkdir(parents=True, exist_ok=True)
    db = Database.from_settings(settings)
    db.ensure_catalog()
    return Agent(
        settings=settings,
        db=db,
        sessions=make_session_store(settings),
        model=make_model(settings),
        window=model_context_window(settings),
        clock=clock,
    )
