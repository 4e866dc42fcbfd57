"""Wire the parts together from settings: the one place that knows every backend.

``build_reader`` opens the stores only; ``build_agent`` adds the model (and with it the
tokenizer). Commands that only read or erase stored runs take the reader, so they start
without importing a model client.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from giftgenius.settings import Settings

if TYPE_CHECKING:
    from giftgenius.agent.reader import RunReader
    from giftgenius.agent.runner import Agent
    from giftgenius.storage.db import Database
    from giftgenius.storage.memories import MemoryStore
    from giftgenius.storage.session_store import SessionStore


def _stores(settings: Settings) -> tuple[Database, SessionStore, MemoryStore]:
    """The database, the session store and the long-term memory store (whose writes for an
    erased run the session store's tombstones refuse)."""
    from giftgenius.storage.db import Database
    from giftgenius.storage.memories import make_memory_store
    from giftgenius.storage.session_store import make_session_store

    settings.home.mkdir(parents=True, exist_ok=True)
    db = Database.from_settings(settings)
    db.ensure_catalog()
    sessions = make_session_store(settings)
    return db, sessions, make_memory_store(settings, erased=sessions.is_erased, db=db)


def build_reader(
    settings: Settings, *, clock: Callable[[], dt.datetime] | None = None
) -> RunReader:
    """The stores and what reading runs needs — no model, no tokenizer."""
    from giftgenius.agent.reader import RunReader

    db, sessions, memories = _stores(settings)
    return RunReader(settings=settings, db=db, sessions=sessions, clock=clock, memories=memories)


def build_agent(settings: Settings, *, clock: Callable[[], dt.datetime] | None = None) -> Agent:
    from giftgenius.agent.runner import Agent
    from giftgenius.llm.factory import make_embedder, make_model, model_context_window

    db, sessions, memories = _stores(settings)
    return Agent(
        settings=settings,
        db=db,
        sessions=sessions,
        model=make_model(settings),
        window=model_context_window(settings),
        clock=clock,
        memories=memories,
        embedder=make_embedder(settings),
    )
