"""Count the database statements and transactions a process sends (``bench turn``).

SQLAlchemy's engine events see every statement a ``Database`` sends through any of its
engines (``Database.engines``): ``before_cursor_execute`` for statements, ``begin`` for
transactions (on Postgres a read is a statement of its own, with no transaction opened).
A handful of integer additions per statement: cheap enough to leave on while timing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from giftgenius.storage.db import Database


class StatementCounter:
    """Running totals for one database handle; read them before and after a turn."""

    def __init__(self, db: Database) -> None:
        self.statements = 0
        self.transactions = 0
        self._engines = db.engines
        for engine in self._engines:
            event.listen(engine, "before_cursor_execute", self._statement)
            event.listen(engine, "begin", self._begin)

    def snapshot(self) -> tuple[int, int]:
        return self.statements, self.transactions

    def close(self) -> None:
        for engine in self._engines:
            event.remove(engine, "before_cursor_execute", self._statement)
            event.remove(engine, "begin", self._begin)

    def _statement(self, *_args: Any) -> None:
        self.statements += 1

    def _begin(self, *_args: Any) -> None:
        self.transactions += 1
