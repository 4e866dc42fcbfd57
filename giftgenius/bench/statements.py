"""Count the database statements and transactions a process sends (``bench turn``).

SQLAlchemy's engine events see every statement a ``Database`` sends through any of its
engines (``Database.engines``): ``before_cursor_execute`` for statements, ``begin`` for
transactions (on Postgres a read is a statement of its own, with no transaction opened).
The turn's own statements go to the driver past those events, and ``Database.turns``
counts them the same way.
A handful of integer additions per statement: cheap enough to leave on while timing.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from giftgenius.storage.db import Database


class StatementCounter:
    """Running totals for one database handle; read them before and after a turn.

    The turn's own statements go to the driver without SQLAlchemy's events
    (``storage/turn_rows.py``), which counts them itself: they are added here.
    """

    def __init__(self, db: Database) -> None:
        self._statements = 0
        self._transactions = 0
        self._turns = db.turns
        self._engines = db.engines
        for engine in self._engines:
            event.listen(engine, "before_cursor_execute", self._statement)
            event.listen(engine, "begin", self._begin)

    @property
    def statements(self) -> int:
        return self._statements + self._turns.statements

    @property
    def transactions(self) -> int:
        return self._transactions + self._turns.transactions

    def snapshot(self) -> tuple[int, int]:
        return self.statements, self.transactions

    def close(self) -> None:
        for engine in self._engines:
            event.remove(engine, "before_cursor_execute", self._statement)
            event.remove(engine, "begin", self._begin)

    def _statement(self, *_args: Any) -> None:
        self._statements += 1

    def _begin(self, *_args: Any) -> None:
        self._transactions += 1
