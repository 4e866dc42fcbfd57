"""Ranking one interest reads its posting list in rank order and stops at the LIMIT.

The top products for a stated interest must not cost a GROUP BY and a sort of every product
that matches it (at 100,000 products that was ~1,200 products and 191 ms per search): SQLite's
plan for it is a range of the postings' primary key, sorting only the audience fit within
runs of equal keys ("RIGHT PART OF ORDER BY"), with no temporary tree for a GROUP BY.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import event

from giftgenius.catalog.search import interest_query
from giftgenius.storage.db import Database


@pytest.fixture
def shipped(tmp_path: Path) -> Iterator[Database]:
    database = Database(f"sqlite:///{tmp_path / 'gg.db'}")
    database.ensure_catalog()
    yield database
    database.dispose()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("interest", "recipient", "age"),
    [("board games", "colleague", None), ("jeux de société", "mother", 61), ("thé", None, None)],
)
def test_one_interest_is_a_range_scan_of_its_postings(
    shipped: Database, interest: str, recipient: str | None, age: int | None
) -> None:
    statements: list[tuple[str, object]] = []

    def record(_c: object, _cur: object, statement: str, params: object, *_: object) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "LIMIT" in statement:
            statements.append((statement, params))

    event.listen(shipped.engine, "before_cursor_execute", record)
    try:
        with shipped.read() as repos:
            query = interest_query(interest, recipient=recipient, age=age)
            assert repos.catalog.search().ranked_ids(query, limit=20)
            [(statement, params)] = statements
            cursor = repos.session.connection().connection.driver_connection.cursor()
            plan = [row[-1] for row in cursor.execute(f"EXPLAIN QUERY PLAN {statement}", params)]
    finally:
        event.remove(shipped.engine, "before_cursor_execute", record)
    assert "FROM product_postings s" in statement
    assert any(step.startswith("SEARCH s USING PRIMARY KEY") for step in plan), plan
    assert not any("GROUP BY" in step for step in plan), plan
    assert not any(step.endswith("FOR ORDER BY") and "RIGHT PART" not in step for step in plan)
