"""Storage: the session stores (Redis, SQLite), the database and its repositories.

Public surface, imported lazily: ``SessionStore`` (the protocol every backend meets),
``make_session_store``, ``Database`` and ``Repos``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from giftgenius.lazy import lazy_exports

if TYPE_CHECKING:
    from giftgenius.storage.db import Database
    from giftgenius.storage.repositories import Repos
    from giftgenius.storage.session_store import SessionStore, make_session_store

__all__ = ["Database", "Repos", "SessionStore", "make_session_store"]
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Database": "giftgenius.storage.db",
        "Repos": "giftgenius.storage.repositories",
        "SessionStore": "giftgenius.storage.session_store",
        "make_session_store": "giftgenius.storage.leases",
    },
)
