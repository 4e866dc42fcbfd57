"""Dialect helpers every repository shares: INSERT … ON CONFLICT, money, id ordering."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from giftgenius.errors import StorageError


def insert_for(session: Session, table: Any) -> Any:
    """A dialect INSERT, for ON CONFLICT (both SQLite and Postgres speak it)."""
    name = session.get_bind().dialect.name
    if name == "postgresql":
        return postgresql.insert(table)
    if name == "sqlite":
        return sqlite.insert(table)
    raise StorageError(f"Unsupported database dialect {name!r}; use SQLite or PostgreSQL.")


def money(value: float) -> Decimal:
    return Decimal(str(round(value, 2)))


def by_code_point(session: Session, column: Any) -> Any:
    """``column`` ordered as Python orders strings (Postgres' locale collation does not)."""
    return column.collate("C") if session.get_bind().dialect.name == "postgresql" else column
